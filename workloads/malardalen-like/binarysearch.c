/* binarysearch.c: lookups in a sorted table of 16 (key, value) records with exactly four
 * probes each (branch-free lower bound), so every search costs the same whether the key is
 * present or not. Per activation: a new table (even keys, strictly increasing) and 8 queries,
 * half of them present keys and half odd (absent) keys. Check: a query is found iff it was
 * generated as present, and a found record holds the query key. */
#include "mal_sp.h"
#include "malardalen.h"

#define BS_N 16
#define BS_QUERIES 8

static struct {
    wl_run_t run;
    uint32_t key[BS_N];
    uint32_t value[BS_N];
} st;

void binarysearch_init(uint32_t size_class)
{
    mal_run_init(&st.run, size_class, 0xb5e1u);
}

/* Index of the first key >= q (clamped to BS_N - 1), with four fixed probes. */
static uint32_t lower_bound(uint32_t q)
{
    uint32_t base = 0;
    for (uint32_t half = BS_N / 2; half > 0; half >>= 1)
        base += half & sp_mask(st.key[base + half - 1] < q);
    return base;
}

int binarysearch_round(void)
{
    wl_run_t *r = &st.run;
    uint32_t k = 0;
    for (uint32_t i = 0; i < BS_N; i++) {
        k += 2u + 2u * wl_prng_below(&r->rng, 8);
        st.key[i] = k;
        st.value[i] = wl_prng_next(&r->rng);
    }
    for (uint32_t j = 0; j < BS_QUERIES; j++) {
        uint32_t present = wl_prng_below(&r->rng, 2);
        uint32_t q = st.key[wl_prng_below(&r->rng, BS_N)] + 1u - present;
        uint32_t pos = lower_bound(q);
        uint32_t found = st.key[pos] == q;
        uint32_t v = sp_selu(found, st.value[pos], 0xffffffffu);
        r->failures += found != present;
        r->sum = wl_mix32(r->sum, v);
        r->sum = wl_mix32(r->sum, pos);
    }
    return wl_run_next(r);
}

uint32_t binarysearch_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t binarysearch_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x25f973f3u, 0xe31f00b8u};
    return wl_run_expected(expected, size_class);
}

const wl_program_t binarysearch_program = {"binarysearch", binarysearch_init, binarysearch_round,
                                           binarysearch_checksum, binarysearch_expected};
