/* Device and software interrupt handlers: attaching them, dispatching them (claim, handler,
 * complete) on the kernel stack with nesting by PLIC priority, and the deferred task switch at
 * the outermost exit. Linked only by firmware that attaches a handler (docs/interrupts.md). */
#include "k.h"

/* Handler and name per source; source 0 is the machine software interrupt. */
static cactus_isr handlers[PORT_IRQ_SOURCES];
static const char *names[PORT_IRQ_SOURCES];
/* The handler running at the innermost nesting level (for misuse reports). */
static uint32_t running = PORT_IRQ_SOURCES;

int cactus_irq_attach(uint32_t source, cactus_isr handler, uint32_t priority, const char *name)
{
    if (source >= PORT_IRQ_SOURCES || !handler)
        return CACTUS_EINVAL;
    if (source == CACTUS_IRQ_SOFTWARE ? priority != 0
                                      : priority == 0 || priority > PORT_IRQ_PRIO_MAX)
        return CACTUS_EINVAL;
    uint32_t s = port_irq_save();
    handlers[source] = handler;
    names[source] = name ? name : "?";
    port_irq_route(source, priority);
    port_irq_restore(s);
    return CACTUS_OK;
}

void cactus_irq_raise_software(void)
{
    port_swi_raise();
}

int cactus_in_isr(void)
{
    k_fresh();
    return k_isr_nest != 0;
}

/* Runs one handler with interrupts enabled, so sources above the current threshold nest. */
static void run(uint32_t source)
{
    uint32_t outer = running;
    running = source;
    port_irq_enable_global();
    handlers[source](source);
    port_irq_disable_global();
    running = outer;
}

void k_irq_dispatch(uint32_t mcause)
{
    k_isr_nest++;
    uint32_t mie = port_irq_mask_local();
    if ((mcause & 0xff) == 3) {
        port_swi_clear();
        run(CACTUS_IRQ_SOFTWARE);
    } else {
        uint32_t source;
        while ((source = port_irq_claim()) != 0) {
            if (source < PORT_IRQ_SOURCES && handlers[source]) {
                uint32_t threshold = port_irq_threshold(port_irq_priority(source));
                run(source);
                port_irq_threshold(threshold);
            }
            port_irq_complete(source);
        }
    }
    port_irq_unmask_local(mie);
    k_isr_nest--;
}

void k_irq_from_task(uint32_t mcause)
{
    k_irq_dispatch(mcause);
    if (k_isr_resched) {
        k_isr_resched = 0;
        k_preempt(); /* one switch, whatever the handlers woke */
    }
}

/* Tickless idle (time.c): runs the handlers of a software or external interrupt that woke
 * the idle loop, on the kernel stack; returns 1, with the idled time counted, if they made a
 * task ready (the idle loop's caller then chooses it). */
static int idle_dispatch(void)
{
    uint32_t pending = port_irq_pending_devices();
    if (pending & MIE_MSIE)
        k_irq_dispatch(3);
    if (pending & MIE_MEIE)
        k_irq_dispatch(11);
    /* A handler's nested interrupt left mstatus.MPP = U with its mret; the trap this idle
     * loop may be part of leaves through mret and needs MPP = M. */
    __asm__ volatile("csrs mstatus, %0" ::"r"(MSTATUS_MPP_M));
    k_isr_resched = 0;
    if (!readyq_first(&k_ready))
        return 0;
    k_idle_woken(port_time());
    return 1;
}

/* Tickless idle that also runs handlers (replaces time.c's weak k_idle): with no deadline
 * it waits for a handler only. */
void k_idle(void)
{
    struct timer_node *n = timerq_first(&k_timers);
    uint64_t when = n ? k_idle_deadline(n) : UINT64_MAX;
    port_timer_set(when);
    while (port_time() < when) {
        port_wait_for_interrupt();
        if (idle_dispatch())
            return;
    }
    k_idle_reached(n, when);
}

void k_isr_blocking_call(void)
{
    const char *name = running < PORT_IRQ_SOURCES ? names[running] : "?";
    kprintf("cactus: PANIC: interrupt handler '%s' (source %u) made a blocking kernel call\n",
            name, running);
    k_stop(CACTUS_EXIT_PANIC, "a handler must not block: use CACTUS_NO_WAIT or wake a task");
}
