/* wl_math.c: deterministic floating-point helpers from +, -, *, / only (see wl_math.h). */
#include "wl_math.h"

double wl_fabs(double x)
{
    return x < 0.0 ? -x : x;
}

double wl_sqrt(double x)
{
    if (!(x > 0.0))
        return 0.0;
    /* Scale into [0.25, 4) by powers of four so a fixed number of Newton steps converges. */
    double scale = 1.0;
    while (x >= 4.0) {
        x *= 0.25;
        scale *= 2.0;
    }
    while (x < 0.25) {
        x *= 4.0;
        scale *= 0.5;
    }
    double r = 1.0;
    for (int i = 0; i < 7; i++)
        r = 0.5 * (r + x / r);
    return r * scale;
}

double wl_cbrt(double x)
{
    if (x == 0.0)
        return 0.0;
    int neg = x < 0.0;
    double a = neg ? -x : x;
    double scale = 1.0;
    while (a >= 8.0) {
        a *= 0.125;
        scale *= 2.0;
    }
    while (a < 0.125) {
        a *= 8.0;
        scale *= 0.5;
    }
    double r = 1.0;
    for (int i = 0; i < 8; i++)
        r = r - (r * r * r - a) / (3.0 * r * r);
    r *= scale;
    return neg ? -r : r;
}

/* Taylor series of sin on [-pi/2, pi/2]. */
static double sin_poly(double x)
{
    double x2 = x * x, term = x, sum = x;
    for (int n = 1; n <= 12; n++) {
        term = -term * x2 / (double)((2 * n) * (2 * n + 1));
        sum += term;
    }
    return sum;
}

double wl_sin(double x)
{
    const double two_pi = 2.0 * WL_PI;
    double q = x / two_pi;
    int64_t k = (int64_t)(q < 0.0 ? q - 0.5 : q + 0.5);
    double r = x - (double)k * two_pi; /* r in [-pi, pi] */
    if (r > WL_PI / 2.0)
        r = WL_PI - r;
    else if (r < -WL_PI / 2.0)
        r = -WL_PI - r;
    return sin_poly(r);
}

double wl_cos(double x)
{
    return wl_sin(x + WL_PI / 2.0);
}

/* Arc tangent for z >= 0: reflect above 1, halve the angle twice, then a Taylor series. */
static double atan_pos(double z)
{
    int inv = z > 1.0;
    if (inv)
        z = 1.0 / z;
    for (int i = 0; i < 2; i++)
        z = z / (1.0 + wl_sqrt(1.0 + z * z));
    double z2 = z * z, term = z, sum = z;
    for (int n = 1; n <= 10; n++) {
        term = -term * z2;
        sum += term / (double)(2 * n + 1);
    }
    sum *= 4.0;
    return inv ? WL_PI / 2.0 - sum : sum;
}

double wl_acos(double x)
{
    if (x >= 1.0)
        return 0.0;
    if (x <= -1.0)
        return WL_PI;
    return 2.0 * atan_pos(wl_sqrt((1.0 - x) / (1.0 + x)));
}

int32_t wl_fix(double x, double scale)
{
    double v = x * scale;
    if (v >= 2147483647.0)
        return INT32_MAX;
    if (v <= -2147483648.0)
        return INT32_MIN;
    return (int32_t)(v < 0.0 ? v - 0.5 : v + 0.5);
}

uint32_t wl_isqrt(uint32_t x)
{
    uint32_t res = 0, bit = 1u << 30;
    while (bit > x)
        bit >>= 2;
    while (bit) {
        if (x >= res + bit) {
            x -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    return res;
}
