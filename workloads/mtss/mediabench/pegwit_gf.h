/* pegwit_gf.h: arithmetic in GF(2^163) with the NIST/SEC reduction polynomial x^163 + x^7 + x^6
 * + x^3 + 1, polynomial basis, 6 little-endian 32-bit words (bits above 162 are always zero in
 * results). */
#ifndef MTSS_PEGWIT_GF_H
#define MTSS_PEGWIT_GF_H

#include <stdint.h>

/** Words per field element. */
#define GF_WORDS 6
/** Field degree. */
#define GF_M 163

/** One field element. */
typedef struct {
    uint32_t w[GF_WORDS];
} gf_t;

/** Builds the squaring table; call once before gf_sqr. */
void gf_setup(void);
/** r = a + b. */
void gf_add(gf_t *r, const gf_t *a, const gf_t *b);
/** r = a * b (4-bit comb multiplication with a 16-entry table on the stack). */
void gf_mul(gf_t *r, const gf_t *a, const gf_t *b);
/** r = a^2. */
void gf_sqr(gf_t *r, const gf_t *a);
/** r = a^-1 for a != 0 (Itoh-Tsujii); r = 0 for a = 0. */
void gf_inv(gf_t *r, const gf_t *a);
/** Absolute trace Tr(a) = a + a^2 + ... + a^(2^162), which is 0 or 1; returns 2 if the
 * computation did not land in GF(2) (an arithmetic fault). */
uint32_t gf_trace(const gf_t *a);
/** 1 if a == 0. */
int gf_is_zero(const gf_t *a);
/** 1 if a == b. */
int gf_equal(const gf_t *a, const gf_t *b);

#endif
