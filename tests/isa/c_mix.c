/* A C program at -O2 mixing what compiled code does: table and bitwise
 * CRC32, quicksort with function-pointer comparison, recursion (Ackermann,
 * Towers of Hanoi), struct copies by value (memcpy), a dense switch (jump
 * table), 64-bit multiply/divide/modulo/shift (libgcc __udivdi3, __divdi3,
 * __umoddi3, __moddi3), signed/unsigned char and short conversions, and a
 * final checksum. The expected values were computed by compiling this same
 * file for the host with a stand-in rt.h (tests/common/host/rt.h); they do
 * not come from QEMU. */
#include "rt.h"

/* Expected values, computed by a host build of this file (see
 * tests/common/host/rt.h); the host build defines HOST_EXPECT to skip them. */
#ifndef HOST_EXPECT
#define EXPECT_CRC 0xc35519deu
#define EXPECT_SORT 0x9df99277u
#define EXPECT_HANOI 0x9f8aa798u
#define EXPECT_STRUCT 0x9bd3b699u
#define EXPECT_SWITCH 0x5906d041u
#define EXPECT_WIDE_HI 0x43284075u
#define EXPECT_WIDE_LO 0x3e64488au
#define EXPECT_NARROW 0xcb01dc88u
#define EXPECT_TOTAL 0x236d8510u
#endif

static uint32_t lcg_state;
static uint32_t lcg(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state;
}

static uint32_t crc_table[256];
static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}
static uint32_t crc32_table(const uint8_t *p, uint32_t n)
{
    uint32_t c = 0xffffffffu;
    while (n--)
        c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
    return ~c;
}
static uint32_t crc32_bits(const uint8_t *p, uint32_t n)
{
    uint32_t c = 0xffffffffu;
    while (n--) {
        c ^= *p++;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
    }
    return ~c;
}

typedef int (*cmp_fn)(int32_t, int32_t);
static int cmp_asc(int32_t a, int32_t b) { return a < b ? -1 : a > b; }
static int cmp_desc(int32_t a, int32_t b) { return cmp_asc(b, a); }
static void quicksort(int32_t *v, int lo, int hi, cmp_fn cmp)
{
    while (lo < hi) {
        int32_t pivot = v[(lo + hi) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (cmp(v[i], pivot) < 0)
                i++;
            while (cmp(v[j], pivot) > 0)
                j--;
            if (i <= j) {
                int32_t t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                j--;
            }
        }
        if (j - lo < hi - i) {
            quicksort(v, lo, j, cmp);
            lo = i;
        } else {
            quicksort(v, i, hi, cmp);
            hi = j;
        }
    }
}

static uint32_t ackermann(uint32_t m, uint32_t n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}
static uint32_t hanoi(uint32_t n, uint32_t from, uint32_t to, uint32_t via, uint32_t *trace)
{
    if (n == 0)
        return 0;
    uint32_t moves = hanoi(n - 1, from, via, to, trace);
    *trace = *trace * 31u + from * 3u + to;
    return moves + 1 + hanoi(n - 1, via, to, from, trace);
}

struct record {
    uint32_t id;
    int16_t delta;
    uint8_t tag;
    int8_t bias;
    uint32_t values[8];
    uint64_t wide;
};
static struct record __attribute__((noinline)) transform(struct record r, int k)
{
    struct record out = r;
    out.id = r.id * 2654435761u + (uint32_t)k;
    out.delta = (int16_t)(r.delta - 1000 * k);
    out.tag = (uint8_t)(r.tag + 77 * k);
    out.bias = (int8_t)(r.bias - 50 * k);
    for (int i = 0; i < 8; i++)
        out.values[i] = r.values[(i + k) & 7] ^ (uint32_t)(i * k);
    out.wide = r.wide * 0x9e3779b97f4a7c15ull + (uint64_t)k;
    return out;
}
static uint32_t record_sum(const struct record *r)
{
    uint32_t s = r->id + (uint32_t)(int32_t)r->delta + r->tag + (uint32_t)(int32_t)r->bias;
    for (int i = 0; i < 8; i++)
        s = s * 33u + r->values[i];
    return s ^ (uint32_t)r->wide ^ (uint32_t)(r->wide >> 32);
}

static uint32_t __attribute__((noinline)) dispatch(uint32_t op, uint32_t a, uint32_t b)
{
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return b ? a / b : 0xffffffffu;
    case 4: return b ? a % b : a;
    case 5: return a << (b & 31);
    case 6: return a >> (b & 31);
    case 7: return (uint32_t)((int32_t)a >> (b & 31));
    case 8: return a ^ b;
    case 9: return (a & b) | (~a & 0x5555u);
    case 10: return a < b;
    case 11: return (int32_t)a < (int32_t)b;
    default: return 0xdead0000u | op;
    }
}

