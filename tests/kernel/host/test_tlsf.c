/* TLSF allocator: the block format on a hand-checked example, exhaustion, split and coalesce,
 * tags, refusals, the base residue, the good-fit guarantee, and a property test of random
 * alloc/free sequences against a model of the live blocks. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "htest.h"
#include "tlsf.h"

#define W(a) (*(uint32_t *)(a))

/* A check whose failure ends the test at `out` (the next steps would use what it found
 * wrong: a broken allocator fails the test instead of crashing it). */
#define NEED(c)                                                                                    \
    do {                                                                                           \
        HT_CHECK(c);                                                                               \
        if (!(c))                                                                                  \
            goto out;                                                                              \
    } while (0)

/* A pool buffer whose base is congruent to `residue` modulo 16 (size + 32 bytes, to free). */
static uintptr_t pool_base(void **buf, uint32_t size, unsigned residue)
{
    *buf = malloc(size + 32);
    return (((uintptr_t)*buf + 15) & ~(uintptr_t)15) + residue;
}

/* The block size of a request (tlsf_alloc: round_up(bytes + 4, 16)). */
static uint32_t block_of(uint32_t bytes)
{
    return (bytes + 4 + 15) / 16 * 16;
}

static unsigned log2_floor(uint32_t x)
{
    unsigned k = 0;
    while (x >>= 1)
        k++;
    return k;
}

/* The width of n's second-level class: 16 below 512, else 1/16 of n's power of two. */
static uint32_t class_width(uint32_t n)
{
    return n < 512 ? 16 : 1u << (log2_floor(n) - 4);
}

/* n rounded up to a class bound: a free block at least this large serves a block of n. */
static uint32_t class_up(uint32_t n)
{
    return (n + class_width(n) - 1) & ~(class_width(n) - 1);
}

/* The lower bound of n's class. */
static uint32_t class_down(uint32_t n)
{
    return n & ~(class_width(n) - 1);
}

void test_tlsf_layout(void)
{
    void *buf;
    uintptr_t b = pool_base(&buf, 100, 8);
    struct tlsf h;
    tlsf_init(&h, b, 100); /* usable floor(96 / 16) * 16 = 96, sentinel at b + 96 */
    HT_CHECK(W(b) == 0x61);                  /* free, 96 bytes */
    HT_CHECK(W(b + 4) == TLSF_NIL && W(b + 8) == TLSF_NIL);
    HT_CHECK(W(b + 92) == 0);                /* footer: offset 0 */
    HT_CHECK(W(b + 96) == TLSF_PREV_FREE);   /* sentinel: used, size 0, prev free */
    HT_CHECK(tlsf_free_bytes(&h) == 96 && tlsf_largest_free(&h) == 96);
    HT_CHECK(tlsf_check(&h) == 0);

    uintptr_t p = tlsf_alloc(&h, 20); /* 24 -> 32 bytes */
    NEED(p == b + 4);
    HT_CHECK(W(b) == 0x20);                  /* used, n / 16 = 2 at bit 4, tag 0 */
    HT_CHECK(tlsf_block_bytes(p) == 32 && tlsf_tag(p) == 0);
    HT_CHECK(W(b + 32) == 0x41);             /* the remainder: free, 64 bytes */
    HT_CHECK(W(b + 36) == TLSF_NIL && W(b + 40) == TLSF_NIL);
    HT_CHECK(W(b + 92) == 32);
    HT_CHECK(W(b + 96) == TLSF_PREV_FREE);
    tlsf_set_tag(p, 0xBEEF);
    HT_CHECK(W(b) == 0xBEEF0020 && tlsf_tag(p) == 0xBEEF);

    uintptr_t q = tlsf_alloc(&h, 60); /* 64 bytes: takes the remainder whole */
    NEED(q == b + 36);
    HT_CHECK(W(b + 32) == 0x40);
    HT_CHECK(W(b + 96) == 0);                /* sentinel: prev no longer free */
    HT_CHECK(tlsf_free_bytes(&h) == 0 && tlsf_largest_free(&h) == 0);
    HT_CHECK(tlsf_alloc(&h, 0) == 0);
    HT_CHECK(tlsf_check(&h) == 0);

    tlsf_free(&h, p);
    HT_CHECK(W(b) == 0x21 && W(b + 28) == 0);
    HT_CHECK(W(b + 32) == 0x42);             /* q: used, 64 bytes, prev free */
    tlsf_set_tag(q, 0x1234);
    HT_CHECK(W(b + 32) == 0x12340042 && tlsf_block_bytes(q) == 64);
    HT_CHECK(tlsf_check(&h) == 0);
    tlsf_free(&h, q);
    HT_CHECK(W(b) == 0x61 && W(b + 92) == 0 && W(b + 96) == TLSF_PREV_FREE);
    HT_CHECK(W(b + 4) == TLSF_NIL && W(b + 8) == TLSF_NIL);
    HT_CHECK(tlsf_free_bytes(&h) == 96 && tlsf_check(&h) == 0);
out:
    free(buf);
}

