/* cf_math.h: float helpers for the flight code, built from + - * / only (and the IEEE-754
 * bit layout), so results are bit-identical on the host and on rv32 soft-float.
 * cf_invsqrt(x) is 1/sqrt(x) to within a few ulp for normal x > 0; cf_clamp bounds x. */
#ifndef CF_MATH_H
#define CF_MATH_H

#include <stdint.h>

#include "wl_string.h"

/** 1/sqrt(x) for x > 0: bit-level first guess, then three Newton steps. */
static inline float cf_invsqrt(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits = 0x5f3759dfu - (bits >> 1);
    float y;
    memcpy(&y, &bits, sizeof y);
    for (int i = 0; i < 3; i++)
        y = y * (1.5f - 0.5f * x * y * y);
    return y;
}

/** x limited to [lo, hi]. */
static inline float cf_clamp(float x, float lo, float hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/** |x|. */
static inline float cf_fabsf(float x)
{
    return x < 0.0f ? -x : x;
}

#endif
