/* mal_fixed.h: single-path Q20 fixed-point arithmetic for expint. Guarantees: qmul rounds
 * toward minus infinity; qdiv computes trunc((a << 20) / b) for b in (0, 2^30) and
 * |a| / b < 2^11, by a 52-step restoring division whose steps never branch on the data. */
#ifndef MAL_FIXED_H
#define MAL_FIXED_H

#include <stdint.h>

#include "mal_sp.h"

/** Fraction bits. */
#define Q 20
/** 1.0 in Q20. */
#define Q_ONE (1 << Q)

/** a * b in Q20. */
static inline int32_t qmul(int32_t a, int32_t b)
{
    return (int32_t)(((int64_t)a * b) >> Q);
}

/** a / b in Q20 (b > 0). */
static inline int32_t qdiv(int32_t a, int32_t b)
{
    uint32_t neg = a < 0;
    uint32_t num = (uint32_t)sp_abs(a), den = (uint32_t)b, rem = 0, quo = 0;
    for (int i = 31 + Q; i >= 0; i--) {
        uint32_t bit = i >= Q ? (num >> (i - Q)) & 1u : 0u;
        rem = rem << 1 | bit;
        uint32_t ge = rem >= den;
        rem -= den & sp_mask(ge);
        quo = quo << 1 | ge;
    }
    return sp_sel(neg, -(int32_t)quo, (int32_t)quo);
}

#endif
