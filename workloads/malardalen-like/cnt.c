/* cnt.c: counts and sums the non-negative and the negative entries of a 10x10 matrix with
 * branch-free classification. Per activation: a new matrix of values in [-999, 999]. Checks:
 * the two counts add up to 100 and the two sums add up to the total computed row by row. */
#include "mal_sp.h"
#include "malardalen.h"

#define CNT_N 10

static struct {
    wl_run_t run;
    int32_t m[CNT_N][CNT_N];
} st;

void cnt_init(uint32_t size_class)
{
    mal_run_init(&st.run, size_class, 0xc0447u);
}

int cnt_round(void)
{
    wl_run_t *r = &st.run;
    int32_t total = 0;
    for (uint32_t i = 0; i < CNT_N; i++) {
        int32_t row = 0;
        for (uint32_t j = 0; j < CNT_N; j++) {
            st.m[i][j] = (int32_t)wl_prng_below(&r->rng, 1999) - 999;
            row += st.m[i][j];
        }
        total += row;
    }
    int32_t pos_sum = 0, neg_sum = 0;
    uint32_t pos_cnt = 0, neg_cnt = 0;
    for (uint32_t i = 0; i < CNT_N; i++) {
        for (uint32_t j = 0; j < CNT_N; j++) {
            int32_t v = st.m[i][j];
            uint32_t neg = v < 0;
            uint32_t m = sp_mask(neg);
            neg_sum += (int32_t)((uint32_t)v & m);
            pos_sum += (int32_t)((uint32_t)v & ~m);
            neg_cnt += neg;
            pos_cnt += 1u - neg;
        }
    }
    r->failures += pos_cnt + neg_cnt != CNT_N * CNT_N;
    r->failures += pos_sum + neg_sum != total;
    r->sum = wl_mix32(r->sum, (uint32_t)pos_sum);
    r->sum = wl_mix32(r->sum, (uint32_t)neg_sum);
    r->sum = wl_mix32(r->sum, pos_cnt << 16 | neg_cnt);
    return wl_run_next(r);
}

uint32_t cnt_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t cnt_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x02255c45u, 0xdf468801u};
    return wl_run_expected(expected, size_class);
}

const wl_program_t cnt_program = {"cnt", cnt_init, cnt_round, cnt_checksum, cnt_expected};
