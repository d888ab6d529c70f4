/* jfdctint.c: the integer 8x8 forward DCT of JPEG encoders: the Loeffler-Ligtenberg-Moschytz
 * factorisation (12 multiplications per 1-D transform) with 13-bit constants, rows first with
 * 2 extra bits of precision, then columns; output scaled by 8 like libjpeg's islow DCT.
 * Straight-line butterflies, so single path. Per activation: two new blocks of level-shifted
 * pixels in [-128, 127]. Check: every coefficient is within +-2 of 8 x the matrix-form DCT
 * (mal_dct.c). */
#include "mal_dct.h"
#include "mal_sp.h"
#include "malardalen.h"

#define CB 13 /* constant bits */
#define PB 2  /* extra bits kept between the passes */
#define C0_298 2446
#define C0_390 3196
#define C0_541 4433
#define C0_765 6270
#define C0_899 7373
#define C1_175 9633
#define C1_501 12299
#define C1_847 15137
#define C1_961 16069
#define C2_053 16819
#define C2_562 20995
#define C3_072 25172

static struct {
    wl_run_t run;
    int16_t block[64];
    int32_t work[64], ref[64];
} st;

static int32_t descale(int32_t x, int n)
{
    return (x + (1 << (n - 1))) >> n;
}

/* One 1-D transform of the 8 values at d[0], d[step], ...; even outputs scaled by even_mul,
 * (or descaled by even_shift when even_mul is 1), odd/rotated outputs descaled by rot_shift. */
static void llm_1d(int32_t *d, int step, int32_t even_mul, int even_shift, int rot_shift)
{
    int32_t t0 = d[0] + d[7 * step], t7 = d[0] - d[7 * step];
    int32_t t1 = d[step] + d[6 * step], t6 = d[step] - d[6 * step];
    int32_t t2 = d[2 * step] + d[5 * step], t5 = d[2 * step] - d[5 * step];
    int32_t t3 = d[3 * step] + d[4 * step], t4 = d[3 * step] - d[4 * step];
    int32_t t10 = t0 + t3, t13 = t0 - t3, t11 = t1 + t2, t12 = t1 - t2;
    if (even_shift == 0) {
        d[0] = (t10 + t11) * even_mul;
        d[4 * step] = (t10 - t11) * even_mul;
    } else {
        d[0] = descale(t10 + t11, even_shift);
        d[4 * step] = descale(t10 - t11, even_shift);
    }
    int32_t z1 = (t12 + t13) * C0_541;
    d[2 * step] = descale(z1 + t13 * C0_765, rot_shift);
    d[6 * step] = descale(z1 - t12 * C1_847, rot_shift);
    int32_t y1 = t4 + t7, y2 = t5 + t6, y3 = t4 + t6, y4 = t5 + t7;
    int32_t z5 = (y3 + y4) * C1_175;
    t4 *= C0_298;
    t5 *= C2_053;
    t6 *= C3_072;
    t7 *= C1_501;
    y1 *= -C0_899;
    y2 *= -C2_562;
    y3 = y3 * -C1_961 + z5;
    y4 = y4 * -C0_390 + z5;
    d[7 * step] = descale(t4 + y1 + y3, rot_shift);
    d[5 * step] = descale(t5 + y2 + y4, rot_shift);
    d[3 * step] = descale(t6 + y2 + y3, rot_shift);
    d[step] = descale(t7 + y1 + y4, rot_shift);
}

static void jfdctint(const int16_t in[64], int32_t out[64])
{
    for (int i = 0; i < 64; i++)
        out[i] = in[i];
    for (int row = 0; row < 8; row++)
        llm_1d(out + row * 8, 1, 1 << PB, 0, CB - PB);
    for (int col = 0; col < 8; col++)
        llm_1d(out + col, 8, 1, PB, CB + PB);
}

void jfdctint_init(uint32_t size_class)
{
    mal_run_init(&st.run, size_class, 0x3fdc7u);
    mal_dct_init();
}

int jfdctint_round(void)
{
    wl_run_t *r = &st.run;
    for (int b = 0; b < 2; b++) {
        for (int i = 0; i < 64; i++)
            st.block[i] = (int16_t)((int32_t)wl_prng_below(&r->rng, 256) - 128);
        jfdctint(st.block, st.work);
        mal_dct_forward(st.block, st.ref, 8);
        uint32_t bad = 0;
        for (int i = 0; i < 64; i++) {
            bad += sp_abs(st.work[i] - st.ref[i]) > 2;
            r->sum = wl_mix32(r->sum, (uint32_t)st.work[i]);
        }
        r->failures += bad;
    }
    return wl_run_next(r);
}

uint32_t jfdctint_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t jfdctint_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xeb36687cu, 0x4569f587u};
    return wl_run_expected(expected, size_class);
}

const wl_program_t jfdctint_program = {"jfdctint", jfdctint_init, jfdctint_round,
                                       jfdctint_checksum, jfdctint_expected};