void test_tlsf_init_exhaust(void)
{
    void *buf;
    uintptr_t b = pool_base(&buf, 171, 0);
    struct tlsf h;
    tlsf_init(&h, b, 4 + 160 + 7); /* usable 160 */
    HT_CHECK(tlsf_free_bytes(&h) == 160 && W(b + 160) == TLSF_PREV_FREE);
    for (unsigned i = 0; i < 10; i++)
        NEED(tlsf_alloc(&h, i % 2 ? 12 : 0) == b + 4 + 16 * i);
    HT_CHECK(tlsf_alloc(&h, 0) == 0);
    HT_CHECK(tlsf_free_bytes(&h) == 0 && tlsf_check(&h) == 0);
    for (unsigned i = 0; i < 10; i += 2)
        tlsf_free(&h, b + 4 + 16 * i);
    HT_CHECK(tlsf_free_bytes(&h) == 80 && tlsf_check(&h) == 0);
    HT_CHECK(tlsf_alloc(&h, 13) == 0); /* 32 bytes: only 16-byte holes */
    for (unsigned i = 1; i < 10; i += 2)
        tlsf_free(&h, b + 4 + 16 * i);
    HT_CHECK(W(b) == (160 | TLSF_FREE) && tlsf_check(&h) == 0);

    tlsf_init(&h, b, 19); /* too small: empty */
    HT_CHECK(tlsf_free_bytes(&h) == 0 && tlsf_alloc(&h, 0) == 0 && tlsf_check(&h) == 0);
    tlsf_init(&h, b, 20); /* one 16-byte block */
    HT_CHECK(tlsf_alloc(&h, 13) == 0);
    HT_CHECK(tlsf_alloc(&h, 12) == b + 4 && tlsf_check(&h) == 0);
out:
    free(buf);
}

void test_tlsf_split_coalesce(void)
{
    void *buf;
    uintptr_t b = pool_base(&buf, 260, 8);
    struct tlsf h;
    tlsf_init(&h, b, 260); /* usable 256 */
    uintptr_t a = tlsf_alloc(&h, 28), c = tlsf_alloc(&h, 28), d = tlsf_alloc(&h, 28),
              e = tlsf_alloc(&h, 28);
    NEED(a == b + 4 && c == b + 36 && d == b + 68 && e == b + 100);
    HT_CHECK(W(b + 128) == (128 | TLSF_FREE) && tlsf_free_bytes(&h) == 128);

    tlsf_free(&h, c); /* no free neighbour */
    HT_CHECK(W(b + 32) == (32 | TLSF_FREE) && W(b + 64) == (32 | TLSF_PREV_FREE));
    tlsf_free(&h, a); /* merges with the next block */
    HT_CHECK(W(b) == (64 | TLSF_FREE) && W(b + 60) == 0 && W(b + 64) == (32 | TLSF_PREV_FREE));
    HT_CHECK(tlsf_check(&h) == 0);
    tlsf_free(&h, d); /* merges with the previous block */
    HT_CHECK(W(b) == (96 | TLSF_FREE) && W(b + 92) == 0 && W(b + 96) == (32 | TLSF_PREV_FREE));
    HT_CHECK(tlsf_check(&h) == 0 && tlsf_free_bytes(&h) == 224);
    tlsf_free(&h, e); /* merges with both */
    HT_CHECK(W(b) == (256 | TLSF_FREE) && W(b + 252) == 0 && W(b + 256) == TLSF_PREV_FREE);
    HT_CHECK(tlsf_check(&h) == 0 && tlsf_free_bytes(&h) == 256);

    /* Splitting a merged block again. */
    a = tlsf_alloc(&h, 100); /* 112 */
    HT_CHECK(a == b + 4 && W(b + 112) == (144 | TLSF_FREE) && W(b + 252) == 112);
    HT_CHECK(tlsf_check(&h) == 0);
out:
    free(buf);
}

