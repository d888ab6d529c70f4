/* Interrupt benchmark firmware (cactus-sim only; `cactus bench kernel` runs it, docs/kernel.md
 * "Interrupts").
 *
 * The low task raises the machine software interrupt (one store to msip, right after reading
 * mcycle) SAMPLES + 1 times. The handler's first instruction reads mcycle (isr_probe, a naked
 * function: no prologue before the read) and its body reads it again right before giving a
 * semaphore that the high task blocks on; the high task reads mcycle as the first thing after
 * its take returns. The firmware reports per sample, as trace-device markers:
 *   isr_entry: pending (the msip store done) -> the handler's first instruction, i.e. the raise
 *              stamp difference less the csrr + sw pair (calibrated here, BID_ISR_CAL);
 *   isr_wake:  the handler's give (from its mcycle read) -> the woken task's first instruction
 *              after its take, less one csrr.
 * The first sample (cold) is not reported. */
#include "irq_common.h"

/* The handler attached: its first instruction stamps the entry, then the C body runs. */
__attribute__((naked)) static void isr_probe(uint32_t source)
{
    (void)source;
    __asm__ volatile("csrr t0, mcycle\n\t"
                     "lui t1, %hi(irqb_entry_stamp)\n\t"
                     "sw t0, %lo(irqb_entry_stamp)(t1)\n\t"
                     "j irqb_body");
}

static void irqb_attach(void)
{
    cactus_irq_attach(CACTUS_IRQ_SOFTWARE, isr_probe, 0, "isr_probe");
}
