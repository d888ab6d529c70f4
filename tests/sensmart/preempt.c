/* The firmware of masked.toml and open.toml (docs/sensmart.md "Preemption by counted
 * branches"): two tasks of equal priority. "spinner" computes in a loop and never blocks; with
 * arg 1 it masks interrupts in every iteration (a task the kernel cannot trust with the
 * interrupt mask). "probe" is preempted in by the kernel at the end of every slice of the
 * spinner: each time it runs it records how long after the slice's last tick it got the CPU,
 * then yields the rest of its own slice back to the spinner. After ROUNDS runs it prints the
 * latencies and returns; the spinner, alone again, sees that and ends the run with exit 0.
 *
 * With interrupts masked and no preempt-traps pass nothing can take the CPU from the spinner:
 * it gives up after SPIN_LIMIT iterations, prints FAIL and exits 1. So masked.toml passes only
 * when preemption by counted branches works.
 *
 * The latencies are in cycles on cactus-sim's profiles (mcycle counts cycles and mtime ticks
 * once every CYCLES_PER_MTIME cycles from reset: clock_hz / timebase_hz of profiles/mcu.toml);
 * `cactus bench sensmart` reads the "latency" line. On QEMU only PASS/FAIL means anything. */
#include "cactus_firmware.h"

#define ROUNDS 32
#define SPIN_LIMIT 20000000u
#define CYCLES_PER_MTIME 10u

/* The kernel's tick state (core/time.c): the mtime of the next tick and the tick period. Read
 * by this measuring task only, right after it was switched in, when the tick that ended the
 * spinner's slice is the last one counted (next - period), provided the switch came within
 * one tick period of it. */
extern uint32_t k_next_tick_lo, k_next_tick_hi, k_tick_period;
extern uint32_t k_preempt_traps;

static volatile uint32_t probe_runs;
static uint32_t latency[ROUNDS];
/* Set by the probe once its latency line is out: the spinner prints its verdict only then, so
 * a slice ending inside the probe's line cannot splice the verdict into it (seen on QEMU). */
static volatile int probe_printed;

static uint64_t cycles(void)
{
    uint32_t hi, lo, again;
    do {
        __asm__ volatile("csrr %0, mcycleh" : "=r"(hi));
        __asm__ volatile("csrr %0, mcycle" : "=r"(lo));
        __asm__ volatile("csrr %0, mcycleh" : "=r"(again));
    } while (hi != again);
    return (uint64_t)hi << 32 | lo;
}

void spinner_main(void *arg)
{
    uint32_t mask = (uint32_t)(uintptr_t)arg;
    uint32_t x = 1;
    uint32_t i;
    for (i = 0; i < SPIN_LIMIT && probe_runs < ROUNDS; i++) {
        if (mask)
            __asm__ volatile("csrci mstatus, 8" ::: "memory");
        x = x * 1103515245u + 12345u;
        __asm__ volatile("" : "+r"(x));
    }
    __asm__ volatile("csrsi mstatus, 8" ::: "memory");
    if (probe_runs >= ROUNDS)
        while (!probe_printed)
            cactus_yield();
    if (probe_runs < ROUNDS) {
        kprintf("FAIL preempt: the probe ran %u of %u times while the spinner spun %u "
                "iterations (interrupts %s)\n",
                probe_runs, ROUNDS, i, mask ? "masked" : "enabled");
        cactus_fw_finish(1);
    }
    kprintf("PASS preempt: the probe ran %u times while the spinner (interrupts %s) spun; "
            "%u kernel entries through counted branches\n",
            ROUNDS, mask ? "masked" : "enabled", k_preempt_traps);
    cactus_fw_finish(0);
}

void probe_main(void *arg)
{
    (void)arg;
    for (uint32_t r = 0; r < ROUNDS; r++) {
        uint64_t now = cycles();
        uint64_t next = (uint64_t)k_next_tick_hi << 32 | k_next_tick_lo;
        latency[r] = (uint32_t)(now - (next - k_tick_period) * CYCLES_PER_MTIME);
        probe_runs = r + 1;
        if (r + 1 < ROUNDS)
            cactus_yield();
    }
    kprintf("latency:");
    for (uint32_t r = 0; r < ROUNDS; r++)
        kprintf(" %u", latency[r]);
    kprintf("\n");
    probe_printed = 1;
}
