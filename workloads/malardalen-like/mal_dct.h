/* mal_dct.h: the reference 8x8 DCT of fdct and jfdctint: the orthonormal 2-D DCT-II in matrix
 * form, C f C^T, with C in Q13 and 64-bit sums (single path: fixed loops, no data-dependent
 * branches). mal_dct_init builds C (idempotent); mal_dct_forward returns round(scale * F);
 * mal_dct_inverse returns round(C^T F C). */
#ifndef MAL_DCT_H
#define MAL_DCT_H

#include <stdint.h>

/** Builds the Q13 cosine matrix (may be called repeatedly). */
void mal_dct_init(void);
/** out = round(scale * DCT(in)) for an 8x8 block in row-major order. */
void mal_dct_forward(const int16_t in[64], int32_t out[64], int32_t scale);
/** out = round(IDCT(in)) for an 8x8 block of coefficients. */
void mal_dct_inverse(const int32_t in[64], int32_t out[64]);

#endif
