/* Failed stack checks (docs/stack-checks.md): the trap path of a check site's ecall or of the
 * hardware stack bound or stack window, the return trampoline of a moved frame, the call slow path (split.S),
 * and tasks waiting for stack memory. The strategy decides (stack_request); a refusal gets the
 * task's fault policy (core/policy.c). */
#include "k.h"
#include "../stack/stack.h"
#include "../trace/ktrace.h"

/* How long a task waits for stack memory before its fault policy applies, in ticks. */
#ifndef CACTUS_STACK_WAIT_TICKS
#define CACTUS_STACK_WAIT_TICKS 100
#endif

/* Tasks waiting for stack memory (a strategy answered STACK_RETRY), and when each one's wait
 * ends (valid while stack_waiting[id]). A wait spans every retry of one request. */
static cactus_wait stack_waiters = { .kind = WAIT_STACK };
static uint32_t stack_wait_end[CACTUS_MAX_TASKS];
static uint8_t stack_waiting[CACTUS_MAX_TASKS];

void k_stack_released(void)
{
    for (struct k_tcb *t; (t = k_wait_first(&stack_waiters));)
        k_wake_in_trap(t); /* it retries its check (ctx.pc is the site's ecall) */
}

/* The running task cur was refused stack memory that a release may bring back: it blocks until
 * memory is released or its wait (CACTUS_STACK_WAIT_TICKS from its first refusal) ends, then
 * retries the check at the site's ecall. Returns 0 when it must not wait (its wait is over, or
 * it runs with interrupts masked); a wait no release can end (every other live task waits
 * too) is a deadlock: reported, and the system stops with CACTUS_EXIT_HALT. */
static int stack_wait(struct k_tcb *cur, const struct cactus_check_site *site, int irq_on)
{
    int id = k_id(cur);
    if (!irq_on)
        return 0;
    if (!stack_waiting[id]) {
        stack_waiting[id] = 1;
        stack_wait_end[id] = k_tick + CACTUS_STACK_WAIT_TICKS;
    }
    int32_t left = (int32_t)(stack_wait_end[id] - k_tick);
    if (left <= 0) {
        stack_waiting[id] = 0;
        return 0;
    }
    int deadlock = 1;
    for (int i = 0; i < CACTUS_MAX_TASKS && deadlock; i++) {
        const struct k_tcb *t = &k_tasks[i];
        if (t != cur && k_alive(t) && t->wait_on != &stack_waiters)
            deadlock = 0;
    }
    if (deadlock) {
        k_report("cactus: task %d '%s': waits for stack memory at pc=%08x sp=%08x\n", id,
                cur->desc->name, site->site, cur->ctx.sp);
        stack_refusal_print();
        k_stop(CACTUS_EXIT_HALT, "DEADLOCK: every live task is blocked waiting for stack memory");
    }
    cur->ctx.pc = site->site; /* retry the check when woken */
    k_block_in_trap(&stack_waiters, (uint32_t)left, CACTUS_TASK_BLOCKED);
    return 1;
}

/* A failed stack check (an ecall at a `cactus_checks` site). Nothing below the limit has been
 * written: the check precedes every store of the new frame, and this path writes only the TCB
 * and the kernel stack. */
int k_stack_check_failed(struct port_context *ctx, const struct cactus_check_site *site,
                         uint32_t need, int in_kernel, int irq_on)
{
    struct k_tcb *cur = k_cur();
    if (!cur || in_kernel || ctx != &cur->ctx) {
        /* Kernel code overflowed the kernel stack: nothing can be resumed. The report goes to
         * the console and to the halt hook (task 0xffff: no task). */
        cactus_fault f = { .reason = CACTUS_FAULT_STACK_REQUEST, .action = CACTUS_ON_FAULT_HALT,
                           .task = 0xffffu, .pc = site->site, .sp = ctx->sp,
                           .limit = port_kernel.stack.limit, .requested = need };
        port_irq_save();
        k_report("cactus: PANIC: kernel stack overflow caught: pc=%08x need=%u sp=%08x "
                "limit=%08x\n",
                f.pc, need, f.sp, f.limit);
        if (k_cfg && k_cfg->halt_hook)
            k_cfg->halt_hook(&f);
        port_exit(CACTUS_EXIT_PANIC);
    }
    int r = stack_request(cur, site);
    if (r == 0) {
        stack_waiting[k_id(cur)] = 0;
        cur->ctx.pc = site->resume; /* full resume at the check's continuation */
        return 0;
    }
    if (r == STACK_RETRY && stack_wait(cur, site, irq_on))
        return -1;
    cactus_fault f = { .reason = CACTUS_FAULT_STACK_REQUEST, .pc = site->site, .sp = cur->ctx.sp,
                       .requested = need };
    /* need counts from the sp the check compared; the frame ends `need` bytes below it. */
    uint32_t low = cur->ctx.sp - need, limit = (uint32_t)cur->stack.limit;
    k_report("cactus: task %d '%s': stack overflow caught: pc=%08x sp=%08x limit=%08x: the frame "
            "needs %u bytes below the limit\n",
            k_id(cur), cur->desc->name, site->site, cur->ctx.sp, limit,
            low < limit ? limit - low : 0u);
    stack_refusal_print();
    k_fault(cur, &f);
    k_reschedule();
    return -1;
}

