/* Small public calls: sleeping, system exit, statistics, markers and the
 * out-of-stack entry for instrumented code. */
#include "k.h"
#include "../stack/stack.h"
#include "../trace/ktrace.h"

_Static_assert(CACTUS_MSTATUS_MIE == MSTATUS_MIE,
               "cactus_irq_save (cactus.h) keeps the port's interrupt-enable bit");

cactus_stats k_stats;
const cactus_config *k_cfg;

static K_SYSCALL(sys_sleep)
{
    if (a0 == 0) {
        k_yield(&k_cur()->ctx);
        return CACTUS_OK;
    }
    return k_block(0, (uint32_t)a0, CACTUS_TASK_SLEEPING, CACTUS_OK);
}

/* Sleeps until absolute tick a0 unless it has passed; returns 1 if it had. */
static K_SYSCALL(sys_sleep_until)
{
    uint32_t target = (uint32_t)a0;
    if (tick_before_eq(target, k_tick))
        return 1;
    k_block(0, target - k_tick, CACTUS_TASK_SLEEPING, CACTUS_OK);
    return 0;
}

static K_SYSCALL(sys_overflow)
{
    struct k_tcb *cur = k_cur();
    if (stack_out_of_stack(cur, cur->ctx.sp, (uint32_t)a0) == 0)
        return CACTUS_OK;
    cactus_fault f = { .reason = CACTUS_FAULT_STACK_REQUEST, .sp = cur->ctx.sp,
                       .requested = (uint32_t)a0 };
    k_fault(cur, &f);
    k_reschedule();
    return CACTUS_OK;
}

int cactus_sleep(uint32_t ticks)
{
    return (int)SYSCALL(sys_sleep, ticks, 0, 0, 0);
}

int cactus_sleep_until(uint32_t *last_wake, uint32_t period)
{
    uint32_t irq = port_irq_save();
    uint32_t *p = port_window_task_ptr(last_wake); /* a task's pointer (window.h) */
    uint32_t wake = p ? (*p += period) : 0;
    port_irq_restore(irq);
    return (int)SYSCALL(sys_sleep_until, wake, 0, 0, 0);
}

int cactus_stack_overflow(uint32_t requested)
{
    return (int)SYSCALL(sys_overflow, requested, 0, 0, 0);
}

void cactus_exit(uint32_t code)
{
    port_irq_save();
    ktrace_stacks();
    port_exit(code);
}

void cactus_get_stats(cactus_stats *out)
{
    uint32_t irq = port_irq_save();
    cactus_stats *p = port_window_task_ptr(out); /* a task's pointer (window.h) */
    if (p) {
        *p = k_stats;
        p->switches = k_switches;
        p->tick_irqs = k_tick - k_ticks_idled;
    }
    port_irq_restore(irq);
}

void cactus_marker(uint32_t id, uint32_t value)
{
    ktrace_marker(id, value);
}

int cactus_oracle_violations(uint32_t *out)
{
    uint32_t v = 0;
    int r = ktrace_violations(&v);
    uint32_t irq = port_irq_save();
    uint32_t *p = port_window_task_ptr(out); /* a task's pointer (window.h) */
    if (p)
        *p = v;
    port_irq_restore(irq);
    return r;
}
