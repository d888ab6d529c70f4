/* mal_sp.h: single-path building blocks for the malardalen-like programs.
 *
 * Guarantees: every helper executes the same instruction sequence whatever its operands
 * (no data-dependent branches: selections go through an all-ones/all-zeros mask that an empty
 * asm statement hides from the optimiser, so GCC cannot turn it back into a branch on RV32
 * without conditional moves). mal_run_init sets up the shared bookkeeping (wl_run.h) with the
 * suite's round counts and the input seed variant. */
#ifndef MAL_SP_H
#define MAL_SP_H

#include <stdint.h>

#include "wl_run.h"

/* Non-zero selects another input seed (used by the single-path check; see suites.mk). */
#ifndef WL_INPUT_VARIANT
#define WL_INPUT_VARIANT 0
#endif

/** Rounds (task activations) per size class. */
#define MAL_ROUNDS_SMALL 3u
#define MAL_ROUNDS_FULL 100u

/** All ones if c (0 or 1) is 1, else 0; opaque to the optimiser. */
static inline uint32_t sp_mask(uint32_t c)
{
    uint32_t m = 0u - c;
    __asm__("" : "+r"(m));
    return m;
}

/** c ? a : b without a branch (c is 0 or 1). */
static inline int32_t sp_sel(uint32_t c, int32_t a, int32_t b)
{
    uint32_t m = sp_mask(c);
    return (int32_t)(((uint32_t)a & m) | ((uint32_t)b & ~m));
}

/** Unsigned c ? a : b without a branch (c is 0 or 1). */
static inline uint32_t sp_selu(uint32_t c, uint32_t a, uint32_t b)
{
    uint32_t m = sp_mask(c);
    return (a & m) | (b & ~m);
}

/** min(a, b) without a branch. */
static inline int32_t sp_min(int32_t a, int32_t b)
{
    return sp_sel(a < b, a, b);
}

/** max(a, b) without a branch. */
static inline int32_t sp_max(int32_t a, int32_t b)
{
    return sp_sel(a < b, b, a);
}

/** |x| without a branch (x > INT32_MIN). */
static inline int32_t sp_abs(int32_t x)
{
    return sp_sel(x < 0, -x, x);
}

/** Resets run for size_class with input seed base (perturbed by WL_INPUT_VARIANT). */
static inline void mal_run_init(wl_run_t *run, uint32_t size_class, uint32_t base)
{
    wl_run_init(run, base ^ ((uint32_t)WL_INPUT_VARIANT * 0x9e3779b9u),
                size_class ? MAL_ROUNDS_FULL : MAL_ROUNDS_SMALL);
}

#endif
