/* dct2d.c: 2-D DCT of an image in 8x8 blocks (the paper's 2D-DCT): separable orthonormal
 * DCT-II with a Q14 cosine table, rows then columns in 32-bit integer arithmetic, followed by
 * the inverse transform (the application's two hot spots). Per round: a new frame (a shaded
 * background, a bright disc and noise, level-shifted to [-128, 127]); 32 x 32 and 3 rounds
 * (small), 128 x 64 and 30 rounds (full). Checks: every pixel comes back within +-2, and each
 * block's DC coefficient equals the block mean x 8 within +-1. */
#include "ccs.h"
#include "wl_math.h"

#define DCT_W_MAX 128
#define DCT_H_MAX 64
#define DCT_BITS 14

static struct {
    wl_run_t run;
    uint32_t w, h;
    int32_t cosq[8][8]; /* round(2^14 * c(u)/2 * cos((2x + 1) u pi / 16)) */
    int16_t img[DCT_H_MAX][DCT_W_MAX];
} st;

void dct2d_init(uint32_t size_class)
{
    st.w = size_class ? DCT_W_MAX : 32u;
    st.h = size_class ? DCT_H_MAX : 32u;
    wl_run_init(&st.run, 0x2dd37u, size_class ? 30u : 3u);
    for (int u = 0; u < 8; u++) {
        double cu = u == 0 ? wl_sqrt(0.5) : 1.0;
        for (int x = 0; x < 8; x++)
            st.cosq[u][x] = wl_fix(cu / 2.0 * wl_cos((2 * x + 1) * u * WL_PI / 16.0),
                                   (double)(1 << DCT_BITS));
    }
}

static int32_t rshift_round(int32_t v, int s)
{
    return (v + (1 << (s - 1))) >> s;
}

/* Forward DCT of the block at (bx, by) into out[u][v]. */
static void forward(uint32_t bx, uint32_t by, int32_t out[8][8])
{
    int32_t tmp[8][8]; /* tmp[x][v]: row transforms, Q3 */
    for (int x = 0; x < 8; x++)
        for (int v = 0; v < 8; v++) {
            int32_t acc = 0;
            for (int y = 0; y < 8; y++)
                acc += st.cosq[v][y] * st.img[by + (uint32_t)x][bx + (uint32_t)y];
            tmp[x][v] = rshift_round(acc, DCT_BITS - 3);
        }
    for (int u = 0; u < 8; u++)
        for (int v = 0; v < 8; v++) {
            int32_t acc = 0;
            for (int x = 0; x < 8; x++)
                acc += st.cosq[u][x] * tmp[x][v];
            out[u][v] = rshift_round(acc, DCT_BITS + 3);
        }
}

/* Inverse DCT of coef[u][v] into pix[x][y]. */
static void inverse(int32_t coef[8][8], int32_t pix[8][8])
{
    int32_t tmp[8][8]; /* tmp[x][v], Q2 */
    for (int x = 0; x < 8; x++)
        for (int v = 0; v < 8; v++) {
            int32_t acc = 0;
            for (int u = 0; u < 8; u++)
                acc += st.cosq[u][x] * coef[u][v];
            tmp[x][v] = rshift_round(acc, DCT_BITS - 2);
        }
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++) {
            int32_t acc = 0;
            for (int v = 0; v < 8; v++)
                acc += st.cosq[v][y] * tmp[x][v];
            pix[x][y] = rshift_round(acc, DCT_BITS + 2);
        }
}

static void make_frame(void)
{
    int32_t cx = (int32_t)wl_prng_below(&st.run.rng, st.w);
    int32_t cy = (int32_t)wl_prng_below(&st.run.rng, st.h);
    int32_t r2 = 64 + (int32_t)wl_prng_below(&st.run.rng, 200);
    for (uint32_t y = 0; y < st.h; y++)
        for (uint32_t x = 0; x < st.w; x++) {
            int32_t dx = (int32_t)x - cx, dy = (int32_t)y - cy;
            int32_t v = 40 + (int32_t)(x + y) + (dx * dx + dy * dy < r2 ? 100 : 0) +
                        (int32_t)wl_prng_below(&st.run.rng, 16);
            v = v > 255 ? 255 : v;
            st.img[y][x] = (int16_t)(v - 128);
        }
}

int dct2d_round(void)
{
    wl_run_t *r = &st.run;
    make_frame();
    for (uint32_t by = 0; by < st.h; by += 8)
        for (uint32_t bx = 0; bx < st.w; bx += 8) {
            int32_t coef[8][8], pix[8][8];
            forward(bx, by, coef);
            inverse(coef, pix);
            int32_t sum = 0;
            uint32_t bad = 0;
            for (int x = 0; x < 8; x++)
                for (int y = 0; y < 8; y++) {
                    int32_t d = pix[x][y] - st.img[by + (uint32_t)x][bx + (uint32_t)y];
                    bad += d > 2 || d < -2;
                    sum += st.img[by + (uint32_t)x][bx + (uint32_t)y];
                }
            int32_t dc_err = coef[0][0] * 8 - sum; /* DC = sum / 8 */
            bad += dc_err > 8 || dc_err < -8;
            r->failures += bad;
            r->sum = wl_mix32(r->sum, (uint32_t)coef[0][0]);
            r->sum = wl_mix32(r->sum, (uint32_t)coef[1][2] ^ (uint32_t)coef[3][1] << 16);
        }
    return wl_run_next(r);
}

uint32_t dct2d_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t dct2d_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xc59beec6u, 0xa85c8025u};
    return wl_run_expected(expected, size_class);
}

const wl_program_t dct2d_program = {"dct2d", dct2d_init, dct2d_round, dct2d_checksum,
                                    dct2d_expected};
