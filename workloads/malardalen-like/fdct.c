/* fdct.c: forward 8x8 DCT of image blocks in matrix form (mal_dct.c), followed by the inverse
 * transform to check it. Per activation: two new blocks of level-shifted pixels in
 * [-128, 127] (a smooth gradient plus noise, like image data). Check: the inverse of the
 * rounded coefficients reproduces every pixel within +-2. */
#include "mal_dct.h"
#include "mal_sp.h"
#include "malardalen.h"

static struct {
    wl_run_t run;
    int16_t block[64];
    int32_t coef[64], back[64];
} st;

void fdct_init(uint32_t size_class)
{
    mal_run_init(&st.run, size_class, 0xfdc7u);
    mal_dct_init();
}

int fdct_round(void)
{
    wl_run_t *r = &st.run;
    for (int b = 0; b < 2; b++) {
        int32_t gx = (int32_t)wl_prng_below(&r->rng, 17) - 8;
        int32_t gy = (int32_t)wl_prng_below(&r->rng, 17) - 8;
        for (int i = 0; i < 64; i++)
            st.block[i] = (int16_t)((i / 8 - 4) * gy + (i % 8 - 4) * gx +
                                    (int32_t)wl_prng_below(&r->rng, 121) - 60);
        mal_dct_forward(st.block, st.coef, 1);
        mal_dct_inverse(st.coef, st.back);
        uint32_t bad = 0;
        for (int i = 0; i < 64; i++) {
            bad += sp_abs(st.back[i] - st.block[i]) > 2;
            r->sum = wl_mix32(r->sum, (uint32_t)st.coef[i]);
        }
        r->failures += bad;
    }
    return wl_run_next(r);
}

uint32_t fdct_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t fdct_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x2b897aa4u, 0xade3a55fu};
    return wl_run_expected(expected, size_class);
}

const wl_program_t fdct_program = {"fdct", fdct_init, fdct_round, fdct_checksum, fdct_expected};
