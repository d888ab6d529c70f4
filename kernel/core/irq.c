/* Device and software interrupt handlers: attaching them, dispatching them (claim, handler,
 * complete) on the kernel stack with nesting by PLIC priority, and the deferred task switch at
 * the outermost exit. Linked only by firmware that attaches a handler (docs/interrupts.md). */
#include "k.h"
#include "../trace/ktrace.h"

/* Handler and name per source; source 0 is the machine software interrupt. */
static cactus_isr handlers[PORT_IRQ_SOURCES];
static const char *names[PORT_IRQ_SOURCES];
/* k_isr_call (sched.c) = the source of the handler running at the innermost nesting level
 * plus one, 0 outside handlers: the kernel calls a handler makes see it (no blocking, a
 * deferred reschedule), and a misuse report names the handler. */

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
    /* Handlers run with the kernel's stack descriptor, tasks with their own. */
    register uintptr_t tp __asm__("tp");
    return tp == (uintptr_t)(&port_kernel.stack + 1);
}

/* The software interrupt's handler (cleared first: a raise while it runs is taken again). */
static inline void run_software(void)
{
    port_swi_clear();
    k_isr_call = CACTUS_IRQ_SOFTWARE + 1;
    ktrace_isr_enter(CACTUS_IRQ_SOFTWARE);
    port_irq_enable_global();
    handlers[CACTUS_IRQ_SOFTWARE](CACTUS_IRQ_SOFTWARE);
    port_irq_disable_global();
    ktrace_isr_leave();
}

/* Every PLIC source claimable above the current threshold, highest priority first: each
 * handler runs with the threshold at its own priority, then the source is completed. Out of
 * line so that the software path keeps a small frame. */
static __attribute__((noinline)) void run_external(void)
{
    uint32_t source;
    while ((source = port_irq_claim()) != 0) {
        if (source < PORT_IRQ_SOURCES && handlers[source]) {
            uint32_t threshold = port_irq_threshold(port_irq_priority(source));
            k_isr_call = source + 1;
            ktrace_isr_enter(source);
            port_irq_enable_global();
            handlers[source](source);
            port_irq_disable_global();
            ktrace_isr_leave();
            port_irq_threshold(threshold);
        }
        port_irq_complete(source);
    }
}

/* Runs the handlers of one interrupt with interrupts enabled, so PLIC sources above the
 * current threshold nest; the timer and software interrupts stay masked until the outermost
 * handler returns. Inlined into its callers: the outermost level needs neither to keep the
 * name of an outer handler nor to mask again. Only the software (mcause 3) and external (11)
 * interrupts come here: bit 3 of mcause tells them apart (one test, no decode). */
static inline __attribute__((always_inline)) void dispatch(uint32_t mcause, int nested)
{
    uint32_t outer = nested ? k_isr_call : 0;
    uint32_t mie = nested ? 0 : port_irq_mask_local();
    if (__builtin_expect(!(mcause & 8), 1))
        run_software();
    else
        run_external();
    k_isr_call = outer;
    if (!nested)
        port_irq_unmask_local(mie);
}

void k_irq_dispatch(uint32_t mcause)
{
    dispatch(mcause, 1);
}

/* Tickless idle: the idle loop runs on the kernel stack like an outermost handler level. */
static void idle_run(uint32_t mcause)
{
    dispatch(mcause, 0);
}

/* The mie bits the outermost level masked (k_irq_from_task): kept in memory, for
 * k_irq_exit_to_task. */
static uint32_t outer_mie;

/* The outermost level from a task (irq.S calls it, then k_irq_exit_to_task): the software
 * interrupt's handler is its tail call, so the handler returns straight to irq.S and this
 * function keeps no frame; the external interrupt's claim loop runs here. */
void k_irq_from_task(uint32_t mcause)
{
    outer_mie = port_irq_mask_local();
    if (__builtin_expect(!(mcause & 8), 1)) {
        port_swi_clear(); /* first: a raise while the handler runs is taken again */
        k_isr_call = CACTUS_IRQ_SOFTWARE + 1;
        ktrace_isr_enter(CACTUS_IRQ_SOFTWARE);
        port_irq_enable_global();
        handlers[CACTUS_IRQ_SOFTWARE](CACTUS_IRQ_SOFTWARE);
        return;
    }
    run_external();
    k_isr_call = 0; /* run_external left its handlers' trace events closed */
}

/* The end of the outermost level: the software handler (if it ran: k_isr_call still names it)
 * is done, the masked interrupts come back and the one reschedule runs. Flattened: the switch
 * (k_preempt_to, which the tick's wake calls too) is inlined, not a tail jump. */
__attribute__((flatten)) void k_irq_exit_to_task(void)
{
    port_irq_disable_global();
    if (k_isr_call)
        ktrace_isr_leave();
    k_isr_call = 0;
    port_irq_unmask_local(outer_mie);
    uintptr_t r = k_isr_resched;
    if (__builtin_expect(r != 0, 1)) { /* one switch, whatever the handlers woke */
        k_isr_resched = 0;
        if (__builtin_expect(r != K_ISR_RESCHED_LOOKUP, 1))
            k_preempt_to((struct k_tcb *)r);
        else
            k_preempt();
    }
}

/* Tickless idle (time.c): runs the handlers of a software or external interrupt that woke
 * the idle loop, on the kernel stack; returns 1, with the idled time counted, if they made a
 * task ready (the idle loop's caller then chooses it). */
static int idle_dispatch(void)
{
    uint32_t pending = port_irq_pending_devices();
    if (pending & MIE_MSIE)
        idle_run(3);
    if (pending & MIE_MEIE)
        idle_run(11);
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
    uint32_t running = k_isr_call - 1;
    const char *name = running < PORT_IRQ_SOURCES ? names[running] : "?";
    k_report("cactus: PANIC: interrupt handler '%s' (source %u) made a blocking kernel call\n",
            name, running);
    k_stop(CACTUS_EXIT_PANIC, "a handler must not block: use CACTUS_NO_WAIT or wake a task");
}