void test_tlsf_tag(void)
{
    void *buf;
    uintptr_t b = pool_base(&buf, 1024, 8);
    struct tlsf h;
    tlsf_init(&h, b, 1024);
    uintptr_t a = tlsf_alloc(&h, 40), p = tlsf_alloc(&h, 40), c = tlsf_alloc(&h, 40);
    NEED(a && p && c);
    tlsf_set_tag(p, 0xFFFF);
    tlsf_set_tag(c, 0x8001);
    tlsf_free(&h, a); /* sets p's prev-free bit */
    HT_CHECK(tlsf_tag(p) == 0xFFFF && tlsf_block_bytes(p) == 48);
    HT_CHECK(W(p - 4) == (0xFFFF0000u | 48 | TLSF_PREV_FREE));
    a = tlsf_alloc(&h, 40); /* clears it again */
    NEED(a);
    HT_CHECK(tlsf_tag(a) == 0 && W(p - 4) == (0xFFFF0000u | 48));
    tlsf_free(&h, p);
    HT_CHECK(tlsf_tag(c) == 0x8001 && tlsf_block_bytes(c) == 48);
    p = tlsf_alloc(&h, 40); /* the same block, fresh */
    NEED(p == a + 48);
    HT_CHECK(tlsf_tag(p) == 0 && tlsf_block_bytes(p) == 48);
    tlsf_set_tag(p, 7);
    HT_CHECK(tlsf_tag(p) == 7 && tlsf_block_bytes(p) == 48 && tlsf_check(&h) == 0);
out:
    free(buf);
}

void test_tlsf_oversize(void)
{
    void *buf;
    uintptr_t b = pool_base(&buf, 200000, 0);
    struct tlsf h;
    tlsf_init(&h, b, 200000);
    HT_CHECK(tlsf_largest_free(&h) == TLSF_BLOCK_MAX);
    HT_CHECK(tlsf_alloc(&h, 65517) == 0);
    HT_CHECK(tlsf_alloc(&h, 0xFFFFFFFCu) == 0);
    HT_CHECK(tlsf_alloc(&h, 0xFFFFFFFFu) == 0);
    uintptr_t p = tlsf_alloc(&h, 65516);
    NEED(p == b + 4 && tlsf_block_bytes(p) == 65520);
    tlsf_set_tag(p, 0xABCD);
    HT_CHECK(tlsf_block_bytes(p) == 65520 && tlsf_tag(p) == 0xABCD);
    HT_CHECK(tlsf_check(&h) == 0);
out:
    free(buf);
}

void test_tlsf_residue(void)
{
    static const uint32_t sizes[] = { 0, 1, 12, 13, 60, 100, 500, 1000, 4000, 30000 };
    for (unsigned residue = 0; residue < 16; residue += 4) {
        void *buf;
        uintptr_t b = pool_base(&buf, 50000, residue);
        struct tlsf h;
        tlsf_init(&h, b, 50000);
        for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
            uintptr_t p = tlsf_alloc(&h, sizes[i]);
            HT_CHECK(p && p % 16 == (residue + 4) % 16);
            if (!p)
                break;
            HT_CHECK(tlsf_block_bytes(p) == block_of(sizes[i]));
            if (i % 3 == 0)
                tlsf_free(&h, p);
        }
        HT_CHECK(tlsf_check(&h) == 0);
        free(buf);
    }
}

/* The largest pool: blocks in the last first-level class. */
void test_tlsf_pool_max(void)
{
    void *buf;
    uint32_t size = TLSF_POOL_MAX + 1000;
    uintptr_t b = pool_base(&buf, size, 4);
    struct tlsf h;
    tlsf_init(&h, b, size); /* usable clamped to TLSF_POOL_MAX */
    HT_CHECK(tlsf_free_bytes(&h) == TLSF_POOL_MAX && W(b) == (TLSF_POOL_MAX | TLSF_FREE));
    HT_CHECK(W(b + TLSF_POOL_MAX) == TLSF_PREV_FREE && tlsf_check(&h) == 0);
    HT_CHECK(tlsf_largest_free(&h) == TLSF_BLOCK_MAX);
    uintptr_t p = tlsf_alloc(&h, 65516), q = tlsf_alloc(&h, 0);
    NEED(p == b + 4 && q == b + 4 + 65520);
    HT_CHECK(tlsf_check(&h) == 0 && tlsf_free_bytes(&h) == TLSF_POOL_MAX - 65536);
    tlsf_free(&h, p);
    tlsf_free(&h, q);
    HT_CHECK(W(b) == (TLSF_POOL_MAX | TLSF_FREE) && tlsf_check(&h) == 0);
out:
    free(buf);
}

