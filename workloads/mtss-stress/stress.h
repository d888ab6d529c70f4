/* stress.h: the randomized MTSS stress workload (docs/mtss.md, "Randomized stress").
 *
 * Every worker task runs STRESS_ROUNDS recursion chains whose depths and frame sizes come from
 * one seed (`stress_seed`, patched in memory by `cactus stress mtss` before the run), with
 * seeded busy-work, yields and sleeps between and inside the calls so that timer ticks land at
 * different instructions in every run. Results depend only on the seed, never on timing: the
 * UART output of a run with ample static stacks and of one whose stacks are shared (`mtss`)
 * must be identical. */
#ifndef STRESS_H
#define STRESS_H

#include <stdint.h>

#ifndef STRESS_WORKERS
#define STRESS_WORKERS 4 /* worker tasks: manifest tasks 0..STRESS_WORKERS-1 */
#endif
#ifndef STRESS_ROUNDS
#define STRESS_ROUNDS 40 /* recursion chains per worker */
#endif
#ifndef STRESS_MAX_LEVELS
#define STRESS_MAX_LEVELS 9 /* recursion levels of one chain, at most */
#endif
#ifndef STRESS_MAX_BYTES
#define STRESS_MAX_BYTES 3072 /* stack bytes the levels of one chain may claim, at most */
#endif

/** The run's seed: written by the runner after loading the ELF, before the first instruction. */
extern volatile uint32_t stress_seed;

/** A xorshift32 generator (state never 0). */
typedef struct {
    uint32_t s;
} stress_rng;

/** The next value of `r`. */
static inline uint32_t stress_next(stress_rng *r)
{
    uint32_t x = r->s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    r->s = x;
    return x;
}

/** A well-mixed 32-bit hash step (murmur3's finaliser over h ^ v). */
static inline uint32_t stress_mix(uint32_t h, uint32_t v)
{
    h ^= v + 0x9E3779B9u + (h << 6) + (h >> 2);
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return h;
}

/** One worker's computation. `data` drives the results; `timing` only the busy-work, yields
 * and sleeps (nothing computed depends on it). */
typedef struct {
    stress_rng data;
    stress_rng timing;
    uint32_t corrupt; /* frame words found changed when their function resumed */
    uint32_t levels;  /* recursion levels entered */
    uint32_t live;    /* 1: spin, yield and sleep; 0: compute only (the coordinator's recheck) */
} stress_ctx;

/** Seeds `c` for worker `worker` from `seed`; `live` as in stress_ctx. */
void stress_ctx_init(stress_ctx *c, uint32_t seed, uint32_t worker, uint32_t live);

/** Runs a recursion chain that claims at most `bytes` bytes of stack in frames (and at most
 * STRESS_MAX_LEVELS levels) and returns its hash (frames.c). */
uint32_t stress_chain(stress_ctx *c, uint32_t bytes);

/** Seeded busy-work of a few hundred instructions (only when c->live). */
void stress_spin(stress_ctx *c);

/** Every round of one worker; returns its checksum (worker.c). */
uint32_t stress_rounds(stress_ctx *c);

/** Results the workers leave for the coordinator. */
extern uint32_t stress_checksum[STRESS_WORKERS];
extern uint32_t stress_corrupt[STRESS_WORKERS];
extern uint32_t stress_levels[STRESS_WORKERS];

#endif
