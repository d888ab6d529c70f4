/* Trace backend for cactus-sim: every kernel trace call becomes a trace-device event. */
#include "cactus/trace.h"
#include "ktrace.h"
#include "../core/k.h"
#include "../stack/stack.h"

void ktrace_task_create(uint32_t id, uint32_t prio, const char *name)
{
    cactus_trace_task_create(id, prio, name);
}
_Static_assert(PORT_TRACE_BASE == CACTUS_TRACE_BASE && PORT_TRACE_ARG0 == CACTUS_TRACE_ARG0 &&
                   PORT_TRACE_EVENT == CACTUS_TRACE_EVENT &&
                   PORT_TRACE_EV_TASK_SWITCH == CACTUS_EV_TASK_SWITCH,
               "the yield's assembly path (arch/rv32/yield.S) writes the task-switch event so");
_Static_assert(sizeof(struct k_tcb) == 160 || CACTUS_STACK_WINDOW,
               "yield.S computes a task's id as (TCB - k_tasks) / 160");

void ktrace_task_switch(const struct k_tcb *t)
{
    cactus_trace_task_switch(t ? (uint32_t)k_id(t) : CACTUS_TRACE_NOBODY);
}
void ktrace_task_exit(uint32_t id, uint32_t reason)
{
    cactus_trace_task_exit(id, reason);
}
void ktrace_region_assign(uintptr_t base, uint32_t size, uint32_t owner)
{
    cactus_trace_region_assign((uint32_t)base, size, owner);
}
void ktrace_region_release(uintptr_t base, uint32_t size)
{
    cactus_trace_region_release((uint32_t)base, size);
}
void ktrace_region_lend(uintptr_t base, uint32_t size, uint32_t lender, uint32_t borrower)
{
    cactus_trace_region_lend((uint32_t)base, size, lender, borrower);
}
void ktrace_stack_hwm(uint32_t id, uint32_t used, uint32_t budget)
{
    cactus_trace_stack_hwm(id, used, budget);
}
void ktrace_stacks(void)
{
    for (int id = 0; id < CACTUS_MAX_TASKS; id++) {
        struct k_tcb *t = k_task(id);
        if (!t)
            continue;
        cactus_stack_info s;
        stack_usage(t, &s);
        cactus_trace_stack_hwm((uint32_t)id, s.used, s.base + s.size - s.limit);
    }
}
void ktrace_overflow(uint32_t id, uintptr_t sp, uint32_t requested, uint32_t action)
{
    cactus_trace_overflow(id, (uint32_t)sp, requested, action);
}
void ktrace_marker(uint32_t id, uint32_t value)
{
    cactus_trace_marker(id, value);
}
void ktrace_kernel_enter(void)
{
    cactus_trace_kernel_enter();
}
void ktrace_kernel_leave(void)
{
    cactus_trace_kernel_leave();
}
void ktrace_isr_enter(uint32_t source)
{
    cactus_trace_isr_enter(source);
}
void ktrace_isr_leave(void)
{
    cactus_trace_isr_leave();
}
int ktrace_violations(uint32_t *out)
{
    *out = cactus_trace_violations();
    return 0;
}
