/* mal_dct.c: matrix-form orthonormal 8x8 DCT (see mal_dct.h). */
#include "mal_dct.h"

#include "wl_math.h"

#define DCT_BITS 13

static int32_t cmat[8][8]; /* cmat[u][x] = round(2^13 * c(u)/2 * cos((2x + 1) u pi / 16)) */

void mal_dct_init(void)
{
    for (int u = 0; u < 8; u++) {
        double cu = u == 0 ? wl_sqrt(0.5) : 1.0;
        for (int x = 0; x < 8; x++)
            cmat[u][x] = wl_fix(cu / 2.0 * wl_cos((2 * x + 1) * u * WL_PI / 16.0),
                                (double)(1 << DCT_BITS));
    }
}

static int32_t round_shift(int64_t acc)
{
    return (int32_t)((acc + ((int64_t)1 << (2 * DCT_BITS - 1))) >> (2 * DCT_BITS));
}

void mal_dct_forward(const int16_t in[64], int32_t out[64], int32_t scale)
{
    int64_t tmp[8][8];
    for (int u = 0; u < 8; u++)
        for (int y = 0; y < 8; y++) {
            int64_t acc = 0;
            for (int x = 0; x < 8; x++)
                acc += (int64_t)cmat[u][x] * in[x * 8 + y];
            tmp[u][y] = acc;
        }
    for (int u = 0; u < 8; u++)
        for (int v = 0; v < 8; v++) {
            int64_t acc = 0;
            for (int y = 0; y < 8; y++)
                acc += tmp[u][y] * cmat[v][y];
            out[u * 8 + v] = round_shift(acc * scale);
        }
}

void mal_dct_inverse(const int32_t in[64], int32_t out[64])
{
    int64_t tmp[8][8];
    for (int x = 0; x < 8; x++)
        for (int v = 0; v < 8; v++) {
            int64_t acc = 0;
            for (int u = 0; u < 8; u++)
                acc += (int64_t)cmat[u][x] * in[u * 8 + v];
            tmp[x][v] = acc;
        }
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++) {
            int64_t acc = 0;
            for (int v = 0; v < 8; v++)
                acc += tmp[x][v] * cmat[v][y];
            out[x * 8 + y] = round_shift(acc);
        }
}