void k_stack_bound_fault(struct port_context *ctx, uint32_t refused, int in_kernel)
{
    struct k_tcb *cur = k_cur();
    if (!cur || in_kernel || ctx != &cur->ctx) {
        k_report("cactus: PANIC: kernel stack overflow caught by the stack bound: pc=%08x "
                "sp=%08x would be %08x limit=%08x\n",
                ctx->pc, ctx->sp, refused, port_kernel.stack.limit);
        port_exit(CACTUS_EXIT_PANIC);
    }
    cactus_fault f = { .reason = CACTUS_FAULT_STACK_REQUEST, .pc = ctx->pc, .sp = ctx->sp,
                       .requested = refused < ctx->sp ? ctx->sp - refused : 0 };
    k_report("cactus: task %d '%s': stack overflow caught by the stack bound: pc=%08x sp=%08x "
            "would be %08x limit=%08x\n",
            k_id(cur), cur->desc->name, ctx->pc, ctx->sp, refused, cur->stack.limit);
    k_fault(cur, &f);
    k_reschedule();
}

int k_stack_window_fault(struct port_context *ctx, uint32_t addr, int in_kernel)
{
    struct k_tcb *cur = k_cur();
    if (!cur || in_kernel || ctx != &cur->ctx) {
        k_report("cactus: PANIC: stack-window exception in kernel code: pc=%08x address=%08x "
                "sp=%08x\n",
                ctx->pc, addr, ctx->sp);
        port_exit(CACTUS_EXIT_PANIC);
    }
    if (stack_grow(cur, addr) == 0)
        return 0; /* re-executes the access (ctx->pc is the faulting instruction) */
    uint32_t limit = (uint32_t)cur->stack.limit;
    cactus_fault f = { .reason = CACTUS_FAULT_STACK_REQUEST, .pc = ctx->pc, .sp = ctx->sp,
                       .limit = limit, .requested = addr < limit ? limit - addr : 0 };
    k_report("cactus: task %d '%s': stack overflow caught by the stack window: pc=%08x sp=%08x "
            "address=%08x limit=%08x\n",
            k_id(cur), cur->desc->name, ctx->pc, ctx->sp, addr, limit);
    stack_refusal_print();
    k_fault(cur, &f);
    k_reschedule();
    return -1;
}

/* The return trampoline was reached: a frame the stack strategy moved has returned. From a task
 * the strategy restores the caller's sp, ra, pc and limit (0: resume in place); a task with no
 * moved frame (it jumped to the trampoline by itself) gets its fault policy as an exception
 * (cause 11 at the trampoline). From kernel code it is a kernel panic. */
int k_stack_frame_return(struct port_context *ctx, int in_kernel)
{
    struct k_tcb *cur = k_cur();
    if (!cur || in_kernel || ctx != &cur->ctx) {
        k_report("cactus: PANIC: stack return trampoline reached from kernel code: sp=%08x\n",
                ctx->sp);
        port_exit(CACTUS_EXIT_PANIC);
    }
    if (stack_frame_return(cur) == 0)
        return 0;
    cactus_fault f = { .reason = CACTUS_FAULT_EXCEPTION, .cause = MCAUSE_ECALL_M,
                       .pc = cur->ctx.pc, .sp = cur->ctx.sp };
    k_fault(cur, &f);
    k_reschedule();
    return -1;
}

/* The call slow path (port.h): no policy is applied here; a refusal resumes the task at the
 * site's ecall, and the trap path (k_stack_check_failed) asks again and waits or applies it. */
uint32_t k_split_request(const struct cactus_check_site *site)
{
    struct k_tcb *cur = k_cur();
    if (!cur || stack_request(cur, site) != 0)
        return site->site;
    stack_waiting[k_id(cur)] = 0;
    return site->resume;
}

uint32_t k_split_return(void)
{
    struct k_tcb *cur = k_cur();
    if (!cur || stack_frame_return(cur) != 0)
        return (uint32_t)(uintptr_t)port_stack_return;
    uint32_t pc = cur->ctx.pc;
    cur->ctx.pc = 0; /* running again (port.h: CTX_PC) */
    return pc;
}
