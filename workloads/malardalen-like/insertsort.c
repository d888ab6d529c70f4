/* insertsort.c: insertion sort of 11 integers in which every element walks all the way down
 * (a branch-free compare-exchange at each step instead of stopping at its place), so the work
 * is the same for every input order. Per activation: four new arrays. Checks: each output is
 * ordered and keeps the input's sum and xor. */
#include "mal_sp.h"
#include "malardalen.h"

#define IS_N 11
#define IS_ARRAYS 4

static struct {
    wl_run_t run;
    int32_t a[IS_N];
} st;

void insertsort_init(uint32_t size_class)
{
    mal_run_init(&st.run, size_class, 0x1a5e27u);
}

int insertsort_round(void)
{
    wl_run_t *r = &st.run;
    for (int t = 0; t < IS_ARRAYS; t++) {
        uint32_t sum = 0, xr = 0;
        for (int i = 0; i < IS_N; i++) {
            st.a[i] = (int32_t)wl_prng_below(&r->rng, 2001) - 1000;
            sum += (uint32_t)st.a[i];
            xr ^= (uint32_t)st.a[i];
        }
        for (int i = 1; i < IS_N; i++) {
            for (int j = i; j > 0; j--) {
                int32_t lo = st.a[j - 1], hi = st.a[j];
                st.a[j - 1] = sp_min(lo, hi);
                st.a[j] = sp_max(lo, hi);
            }
        }
        for (int i = 0; i + 1 < IS_N; i++)
            r->failures += st.a[i] > st.a[i + 1];
        for (int i = 0; i < IS_N; i++) {
            sum -= (uint32_t)st.a[i];
            xr ^= (uint32_t)st.a[i];
            r->sum = wl_mix32(r->sum, (uint32_t)st.a[i]);
        }
        r->failures += (sum | xr) != 0;
    }
    return wl_run_next(r);
}

uint32_t insertsort_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t insertsort_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x0aa7c38du, 0x83c6991fu};
    return wl_run_expected(expected, size_class);
}

const wl_program_t insertsort_program = {"insertsort", insertsort_init, insertsort_round,
                                         insertsort_checksum, insertsort_expected};
