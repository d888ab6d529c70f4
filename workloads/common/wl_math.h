/* wl_math.h: floating-point helpers built only from +, -, *, / so results are bit-identical
 * on every IEEE-754 target (host SSE2 and rv32 soft-float), unlike libm.
 * Guarantees: wl_sqrt is within 1 ulp-ish of the true root for x >= 0 (returns 0 for x <= 0);
 * wl_sin/wl_cos have absolute error below 1e-12 on any finite input of magnitude < 1e6;
 * wl_fix rounds x*scale to the nearest integer (ties away from zero), saturating to int32. */
#ifndef WL_MATH_H
#define WL_MATH_H

#include <stdint.h>

/** Pi to double precision. */
#define WL_PI 3.14159265358979323846

/** Square root by Newton iteration. */
double wl_sqrt(double x);
/** Cube root (real, sign-preserving) by Newton iteration. */
double wl_cbrt(double x);
/** Sine by range reduction and a Taylor polynomial. */
double wl_sin(double x);
/** Cosine via wl_sin. */
double wl_cos(double x);
/** Arc cosine on [-1, 1] by Newton iteration on wl_cos (clamps outside). */
double wl_acos(double x);
/** Absolute value. */
double wl_fabs(double x);
/** round(x * scale) as an int32, saturating. */
int32_t wl_fix(double x, double scale);
/** Integer square root: floor(sqrt(x)) by the bit-by-bit method. */
uint32_t wl_isqrt(uint32_t x);

#endif
