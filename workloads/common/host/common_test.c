/* common_test.c: host unit tests of workloads/common (math, pools, PRNG, checksum, run
 * bookkeeping).
 * Prints "PASS common/<test>" or "FAIL common/<test> ..." per test; non-zero exit on failure. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "wl_checksum.h"
#include "wl_math.h"
#include "wl_pool.h"
#include "wl_prng.h"
#include "wl_run.h"

static int failed;

static void report(const char *name, int ok, const char *detail)
{
    printf("%s common/%s%s%s\n", ok ? "PASS" : "FAIL", name, ok ? "" : " ", ok ? "" : detail);
    failed |= !ok;
}

/* wl_math against libm over a grid (libm is only the reference here, never in programs). */
static void test_math(void)
{
    double worst_sqrt = 0, worst_sin = 0, worst_acos = 0, worst_cbrt = 0;
    for (int i = 1; i < 20000; i++) {
        double x = (double)i * 0.37 - 3700.0;
        double r = wl_sqrt(fabs(x)), e = sqrt(fabs(x));
        worst_sqrt = fmax(worst_sqrt, fabs(r - e) / e);
        worst_sin = fmax(worst_sin, fabs(wl_sin(x) - sin(x)));
        worst_sin = fmax(worst_sin, fabs(wl_cos(x) - cos(x)));
        worst_cbrt = fmax(worst_cbrt, fabs(wl_cbrt(x) - cbrt(x)) / fabs(cbrt(x)));
        double c = (double)(i - 10000) / 10000.0;
        worst_acos = fmax(worst_acos, fabs(wl_acos(c) - acos(c)));
    }
    char buf[160];
    snprintf(buf, sizeof buf, "sqrt %g sin/cos %g cbrt %g acos %g", worst_sqrt, worst_sin,
             worst_cbrt, worst_acos);
    report("math_accuracy",
           worst_sqrt < 1e-15 && worst_sin < 1e-9 && worst_cbrt < 1e-15 && worst_acos < 1e-12,
           buf);
    report("math_edges", wl_sqrt(0.0) == 0.0 && wl_sqrt(-4.0) == 0.0 && wl_acos(1.5) == 0.0 &&
                             wl_acos(-1.5) == WL_PI && wl_cbrt(0.0) == 0.0,
           "edge values");
    report("fix_rounding", wl_fix(2.5, 1.0) == 3 && wl_fix(-2.5, 1.0) == -3 &&
                               wl_fix(1e12, 1.0) == INT32_MAX && wl_fix(-1e12, 1.0) == INT32_MIN &&
                               wl_fix(0.1234, 1e3) == 123,
           "wl_fix");
    int isqrt_ok = 1;
    for (uint32_t x = 0; x < 100000; x++) {
        uint32_t r = wl_isqrt(x);
        isqrt_ok &= r * r <= x && (r + 1) * (r + 1) > x;
    }
    isqrt_ok &= wl_isqrt(0xffffffffu) == 65535u;
    report("isqrt", isqrt_ok, "floor(sqrt(x)) mismatch");
}

static void test_pool(void)
{
    static uint8_t buf[1000];
    wl_pool_t pool;
    wl_pool_init(&pool, buf + 3, sizeof buf - 3); /* deliberately misaligned base */
    int ok = 1;
    uint8_t *prev = NULL;
    for (int i = 0; i < 10; i++) {
        uint8_t *p = wl_pool_alloc(&pool, 13);
        ok &= p != NULL && ((uintptr_t)p & 7u) == 0 && (!prev || p >= prev + 13);
        prev = p;
    }
    ok &= wl_pool_alloc(&pool, 2000) == NULL;
    wl_pool_reset(&pool);
    ok &= wl_pool_alloc(&pool, 900) != NULL && wl_pool_alloc(&pool, 200) == NULL;
    report("pool_bump", ok, "alignment, disjointness or exhaustion");

    wl_pool_init(&pool, buf, sizeof buf);
    wl_freelist_t fl;
    wl_freelist_init(&fl, &pool, 24);
    uint8_t *a = wl_freelist_alloc(&fl), *b = wl_freelist_alloc(&fl);
    a[5] = 7;
    wl_freelist_free(&fl, a);
    uint8_t *c = wl_freelist_alloc(&fl);
    report("freelist_reuse", a && b && a != b && c == a && c[5] == 0, "reuse or zeroing");
}

static void test_prng_checksum(void)
{
    wl_prng_t r;
    wl_prng_seed(&r, 0);
    uint32_t first = wl_prng_next(&r);
    wl_prng_seed(&r, 0);
    int ok = first == wl_prng_next(&r) && first != 0;
    uint32_t below_ok = 1;
    for (int i = 0; i < 10000; i++)
        below_ok &= wl_prng_below(&r, 7) < 7;
    report("prng", ok && below_ok, "determinism or range");
    uint32_t h1 = wl_mix32(wl_mix32(WL_CHECKSUM_INIT, 1), 2);
    uint32_t h2 = wl_mix32(wl_mix32(WL_CHECKSUM_INIT, 2), 1);
    report("checksum_order", h1 != h2 && wl_final(h1, 0) == h1 && wl_final(h1, 3) == 0xbad00003u &&
                                 wl_final(h1, 1u << 20) == 0xbad0ffffu,
           "order sensitivity or failure marker");
}

/* wl_run.h: round counting, reset and the failure marking of the checksum. */
static void test_run(void)
{
    wl_run_t run;
    wl_run_init(&run, 7u, 3u);
    wl_prng_t ref;
    wl_prng_seed(&ref, 7u);
    int ok = wl_prng_next(&run.rng) == wl_prng_next(&ref);
    ok &= wl_run_next(&run) == 1 && wl_run_next(&run) == 1 && wl_run_next(&run) == 0;
    ok &= run.rounds == 3 && wl_run_checksum(&run) == WL_CHECKSUM_INIT;
    run.failures = 2;
    ok &= wl_run_checksum(&run) == (WL_FAILED | 2u);
    wl_run_init(&run, 7u, 1u);
    ok &= run.rounds == 0 && run.failures == 0 && run.sum == WL_CHECKSUM_INIT;
    static const uint32_t expected[WL_SIZE_CLASSES] = {11u, 22u};
    ok &= wl_run_expected(expected, 0) == 11u && wl_run_expected(expected, 1) == 22u &&
          wl_run_expected(expected, 2) == 0u;
    report("run_bookkeeping", ok, "wl_run_t rounds, reset or failure marking");
}

int main(void)
{
    test_math();
    test_pool();
    test_prng_checksum();
    test_run();
    return failed;
}
