/* wl_run.h: bookkeeping shared by programs of suites 2-5: input generator, round counter and
 * limit, self-check failure count and running checksum, plus the declaration macro for a
 * program's interface. Guarantee: wl_run_init resets every field, so P_init fully resets a
 * program that keeps its state in a wl_run_t plus data it regenerates. */
#ifndef WL_RUN_H
#define WL_RUN_H

#include <stdint.h>

#include "wl_checksum.h"
#include "wl_prng.h"
#include "wl_program.h"

/** Declares the interface functions and descriptor of program P (see wl_program.h). */
#define WL_DECLARE_PROGRAM(P)                                                                 \
    void P##_init(uint32_t size_class);                                                       \
    int P##_round(void);                                                                      \
    uint32_t P##_checksum(void);                                                              \
    uint32_t P##_expected(uint32_t size_class);                                               \
    extern const wl_program_t P##_program

/** Shared per-program bookkeeping. */
typedef struct {
    wl_prng_t rng;
    uint32_t rounds, limit, failures, sum;
} wl_run_t;

/** Resets run: seed for the inputs, limit rounds in total. */
static inline void wl_run_init(wl_run_t *run, uint32_t seed, uint32_t limit)
{
    wl_prng_seed(&run->rng, seed);
    run->rounds = 0;
    run->limit = limit;
    run->failures = 0;
    run->sum = WL_CHECKSUM_INIT;
}

/** Ends one round: returns 1 while rounds remain, 0 when done. */
static inline int wl_run_next(wl_run_t *run)
{
    run->rounds++;
    return run->rounds < run->limit;
}

/** The program's checksum (marked failed if any self-check failed). */
static inline uint32_t wl_run_checksum(const wl_run_t *run)
{
    return wl_final(run->sum, run->failures);
}

/** expected[size_class], or 0 for an unknown class. */
static inline uint32_t wl_run_expected(const uint32_t expected[WL_SIZE_CLASSES],
                                       uint32_t size_class)
{
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

#endif
