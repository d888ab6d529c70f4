/* Fault policy: kill (and notify the fault hook), restart, or halt with a report; and a task's
 * exceptions, which get it. A task is never resumed on a stack the kernel knows to be
 * overflowed; when the saved sp shows the overflow reached below the task's own region, every
 * task whose stack lies in the damaged range gets its own policy applied too
 * (CACTUS_FAULT_STACK_COLLATERAL). Failed stack checks are core/stackfault.c's, stopping the
 * system core/halt.c's. A firmware may link variants/fault_halt.c instead of this file and
 * core/stackfault.c: then every fault stops the system (docs/kernel.md "Footprint"). */
#include "k.h"
#include "../stack/stack.h"
#include "../trace/ktrace.h"

static const char *reason_name(uint8_t r)
{
    switch (r) {
    case CACTUS_FAULT_STACK_SP: return "stack overflow (sp below limit at switch)";
    case CACTUS_FAULT_STACK_GUARD: return "stack overflow (guard pattern overwritten)";
    case CACTUS_FAULT_STACK_REQUEST: return "stack overflow (frame request)";
    case CACTUS_FAULT_STACK_COLLATERAL: return "stack damaged by another task's overflow";
    case CACTUS_FAULT_EXCEPTION: return "exception";
    case CACTUS_FAULT_ISOLATION: return "isolation (access outside the task's regions)";
    default: return "fault";
    }
}

static int is_stack_fault(uint8_t r)
{
    return r >= CACTUS_FAULT_STACK_SP && r <= CACTUS_FAULT_STACK_COLLATERAL;
}

static void collateral(uintptr_t lo, uintptr_t hi, const struct k_tcb *culprit)
{
    for (int i = 0; i < CACTUS_MAX_TASKS; i++) {
        struct k_tcb *u = &k_tasks[i];
        if (u == culprit || !k_alive(u))
            continue;
        cactus_stack_info s;
        stack_usage(u, &s);
        if (s.base < hi && lo < s.base + s.size) {
            cactus_fault g = { .reason = CACTUS_FAULT_STACK_COLLATERAL, .sp = u->ctx.sp };
            k_fault(u, &g);
        }
    }
}

void k_fault(struct k_tcb *t, cactus_fault *f)
{
    cactus_stack_info s;
    stack_usage(t, &s);
    f->task = (uint16_t)k_id(t);
    f->action = t->desc->on_fault;
    f->limit = (uint32_t)t->stack.limit;
    if (is_stack_fault(f->reason))
        ktrace_overflow((uint32_t)f->task, f->sp, f->requested, f->action);
    if (f->action == CACTUS_ON_FAULT_HALT)
        k_halt(f, reason_name(f->reason));
    if (k_cfg->fault_hook)
        k_cfg->fault_hook(f);
    if (f->action == CACTUS_ON_FAULT_RESTART)
        k_task_reinit(t);
    else
        k_terminate(t, CACTUS_TASK_FAULTED);
    if (f->reason == CACTUS_FAULT_STACK_SP && f->sp < s.base)
        collateral(f->sp, s.base, t);
}

void k_exception(uint32_t cause, uint32_t pc, uint32_t tval, int in_kernel)
{
    struct k_tcb *cur = k_cur();
    if (!cur || in_kernel) {
        k_report("cactus: PANIC: exception in kernel: cause=%u pc=%08x tval=%08x\n", cause, pc,
                tval);
        port_exit(CACTUS_EXIT_PANIC);
    }
    cactus_fault f = {
        .reason = CACTUS_FAULT_EXCEPTION, .cause = cause, .pc = pc, .tval = tval,
        .sp = cur->ctx.sp,
    };
    k_fault(cur, &f);
    k_reschedule();
}

