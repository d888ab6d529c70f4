/* The firmware of steal.toml: see there. */
#include "cactus_firmware.h"

static volatile uint32_t high_done, x_done;

/* A loop with a few values live across its iterations, long enough to span many ticks. */
static uint32_t mix_loop(uint32_t seed, uint32_t n)
{
    uint32_t a = seed, b = seed ^ 0x9e3779b9u, c = 7;
    for (uint32_t i = 0; i < n; i++) {
        a = a * 31u + (b >> 3) + i;
        b ^= a << 5;
        c += (a ^ b) & 0xff;
    }
    return a ^ b ^ c;
}

void x_task(void *arg)
{
    (void)arg;
    while (!high_done)
        cactus_sleep(1);
    x_done = 1;
}

void high_task(void *arg)
{
    (void)arg;
    uint32_t sum = 0;
    for (uint32_t round = 0; round < 12; round++) {
        cactus_sleep(2);
        sum += mix_loop(round, 20000);
    }
    kprintf("high %08x\n", (unsigned)sum);
    high_done = 1;
}

void low_task(void *arg)
{
    (void)arg;
    uint32_t sum = mix_loop(12345, 400000);
    while (!high_done || !x_done)
        cactus_sleep(1);
    kprintf("low %08x\n", (unsigned)sum);
    cactus_fw_finish(0);
}
