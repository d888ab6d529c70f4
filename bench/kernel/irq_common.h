/* The interrupt benchmarks' shared part (irq_bench.c: a plain C handler; irq_direct_bench.c:
 * a direct handler, docs/interrupts.md "Direct handlers"): the tasks, the raise, the
 * calibration and the handler's body. Each firmware defines irqb_attach(), which attaches its
 * handler; the handler stamps irqb_entry_stamp at its first instruction and then runs
 * irqb_body. */
#ifndef IRQ_COMMON_H
#define IRQ_COMMON_H
#include "cactus/cactus.h"
#include "ids.h"
#include "marked.h"

static void irqb_attach(void);

#define SAMPLES 100
#define MSIP ((volatile uint32_t *)0x02000000u)

static cactus_sem wake;
__attribute__((used, externally_visible)) volatile uint32_t irqb_entry_stamp; /* written by isr_probe's first instruction */
static volatile uint32_t give_stamp, woke_stamp, rounds;

static inline uint32_t cycles(void)
{
    uint32_t c;
    __asm__ volatile("csrr %0, mcycle" : "=r"(c));
    return c;
}

__attribute__((used, noinline, externally_visible)) void irqb_body(uint32_t source)
{
    (void)source;
    give_stamp = cycles();
    cactus_sem_give(&wake);
}

static void high(void *arg)
{
    (void)arg;
    for (;;) {
        cactus_sem_take(&wake, CACTUS_FOREVER);
        woke_stamp = cycles();
        rounds++;
    }
}

/* Cycles of `csrr; sw` to msip, as the raise below executes them (the difference of two csrr
 * reads around the store is the csrr plus the store). The store writes 0 (no handler is
 * attached yet and nothing is pending): a device store, with the device's bus latency, exactly
 * as the raise's, so the interrupt counts as pending from the cycle the raise's store is done. */
static uint32_t calibrate(void)
{
    uint32_t least = 0xFFFFFFFFu;
    for (int i = 0; i < 8; i++) {
        uint32_t a, b;
        __asm__ volatile("csrr %0, mcycle\n\t"
                         "sw zero, 0(%2)\n\t"
                         "csrr %1, mcycle"
                         : "=&r"(a), "=&r"(b)
                         : "r"(MSIP)
                         : "memory");
        if (b - a < least)
            least = b - a;
    }
    return least;
}

static void low(void *arg)
{
    (void)arg;
    uint32_t cal = calibrate();
    bench_marker(BID_ISR_CAL, cal);
    irqb_attach();
    for (uint32_t i = 0; i < SAMPLES + 1; i++) {
        uint32_t raised;
        __asm__ volatile("csrr %0, mcycle\n\t"
                         "sw %1, 0(%2)"
                         : "=&r"(raised)
                         : "r"(1), "r"(MSIP)
                         : "memory");
        while (rounds == i) /* the interrupt is taken right after the store */
            ;
        if (i == 0)
            continue;
        bench_marker(BID_ISR_ENTRY, irqb_entry_stamp - raised - cal);
        bench_marker(BID_ISR_WAKE, woke_stamp - give_stamp - 1);
    }
    bench_marker(BID_DONE, SAMPLES);
    cactus_exit(0);
}

static const cactus_task_desc tasks[] = {
    { .name = "high", .entry = high, .stack_size = 512, .prio = 5 },
    { .name = "low", .entry = low, .stack_size = 512, .prio = 1 },
};

int main(void)
{
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 1, .tasks = tasks, .ntasks = 2 };
    cactus_start(&cfg);
}
#endif