/* A request may fail while a large-enough block lies in its own, inexact class. */
void test_tlsf_good_fit(void)
{
    void *buf;
    uintptr_t b = pool_base(&buf, 4 + 1072 + 16, 8);
    struct tlsf h;
    tlsf_init(&h, b, 4 + 1072 + 16);
    uintptr_t x = tlsf_alloc(&h, 1068), g = tlsf_alloc(&h, 12);
    NEED(x && g && tlsf_free_bytes(&h) == 0);
    tlsf_free(&h, x); /* the only free block: 1072, class [1024, 1088) */
    HT_CHECK(tlsf_largest_free(&h) == 1024);
    HT_CHECK(tlsf_alloc(&h, 1052) == 0); /* 1056 rounds up to 1088 */
    x = tlsf_alloc(&h, 1020);             /* 1024 is a class bound */
    NEED(x == b + 4 && tlsf_free_bytes(&h) == 48);
    tlsf_free(&h, x);
    tlsf_free(&h, g);

    /* Below 512 every class is exact: a 496-byte hole serves a 496-byte block. */
    tlsf_init(&h, b, 4 + 496 + 16);
    x = tlsf_alloc(&h, 492);
    g = tlsf_alloc(&h, 12);
    NEED(x && g);
    tlsf_free(&h, x);
    HT_CHECK(tlsf_largest_free(&h) == 496 && tlsf_alloc(&h, 492) == b + 4);
    HT_CHECK(tlsf_check(&h) == 0);
out:
    free(buf);
}

/* Property test. The model: the live blocks sorted by address, each with the payload pattern
 * seed and tag its owner wrote. */
struct live {
    uintptr_t p;
    uint32_t n, seed;
    uint16_t tag;
};

static uint32_t rng;

