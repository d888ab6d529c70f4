/* worker.c: the worker tasks of the MTSS stress workload (stress.h): seeded rounds of
 * recursion chains with busy-work, yields and sleeps between them. */
#include "stress.h"

#include "cactus/cactus.h"

#ifndef STRESS_SEED
#define STRESS_SEED 0x5EED0001u /* -DSTRESS_SEED=N replays seed N with a plain `cactus run` */
#endif

/* Nonzero, so it lives in initialised data that the runner can patch before the run. */
volatile uint32_t stress_seed = STRESS_SEED;

uint32_t stress_checksum[STRESS_WORKERS];
uint32_t stress_corrupt[STRESS_WORKERS];
uint32_t stress_levels[STRESS_WORKERS];

/* One give per finished worker; the coordinator takes STRESS_WORKERS of them. */
static cactus_sem stress_done;
/* Never given: finished workers wait on it forever, alive, so that their free stack pages can
 * be lent to the coordinator's recheck. */
static cactus_sem stress_park;

void stress_init(void)
{
    cactus_sem_init(&stress_done, 0, STRESS_WORKERS);
    cactus_sem_init(&stress_park, 0, 1);
}

void stress_ctx_init(stress_ctx *c, uint32_t seed, uint32_t worker, uint32_t live)
{
    uint32_t d = stress_mix(seed, worker + 1u);
    uint32_t t = stress_mix(seed ^ 0xA5A5F00Du, worker + 101u);
    c->data.s = d ? d : 1u;
    c->timing.s = t ? t : 1u;
    c->corrupt = 0;
    c->levels = 0;
    c->live = live;
}

/* Spins 0..159 iterations and, one time in 16, sleeps one tick. */
void stress_spin(stress_ctx *c)
{
    if (!c->live)
        return;
    uint32_t x = stress_next(&c->timing);
    uint32_t n = x % 160u;
    for (uint32_t i = 0; i < n; i++)
        __asm__ volatile("nop");
    if ((x >> 8) % 16u == 0)
        cactus_sleep(1); /* switched out deep in a chain, perhaps in borrowed pages */
}

/* Between two chains: a longer spin, then a yield (2 in 8), a sleep of 1..3 ticks (3 in 8)
 * or nothing. */
static void stress_pause(stress_ctx *c)
{
    uint32_t x = stress_next(&c->timing);
    uint32_t n = x % 2048u;
    for (uint32_t i = 0; i < n; i++)
        __asm__ volatile("nop");
    switch ((x >> 11) % 8u) {
    case 0:
    case 1:
        cactus_yield();
        break;
    case 2:
    case 3:
    case 4:
        cactus_sleep(1u + (x >> 14) % 3u);
        break;
    default:
        break;
    }
}

uint32_t stress_rounds(stress_ctx *c)
{
    uint32_t sum = 0;
    for (uint32_t round = 0; round < STRESS_ROUNDS; round++) {
        uint32_t bytes = stress_next(&c->data) % (STRESS_MAX_BYTES + 1u);
        sum = stress_mix(sum, stress_chain(c, bytes));
        if (c->live)
            stress_pause(c);
    }
    return sum;
}

void stress_worker_main(void *arg)
{
    uint32_t w = (uint32_t)(uintptr_t)arg;
    stress_ctx c;
    stress_ctx_init(&c, stress_seed, w, 1);
    uint32_t sum = stress_rounds(&c);
    stress_checksum[w] = sum;
    stress_corrupt[w] = c.corrupt;
    stress_levels[w] = c.levels;
    cactus_sem_give(&stress_done);
    cactus_sem_take(&stress_park, CACTUS_FOREVER);
}

void stress_wait_workers(void)
{
    for (uint32_t n = 0; n < STRESS_WORKERS; n++)
        cactus_sem_take(&stress_done, CACTUS_FOREVER);
}
