/* wl_prng.h: deterministic pseudo-random generator (xorshift32) for workload inputs.
 * Guarantee: a given seed yields the same sequence on every target; never returns 0 state. */
#ifndef WL_PRNG_H
#define WL_PRNG_H

#include <stdint.h>

/** State of one generator; seed with wl_prng_seed. */
typedef struct {
    uint32_t s;
} wl_prng_t;

/** Seeds the generator (a zero seed is replaced by a fixed non-zero one). */
static inline void wl_prng_seed(wl_prng_t *r, uint32_t seed)
{
    r->s = seed ? seed : 0x9e3779b9u;
}

/** Next 32-bit pseudo-random value. */
static inline uint32_t wl_prng_next(wl_prng_t *r)
{
    uint32_t x = r->s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    r->s = x;
    return x;
}

/** Pseudo-random value in [0, n) for n > 0 (multiply-shift, no modulo bias worth caring for). */
static inline uint32_t wl_prng_below(wl_prng_t *r, uint32_t n)
{
    return (uint32_t)(((uint64_t)wl_prng_next(r) * n) >> 32);
}

#endif
