/* basicmath.c: the MiBench basicmath mix, our own implementation: real roots of cubic
 * equations (trigonometric/Cardano method), integer square roots (bit-by-bit) and degree/radian
 * conversions. Each round solves a batch of 16 cubics held in local arrays, checks every root by
 * substitution, computes 64 integer square roots and checks r^2 <= x < (r+1)^2, and converts 32
 * angles both ways. Floating point uses only +,-,*,/ (wl_math), so results are identical on
 * host and rv32 soft-float; the checksum uses roots rounded to 1e-4. */
#include "basicmath.h"

#include "wl_checksum.h"
#include "wl_math.h"
#include "wl_prng.h"

#define BATCH 16

static struct {
    uint32_t rounds;
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

/* Real roots of a x^3 + b x^2 + c x + d = 0 (a != 0); returns how many (1 or 3). */
static int solve_cubic(double a, double b, double c, double d, double *x)
{
    double a1 = b / a, a2 = c / a, a3 = d / a;
    double q = (a1 * a1 - 3.0 * a2) / 9.0;
    double r = (2.0 * a1 * a1 * a1 - 9.0 * a1 * a2 + 27.0 * a3) / 54.0;
    double r2_q3 = r * r - q * q * q;
    if (r2_q3 <= 0.0) {
        double theta = wl_acos(r / wl_sqrt(q * q * q));
        double sq = -2.0 * wl_sqrt(q);
        x[0] = sq * wl_cos(theta / 3.0) - a1 / 3.0;
        x[1] = sq * wl_cos((theta + 2.0 * WL_PI) / 3.0) - a1 / 3.0;
        x[2] = sq * wl_cos((theta + 4.0 * WL_PI) / 3.0) - a1 / 3.0;
        return 3;
    }
    double t = wl_cbrt(wl_sqrt(r2_q3) + wl_fabs(r));
    t += q / t;
    x[0] = (r < 0.0 ? t : -t) - a1 / 3.0;
    return 1;
}

static double rad2deg(double rad)
{
    return 180.0 * rad / WL_PI;
}

static double deg2rad(double deg)
{
    return WL_PI * deg / 180.0;
}

void basicmath_init(uint32_t size_class)
{
    st.rounds = size_class ? 200u : 2u;
    st.failures = 0;
    wl_prng_seed(&st.rng, 0xba51cu);
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

static double coef(void)
{
    return (double)((int32_t)wl_prng_below(&st.rng, 4001) - 2000) / 100.0;
}

int basicmath_round(void)
{
    double eq[BATCH][4], roots[BATCH][3];
    int nroots[BATCH];
    for (int i = 0; i < BATCH; i++) {
        do
            eq[i][0] = coef();
        while (eq[i][0] == 0.0);
        for (int k = 1; k < 4; k++)
            eq[i][k] = coef();
    }
    for (int i = 0; i < BATCH; i++)
        nroots[i] = solve_cubic(eq[i][0], eq[i][1], eq[i][2], eq[i][3], roots[i]);
    for (int i = 0; i < BATCH; i++) {
        st.res.checksum = wl_mix32(st.res.checksum, (uint32_t)nroots[i]);
        for (int k = 0; k < nroots[i]; k++) {
            double x = roots[i][k];
            double f = ((eq[i][0] * x + eq[i][1]) * x + eq[i][2]) * x + eq[i][3];
            double scale = wl_fabs(eq[i][0] * x * x * x) + wl_fabs(eq[i][1] * x * x) +
                           wl_fabs(eq[i][2] * x) + wl_fabs(eq[i][3]) + 1.0;
            if (wl_fabs(f) > 1e-8 * scale)
                st.failures++;
            st.res.checksum = wl_mix32(st.res.checksum, (uint32_t)wl_fix(x, 1e4));
        }
    }
    for (int i = 0; i < 64; i++) {
        uint32_t v = wl_prng_next(&st.rng);
        v >>= wl_prng_next(&st.rng) & 31u;
        uint32_t r = wl_isqrt(v);
        uint64_t r2 = (uint64_t)r * r, r1 = (uint64_t)(r + 1) * (r + 1);
        if (r2 > v || r1 <= v)
            st.failures++;
        st.res.checksum = wl_mix32(st.res.checksum, r);
    }
    for (int i = 0; i < 32; i++) {
        double deg = (double)wl_prng_below(&st.rng, 360000) / 1000.0;
        double back = rad2deg(deg2rad(deg));
        if (wl_fabs(back - deg) > 1e-9)
            st.failures++;
        st.res.checksum = wl_mix32(st.res.checksum, (uint32_t)wl_fix(deg2rad(deg), 1e6));
    }
    st.res.rounds_done++;
    return st.res.rounds_done < st.rounds;
}

uint32_t basicmath_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t basicmath_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x9c49a537u, 0xbf89e491u};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t basicmath_program = {"basicmath", basicmath_init, basicmath_round,
                                        basicmath_checksum, basicmath_expected};
