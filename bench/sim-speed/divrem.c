/* sim-speed benchmark: division-heavy integer code with divisors only known
 * at run time (so the compiler cannot turn them into multiplications):
 * Euclid's gcd (remu), digit sums in bases 3..10 (divu/remu), signed
 * division and remainder of mixed-sign values (div/rem), ITERS rounds over
 * 256 pseudo-random pairs. */
#include "bench.h"

#ifndef ITERS
#define ITERS 26000
#endif

#define PAIRS 256

static uint32_t xs[PAIRS], ys[PAIRS];

static uint32_t gcd(uint32_t a, uint32_t b)
{
    while (b) {
        uint32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static uint32_t digit_sum(uint32_t v, uint32_t base)
{
    uint32_t s = 0;
    while (v) {
        s += v % base;
        v /= base;
    }
    return s;
}

int main(void)
{
    uint32_t seed = 5;
    for (int i = 0; i < PAIRS; i++) {
        xs[i] = bench_lcg(&seed) | 1;
        ys[i] = (bench_lcg(&seed) >> (i & 15)) | 1;
    }
    uint32_t sum = 0;
    for (uint32_t it = 0; it < ITERS; it++) {
        uint32_t base = 3 + (it & 7);
        for (int i = 0; i < PAIRS; i++) {
            uint32_t x = xs[i] + it, y = ys[i];
            sum += gcd(x, y);
            sum += digit_sum(x, base);
            int32_t sx = (int32_t)x, sy = (int32_t)(y >> 3) - (int32_t)(it & 0xff) - 1;
            if (sy == 0)
                sy = 7;
            sum ^= (uint32_t)(sx / sy) + (uint32_t)(sx % sy);
            sum = (sum << 1) | (sum >> 31);
        }
    }
    return bench_finish("divrem", ITERS, sum);
}