static uint32_t xorshift(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* Word k of a payload with pattern seed `seed` (payloads are 4-aligned, n - 4 bytes long). */
static uint32_t pattern(uint32_t seed, uint32_t k)
{
    return seed ^ (k * 0x9E3779B9u);
}

/* A request size: small (0..64 bytes), stacklet-like (64..1024), large (1 KiB..16 KiB) or huge
 * (16 KiB..69 KiB, some above TLSF_BLOCK_MAX), in the percentages of `mix`. */
struct mix {
    unsigned small, stacklet, large;
};

static uint32_t random_request(struct mix m)
{
    uint32_t r = xorshift() % 100;
    if (r < m.small)
        return xorshift() % 65;
    if (r < m.small + m.stacklet)
        return 64 + xorshift() % 961;
    if (r < m.small + m.stacklet + m.large)
        return 1024 + xorshift() % 15361;
    return 16384 + xorshift() % 53617;
}

/* The largest hole between the live blocks: the largest free block, as free blocks coalesce. */
static uint32_t largest_hole(const struct live *live, uint32_t count, uintptr_t base,
                             uint32_t usable)
{
    uintptr_t at = base;
    uint32_t gap = 0;
    for (uint32_t i = 0; i < count; i++) {
        gap = live[i].p - 4 - at > gap ? (uint32_t)(live[i].p - 4 - at) : gap;
        at = live[i].p - 4 + live[i].n;
    }
    return base + usable - at > gap ? (uint32_t)(base + usable - at) : gap;
}

/* A check of tlsf_run: a failure reports the seed and the operation and ends the run. */
#define PCHECK(c)                                                                                  \
    do {                                                                                           \
        HT_CHECK(c);                                                                               \
        if (!(c)) {                                                                                \
            printf("  seed %u, op %u\n", seed, op);                                               \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)

/* `ops` random operations (requests drawn from `mix`) on a pool of `size` bytes at residue
 * `residue`, then frees everything; the model is checked after every operation. */
static void tlsf_run(uint32_t seed, uint32_t size, unsigned residue, struct mix mix, unsigned ops)
{
    void *buf;
    uintptr_t base = pool_base(&buf, size, residue);
    uint32_t usable = (size - 4) / 16 * 16;
    uint32_t cap = usable / 16, count = 0, used = 0;
    struct live *live = malloc(cap * sizeof(*live));
    struct tlsf h;
    unsigned op = 0;
    rng = seed;
    tlsf_init(&h, base, size);
    for (op = 0; op < ops || count; op++) {
        /* Waves: fill for 3000 operations, drain for 3000, then free everything. */
        unsigned pct = op >= ops ? 0 : op / 3000 % 2 ? 30 : 70;
        if (xorshift() % 100 < pct || !count) {
            uint32_t bytes = random_request(mix), n = block_of(bytes);
            uintptr_t p = tlsf_alloc(&h, bytes);
            if (!p) { /* allowed only as tlsf_alloc's good-fit guarantee says */
                uint32_t hole = largest_hole(live, count, base, usable);
                PCHECK(n > TLSF_BLOCK_MAX || hole < class_up(n));
                continue;
            }
            PCHECK(n <= TLSF_BLOCK_MAX && tlsf_block_bytes(p) == n && tlsf_tag(p) == 0);
            PCHECK((p - 4) % 16 == base % 16 && p - 4 >= base && p - 4 + n <= base + usable);
            uint32_t lo = 0, hi = count;
            while (lo < hi) {
                uint32_t mid = (lo + hi) / 2;
                if (live[mid].p < p)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            uint32_t i = lo;
            PCHECK(i == 0 || live[i - 1].p - 4 + live[i - 1].n <= p - 4);
            PCHECK(i == count || p - 4 + n <= live[i].p - 4);
            memmove(&live[i + 1], &live[i], (count - i) * sizeof(*live));
            live[i] = (struct live){ p, n, xorshift(), (uint16_t)xorshift() };
            count++;
            used += n;
            for (uint32_t k = 0; k < (n - 4) / 4; k++)
                ((uint32_t *)p)[k] = pattern(live[i].seed, k);
            tlsf_set_tag(p, live[i].tag);
        } else {
            uint32_t i = xorshift() % count;
            struct live l = live[i];
            PCHECK(tlsf_block_bytes(l.p) == l.n && tlsf_tag(l.p) == l.tag);
            uint32_t bad = 0;
            for (uint32_t k = 0; k < (l.n - 4) / 4; k++)
                bad += ((uint32_t *)l.p)[k] != pattern(l.seed, k);
            PCHECK(bad == 0);
            tlsf_free(&h, l.p);
            memmove(&live[i], &live[i + 1], (count - i - 1) * sizeof(*live));
            count--;
            used -= l.n;
        }
        PCHECK(tlsf_free_bytes(&h) == usable - used);
        PCHECK(tlsf_check(&h) == 0);
        /* tlsf_largest_free: the class bound of the largest hole, capped. */
        uint32_t gap = largest_hole(live, count, base, usable);
        uint32_t expect = class_down(gap) < TLSF_BLOCK_MAX ? class_down(gap) : TLSF_BLOCK_MAX;
        PCHECK(tlsf_largest_free(&h) == expect);
    }
    /* Everything freed: one free block spans the usable pool, the sentinel after it. */
    PCHECK(W(base) == (usable | TLSF_FREE) && W(base + usable) == TLSF_PREV_FREE);
    PCHECK(tlsf_free_bytes(&h) == usable && tlsf_check(&h) == 0);
out:
    free(live);
    free(buf);
}

void test_tlsf_property(void)
{
#define STACKS { 45, 45, 8 } /* mostly small and stacklet-sized blocks */
#define HEAP { 15, 15, 50 }   /* mostly large ones, 20 % huge */
    static const struct {
        uint32_t size;
        unsigned residue;
        struct mix mix;
    } pools[] = {
        { 4096, 8, STACKS }, { 48 * 1024, 8, STACKS }, { 65536 + 7, 0, STACKS },
        { 200000, 4, HEAP }, { (1u << 20) + 100, 12, HEAP },
    };
    for (unsigned i = 0; i < sizeof(pools) / sizeof(pools[0]); i++)
        tlsf_run(0x9E3779B9u * (i + 1), pools[i].size, pools[i].residue, pools[i].mix, 50000);
}
