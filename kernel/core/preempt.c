/* The kernel side of the preempt-traps pass (docs/sensmart.md "Preemption by counted
 * branches"): every N-th backward branch of a task built with `cactus cc --preempt-traps=N`
 * enters here through port_preempt_<reg> (arch/rv32/preempt.S), interrupts masked, on the
 * kernel stack, with the task's registers in its context. Guarantees: the task's counter is N
 * again; every tick that fell due while the task kept the timer interrupt masked has been
 * counted exactly as the tick interrupt counts it (deadlines expire, the slice advances and at
 * its end the running level rotates: round robin among equal priorities); then the highest
 * ready task runs (the caller if nothing outranks it and its slice goes on). */
#include "k.h"

/* The period N, an absolute symbol every unit the pass instrumented defines (weak); 0 when no
 * unit was instrumented (then no task ever comes here). */
extern const char cactus_preempt_period[] __attribute__((weak));

uint32_t k_preempt_traps; /* kernel entries through counted branches (for measurements) */

uint32_t k_preempt_period(void)
{
    return (uint32_t)(uintptr_t)cactus_preempt_period;
}

void k_preempt_trap(void)
{
    struct k_tcb *cur = k_cur();
    cur->ctx.preempt = k_preempt_period();
    k_preempt_traps++;
    k_tick_catch_up();
}
