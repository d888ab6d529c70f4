/* Fixed-block pools without blocking: argument checks, every block handed out once and then
 * NULL (exhaustion), blocks distinct, aligned, inside the buffer and not overlapping (each
 * keeps its own pattern), LIFO reuse of freed blocks, free rejecting every pointer that does
 * not start a block of that pool (block sizes even, odd multiple of 4 and a power of two),
 * and the high water (most blocks in use at once, not the current count). */
#include "ktest.h"

const char ktest_name[] = "pool_basic";

static uint32_t buf12[3 * 7];  /* 7 blocks of 12 bytes (12 = 3 * 4: an odd factor) */
static uint32_t buf32[8 * 4];  /* 4 blocks of 32 bytes (a power of two) */
static uint32_t buf20[5 * 3];  /* 3 blocks of 20 bytes */
static cactus_pool p12, p32, p20;

/* Every pointer from buf - 2 * block to the end + 2 * block, step 1 byte: exactly the block
 * starts are accepted (each freed block is taken back at once). */
static void check_free_test(cactus_pool *p, uint8_t *buf, uint32_t block, uint32_t count)
{
    for (int32_t off = -2 * (int32_t)block; off < (int32_t)(block * (count + 2)); off++) {
        uint8_t *ptr = buf + off;
        int is_block = off >= 0 && off < (int32_t)(block * count) && off % (int32_t)block == 0;
        if (!is_block) {
            CHECK_EQ(cactus_pool_free(p, ptr), CACTUS_EINVAL);
            continue;
        }
        CHECK_EQ(cactus_pool_free(p, ptr), CACTUS_OK);
        CHECK(cactus_pool_alloc(p, CACTUS_NO_WAIT) == ptr); /* LIFO: the block just freed */
    }
}

static void fill_all(cactus_pool *p, uint8_t *buf, uint32_t block, uint32_t count, uint8_t **got)
{
    for (uint32_t i = 0; i < count; i++) {
        got[i] = cactus_pool_alloc(p, CACTUS_NO_WAIT);
        CHECK(got[i] != 0);
        CHECK_EQ(((uintptr_t)got[i]) % 4, 0);
        CHECK(got[i] >= buf && got[i] + block <= buf + block * count);
        CHECK_EQ((uint32_t)(got[i] - buf) % block, 0);
        for (uint32_t j = 0; j < i; j++)
            CHECK(got[j] != got[i]);
        for (uint32_t b = 0; b < block; b++)
            got[i][b] = (uint8_t)(i * 16 + b);
        CHECK_EQ(cactus_pool_high_water(p), i + 1);
    }
    CHECK(cactus_pool_alloc(p, CACTUS_NO_WAIT) == 0); /* exhausted */
    CHECK(cactus_pool_alloc(p, CACTUS_NO_WAIT) == 0);
    for (uint32_t i = 0; i < count; i++)
        for (uint32_t b = 0; b < block; b++)
            CHECK_EQ(got[i][b], (uint8_t)(i * 16 + b));
}

static void task(void *arg)
{
    (void)arg;
    cactus_pool bad;
    CHECK_EQ(cactus_pool_init(&bad, buf12, 0, 4), CACTUS_EINVAL);
    CHECK_EQ(cactus_pool_init(&bad, buf12, 6, 4), CACTUS_EINVAL);
    CHECK_EQ(cactus_pool_init(&bad, buf12, 12, 0), CACTUS_EINVAL);
    CHECK_EQ(cactus_pool_init(&bad, (uint8_t *)buf12 + 2, 12, 4), CACTUS_EINVAL);
    CHECK_EQ(cactus_pool_init(&bad, 0, 12, 4), CACTUS_EINVAL);
    CHECK_EQ(cactus_pool_init(&bad, buf12, 0x10000000u, 0x100u), CACTUS_EINVAL); /* wraps */

    CHECK_EQ(cactus_pool_init(&p12, buf12, 12, 7), CACTUS_OK);
    CHECK_EQ(cactus_pool_init(&p32, buf32, 32, 4), CACTUS_OK);
    CHECK_EQ(cactus_pool_init(&p20, buf20, 20, 3), CACTUS_OK);
    CHECK_EQ(cactus_pool_high_water(&p12), 0);

    uint8_t *got[7];
    fill_all(&p12, (uint8_t *)buf12, 12, 7, got);
    /* Frees come back last in, first out; the high water stays at its peak. */
    CHECK_EQ(cactus_pool_free(&p12, got[2]), CACTUS_OK);
    CHECK_EQ(cactus_pool_free(&p12, got[5]), CACTUS_OK);
    CHECK_EQ(cactus_pool_high_water(&p12), 7);
    CHECK(cactus_pool_alloc(&p12, CACTUS_NO_WAIT) == got[5]);
    CHECK(cactus_pool_alloc(&p12, CACTUS_NO_WAIT) == got[2]);
    CHECK(cactus_pool_alloc(&p12, CACTUS_NO_WAIT) == 0);
    /* A block of another pool, and pointers inside blocks, are not blocks of p12. */
    CHECK_EQ(cactus_pool_free(&p12, buf32), CACTUS_EINVAL);
    check_free_test(&p12, (uint8_t *)buf12, 12, 7);
    for (int i = 0; i < 7; i++)
        CHECK_EQ(cactus_pool_free(&p12, got[i]), CACTUS_OK);
    CHECK(cactus_pool_alloc(&p12, CACTUS_NO_WAIT) == got[6]);

    fill_all(&p32, (uint8_t *)buf32, 32, 4, got);
    check_free_test(&p32, (uint8_t *)buf32, 32, 4);
    fill_all(&p20, (uint8_t *)buf20, 20, 3, got);
    check_free_test(&p20, (uint8_t *)buf20, 20, 3);

    /* The high water is the most in use at once: 2, then 1 and 1 again, then 3. */
    cactus_pool hw;
    CHECK_EQ(cactus_pool_init(&hw, buf32, 32, 4), CACTUS_OK);
    void *a = cactus_pool_alloc(&hw, CACTUS_NO_WAIT), *b = cactus_pool_alloc(&hw, CACTUS_NO_WAIT);
    CHECK_EQ(cactus_pool_free(&hw, a), CACTUS_OK);
    CHECK_EQ(cactus_pool_free(&hw, b), CACTUS_OK);
    for (int i = 0; i < 5; i++) {
        a = cactus_pool_alloc(&hw, CACTUS_NO_WAIT);
        CHECK_EQ(cactus_pool_free(&hw, a), CACTUS_OK);
    }
    CHECK_EQ(cactus_pool_high_water(&hw), 2);
    a = cactus_pool_alloc(&hw, CACTUS_NO_WAIT);
    b = cactus_pool_alloc(&hw, CACTUS_NO_WAIT);
    void *c = cactus_pool_alloc(&hw, CACTUS_NO_WAIT);
    CHECK(a && b && c);
    CHECK_EQ(cactus_pool_high_water(&hw), 3);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "task", .entry = task, .stack_size = 1024, .prio = 3 },
};

int main(void)
{
    ktest_start(tasks, 1);
}
