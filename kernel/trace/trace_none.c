/* Trace backend for machines without the trace device (QEMU): every call does nothing, so the
 * firmware behaves identically apart from the missing device writes. */
#include "ktrace.h"

void ktrace_task_create(uint32_t id, uint32_t prio, const char *name)
{
    (void)id, (void)prio, (void)name;
}
void ktrace_task_switch(const struct k_tcb *t)
{
    (void)t;
}
void ktrace_task_exit(uint32_t id, uint32_t reason)
{
    (void)id, (void)reason;
}
void ktrace_region_assign(uintptr_t base, uint32_t size, uint32_t owner)
{
    (void)base, (void)size, (void)owner;
}
void ktrace_region_release(uintptr_t base, uint32_t size)
{
    (void)base, (void)size;
}
void ktrace_region_lend(uintptr_t base, uint32_t size, uint32_t lender, uint32_t borrower)
{
    (void)base, (void)size, (void)lender, (void)borrower;
}
void ktrace_stack_hwm(uint32_t id, uint32_t used, uint32_t budget)
{
    (void)id, (void)used, (void)budget;
}
void ktrace_stacks(void)
{
}
void ktrace_overflow(uint32_t id, uintptr_t sp, uint32_t requested, uint32_t action)
{
    (void)id, (void)sp, (void)requested, (void)action;
}
void ktrace_marker(uint32_t id, uint32_t value)
{
    (void)id, (void)value;
}
void ktrace_kernel_enter(void)
{
}
void ktrace_kernel_leave(void)
{
}
void ktrace_isr_enter(uint32_t source)
{
    (void)source;
}
void ktrace_isr_leave(void)
{
}
int ktrace_violations(uint32_t *out)
{
    (void)out;
    return -1;
}
