/* bsort100.c: bubble sort of 100 integers that always runs all 99 passes over the whole
 * unsorted prefix, with a branch-free compare-exchange (min/max), so its execution does not
 * depend on the data. Per activation: 100 new random values in [-50000, 50000]. Checks: the
 * output is ordered and keeps the input's sum and xor of values. */
#include "mal_sp.h"
#include "malardalen.h"

#define BS_N 100

static struct {
    wl_run_t run;
    int32_t a[BS_N];
} st;

void bsort100_init(uint32_t size_class)
{
    mal_run_init(&st.run, size_class, 0xb50c7u);
}

int bsort100_round(void)
{
    wl_run_t *r = &st.run;
    uint32_t sum = 0, xr = 0;
    for (uint32_t i = 0; i < BS_N; i++) {
        st.a[i] = (int32_t)wl_prng_below(&r->rng, 100001) - 50000;
        sum += (uint32_t)st.a[i];
        xr ^= (uint32_t)st.a[i];
    }
    for (uint32_t pass = 0; pass < BS_N - 1; pass++) {
        for (uint32_t i = 0; i < BS_N - 1 - pass; i++) {
            int32_t x = st.a[i], y = st.a[i + 1];
            st.a[i] = sp_min(x, y);
            st.a[i + 1] = sp_max(x, y);
        }
    }
    for (uint32_t i = 0; i + 1 < BS_N; i++)
        r->failures += st.a[i] > st.a[i + 1];
    for (uint32_t i = 0; i < BS_N; i++) {
        sum -= (uint32_t)st.a[i];
        xr ^= (uint32_t)st.a[i];
        r->sum = wl_mix32(r->sum, (uint32_t)st.a[i]);
    }
    r->failures += (sum | xr) != 0;
    return wl_run_next(r);
}

uint32_t bsort100_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t bsort100_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x07650ab4u, 0x7f15a7a6u};
    return wl_run_expected(expected, size_class);
}

const wl_program_t bsort100_program = {"bsort100", bsort100_init, bsort100_round,
                                       bsort100_checksum, bsort100_expected};
