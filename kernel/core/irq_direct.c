/* Direct handlers (docs/interrupts.md, "Direct handlers"): the machine software interrupt's
 * handler bound at link time to its own vector entry (arch/rv32/irq_direct.S), which saves no
 * register for it. Linked only by firmware that attaches one (a manifest firmware never links
 * it: crates/firmware, kernel_units.rs). */
#include "k.h"

int cactus_irq_attach_direct_software(const char *name)
{
    /* The ordinary attach names the handler in reports and gives the idle loop (core/irq.c)
     * a way to run it as a call; then the vector moves to the direct entry. */
    int r = cactus_irq_attach(CACTUS_IRQ_SOFTWARE, port_direct_isr_call, 0, name);
    if (r != CACTUS_OK)
        return r;
    uint32_t s = port_irq_save();
    port_irq_direct_route();
    port_irq_restore(s);
    return CACTUS_OK;
}

/* The direct exit's switch (irq_direct.S, when the handler made a task ready that outranks
 * the interrupted one): the one reschedule of the interrupt, as k_irq_exit_to_task's. */
__attribute__((flatten)) void k_irq_direct_exit(void)
{
    uintptr_t r = k_isr_resched;
    if (r != 0) {
        k_isr_resched = 0;
        if (__builtin_expect(r != K_ISR_RESCHED_LOOKUP, 1))
            k_preempt_to((struct k_tcb *)r);
        else
            k_preempt();
    }
}
