/* The context-switch firmware of `cactus bench sensmart` (docs/sensmart.md): two tasks of one
 * priority hand the processor to each other with cactus_yield, ROUNDS times each; `ping`
 * reads mcycle before and after and reports the cycles per switch (marker 200; 201: the
 * number of switches measured). Built as is (`static`) and with `--stack relocate` (every
 * resume also writes the stack window). */
#include "cactus/cactus.h"
#include "cactus/trace.h"

#define ROUNDS 1000u

static uint32_t mcycle(void)
{
    uint32_t c;
    __asm__ volatile("csrr %0, mcycle" : "=r"(c));
    return c;
}

void pong_main(void *arg)
{
    (void)arg;
    for (;;)
        cactus_yield();
}

void ping_main(void *arg)
{
    (void)arg;
    cactus_yield(); /* pong has run once: both are warm */
    uint32_t start = mcycle();
    for (uint32_t i = 0; i < ROUNDS; i++)
        cactus_yield();
    uint32_t cycles = mcycle() - start;
    cactus_trace_marker(200, cycles / (2u * ROUNDS));
    cactus_trace_marker(201, 2u * ROUNDS);
    cactus_exit(0);
}
