/* Linked stack chunks (kernel/stack/chunks.c): a task that starts with one 256-byte chunk runs
 * a recursion that needs several KiB. Every frame that does not fit in the chunk it runs in
 * moves to a new chunk linked for it (many links, nested), including a frame larger than a
 * chunk (a 600-byte array: its chunk is sized to it) and a function with stack arguments
 * (copied to the chunk). The results equal their closed forms; when the recursion has returned
 * every chunk linked for it is back in the heap (heap bytes in use and the limit as before) and a second run reuses them; the task's peak chunk bytes (its stack_usage `used`)
 * cover the recursion. On cactus-sim the ownership oracle, which follows every chunk, sees
 * nothing. */
#include "ktest.h"

const char ktest_name[] = "chunks_deep";

extern uint32_t cactus_stacklet_heap_bytes, cactus_stacklet_heap_peak;

static volatile uintptr_t first_lo, first_hi;
static volatile int outside, big_outside, args_outside;

static uintptr_t sp_now(void)
{
    uintptr_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    return sp;
}

static int note(uintptr_t sp)
{
    int out = sp < first_lo || sp >= first_hi;
    outside += out;
    return out;
}

static uint32_t __attribute__((noinline)) big(uint32_t seed)
{
    volatile uint8_t buf[600];
    big_outside += note(sp_now());
    for (uint32_t i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(seed + i);
    uint32_t acc = 0;
    for (uint32_t i = 0; i < sizeof(buf); i++)
        acc += buf[i];
    return acc;
}

/* Ten arguments: the last two are passed on the stack (ARGS = 8), read after the move. Its
 * frame (more than 256 bytes) never fits in what is left of a 256-byte chunk, so its own check
 * always moves it and the arguments are always copied. */
static uint32_t __attribute__((noinline, noclone)) args10(uint32_t a, uint32_t b, uint32_t c,
                                                          uint32_t d, uint32_t e, uint32_t f,
                                                          uint32_t g, uint32_t h, uint32_t i,
                                                          uint32_t j)
{
    volatile uint32_t buf[64];
    args_outside += note(sp_now());
    for (uint32_t k = 0; k < 64; k++)
        buf[k] = a + b + c + d + e + f + g + h + i + j;
    return buf[63];
}

static volatile uint32_t k9 = 9, k10 = 10;

/* depth levels of about 64 bytes each: each level hands its callee the address of one of its
 * own words (so GCC cannot turn the recursion into a loop) and the callee writes its depth
 * there. deep(n) = leaf + sum over d = 1..n of (d + (d - 1)) = leaf + n * n. */
static uint32_t __attribute__((noinline)) deep(uint32_t depth, volatile uint32_t *up)
{
    volatile uint32_t pad[8];
    note(sp_now());
    *up = depth;
    pad[0] = depth;
    if (depth == 0)
        return big(3) + args10(1, 2, 3, 4, 5, 6, 7, 8, k9, k10);
    uint32_t r = deep(depth - 1, &pad[1]);
    return r + pad[0] + pad[1];
}

/* The closed forms: n * n, the bytes of big(3) (sum of (3 + i) mod 256 over 600 bytes), and
 * 1 + 2 + ... + 10. */
static uint32_t want(uint32_t n)
{
    uint32_t b = 0;
    for (uint32_t i = 0; i < 600; i++)
        b += (uint8_t)(3u + i);
    return n * n + b + 55u;
}

static volatile uint32_t top_word;

static void worker(void *arg)
{
    (void)arg;
    cactus_stack_info s;
    CHECK_EQ(cactus_task_stack(cactus_task_self(), &s), CACTUS_OK);
    /* worker's own frame may already run in a chunk linked for it: the chunk it runs in is
     * [s.limit, its sp), the frames below it are counted outside when they are elsewhere. */
    CHECK_EQ(s.size, 256);
    uintptr_t limit0 = s.limit;
    first_lo = limit0;
    first_hi = sp_now();
    uint32_t before = cactus_stacklet_heap_bytes;
    CHECK_EQ(deep(100, &top_word), want(100));
    CHECK(outside > 50);
    CHECK(big_outside == 1);
    CHECK(args_outside == 1);
    CHECK_EQ(cactus_stacklet_heap_bytes, before);
    uint32_t peak = cactus_stacklet_heap_peak;
    CHECK(peak >= before + 4096);
    CHECK_EQ(cactus_task_stack(cactus_task_self(), &s), CACTUS_OK);
    CHECK_EQ(s.limit, limit0);
    CHECK(s.used >= 4096 + 256);
    /* The same again: the chunks are reused, the peak does not move. */
    outside = 0;
    CHECK_EQ(deep(100, &top_word), want(100));
    CHECK(outside > 50);
    CHECK_EQ(cactus_stacklet_heap_bytes, before);
    CHECK_EQ(cactus_stacklet_heap_peak, peak);
    kprintf("recursion of 100 levels: %d frames outside the first chunk, task peak %u bytes\n",
            outside, s.used);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "worker", .entry = worker, .stack_size = 256, .prio = 10 },
};

int main(void)
{
    ktest_start(tasks, 1);
}