static uint64_t wide_math(uint32_t seed)
{
    uint64_t acc = 0x0123456789abcdefull ^ seed;
    int64_t sacc = -(int64_t)0x7edcba9876543210ll + seed;
    for (uint32_t i = 1; i <= 200; i++) {
        uint64_t x = ((uint64_t)lcg() << 32) | lcg();
        uint64_t d = ((uint64_t)(lcg() & 0xffff) << 17) + i;
        acc += x / d;
        acc ^= x % d;
        acc = (acc << (i & 63)) | (acc >> ((64 - (i & 63)) & 63));
        int64_t sx = (int64_t)x;
        int64_t sd = (int64_t)(d | 1) * ((i & 1) ? -1 : 1);
        sacc += sx / sd;
        sacc -= sx % sd;
        sacc ^= (int64_t)((uint64_t)sacc >> 7);
        acc += (uint64_t)(sacc < 0);
        acc += (uint64_t)(uint32_t)x * (uint64_t)(uint32_t)(x >> 32);
    }
    return acc ^ (uint64_t)sacc;
}

static uint32_t narrow_math(void)
{
    uint32_t s = 0;
    for (int32_t i = -300; i < 300; i += 7) {
        int8_t c = (int8_t)i;
        uint8_t u = (uint8_t)i;
        int16_t h = (int16_t)(i * 211);
        uint16_t uh = (uint16_t)(i * 211);
        s = s * 7u + (uint32_t)(int32_t)c + u + (uint32_t)(int32_t)h + uh;
    }
    return s;
}

#define NSORT 300
static int32_t sort_buf[NSORT];
static uint8_t data_buf[1024];

int main(void)
{
    uint32_t total = 0;

    lcg_state = 12345;
    for (uint32_t i = 0; i < sizeof data_buf; i++)
        data_buf[i] = (uint8_t)(lcg() >> 24);
    crc_init();
    uint32_t c1 = crc32_table(data_buf, sizeof data_buf);
    uint32_t c2 = crc32_bits(data_buf, sizeof data_buf);
    CHECK_EQ(1, c1, c2);
    CHECK_EQ(2, crc32_table((const uint8_t *)"123456789", 9), 0xcbf43926u); /* standard check value */
    rt_puts("crc ");
    rt_puthex(c1);
    rt_putc('\n');
    total ^= c1;

    for (int i = 0; i < NSORT; i++)
        sort_buf[i] = (int32_t)lcg() >> (i & 15);
    quicksort(sort_buf, 0, NSORT - 1, cmp_asc);
    int sorted = 1;
    uint32_t sort_sum = 0;
    for (int i = 0; i < NSORT; i++) {
        if (i && sort_buf[i - 1] > sort_buf[i])
            sorted = 0;
        sort_sum = sort_sum * 3u + (uint32_t)sort_buf[i];
    }
    CHECK(sorted);
    quicksort(sort_buf, 0, NSORT - 1, cmp_desc);
    for (int i = 1; i < NSORT; i++)
        if (sort_buf[i - 1] < sort_buf[i])
            sorted = 0;
    CHECK(sorted);
    rt_puts("sort ");
    rt_puthex(sort_sum);
    rt_putc('\n');
    total = total * 31u + sort_sum;

    uint32_t trace = 0;
    uint32_t moves = hanoi(10, 1, 3, 2, &trace);
    CHECK_EQ(3, moves, 1023);
    CHECK_EQ(4, ackermann(2, 3), 9);
    CHECK_EQ(5, ackermann(3, 3), 61);
    total = total * 31u + trace;

    struct record r = {7, -123, 200, -100, {1, 2, 3, 4, 5, 6, 7, 8}, 0xfedcba9876543210ull};
    uint32_t rs = 0;
    for (int k = 0; k < 10; k++) {
        struct record next = transform(r, k);
        rs = rs * 17u + record_sum(&next);
        r = next;
    }
    rt_puts("struct ");
    rt_puthex(rs);
    rt_putc('\n');
    total = total * 31u + rs;

    uint32_t ds = 0;
    for (uint32_t i = 0; i < 130; i++)
        ds = ds * 5u + dispatch(i % 13, lcg(), i * 0x01010101u);
    rt_puts("switch ");
    rt_puthex(ds);
    rt_putc('\n');
    total = total * 31u + ds;

    uint64_t w = wide_math(99);
    rt_puts("wide ");
    rt_puthex64(w);
    rt_putc('\n');
    total = total * 31u + (uint32_t)w + (uint32_t)(w >> 32);

    uint32_t nm = narrow_math();
    total = total * 31u + nm;

    rt_puts("total ");
    rt_puthex(total);
    rt_putc('\n');
    CHECK_EQ(10, c1, EXPECT_CRC);
    CHECK_EQ(11, sort_sum, EXPECT_SORT);
    CHECK_EQ(12, trace, EXPECT_HANOI);
    CHECK_EQ(13, rs, EXPECT_STRUCT);
    CHECK_EQ(14, ds, EXPECT_SWITCH);
    CHECK_EQ(15, (uint32_t)(w >> 32), EXPECT_WIDE_HI);
    CHECK_EQ(16, (uint32_t)w, EXPECT_WIDE_LO);
    CHECK_EQ(17, nm, EXPECT_NARROW);
    CHECK_EQ(18, total, EXPECT_TOTAL);
    return rt_summary("c_mix");
}
