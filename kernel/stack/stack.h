/* The stack-strategy interface. A build links exactly one implementation (stack/static.c,
 * mtss.c, segmented.c, hybrid.c, chunks.c, relocate.c); the core calls only these operations.
 *
 * Every strategy reports each task-stack region it assigns or releases to the trace layer
 * (ktrace_region_*), so the simulator's ownership oracle can judge every run. */
#ifndef K_STACK_H
#define K_STACK_H

#include "../core/k.h"

/* Switch-time verdicts (values equal the matching enum cactus_fault_reason). */
enum stack_verdict {
    STACK_OK = 0,
    STACK_SP_BELOW_LIMIT = CACTUS_FAULT_STACK_SP,
    STACK_GUARD_BROKEN = CACTUS_FAULT_STACK_GUARD,
};

/* Prepares the strategy's memory; called once by cactus_start before any task exists. */
void stack_init(void);
/* Gives task t a stack of at least `size` usable bytes (guard included in `size` for static);
 * sets t->stack.limit and returns the initial sp, or 0 when memory is exhausted. */
uintptr_t stack_alloc(struct k_tcb *t, uint32_t size);
/* Check made when t stops running (its saved sp is in t->ctx.sp): enum stack_verdict. */
int stack_check_switch(const struct k_tcb *t);
/* t needs `requested` more bytes below sp, in place (cactus_stack_overflow: the frame cannot be
 * moved). Returns 0 if they fit above t's limit, -1 if the fault policy must apply. */
int stack_out_of_stack(struct k_tcb *t, uintptr_t sp, uint32_t requested);
/* stack_request's answer when memory a release may bring back is missing (the task may wait). */
#define STACK_RETRY (-2)

/* A stack check of the running task t failed at `site` (docs/stack-checks.md): its registers
 * are in t->ctx, t->ctx.sp is the sp the check compared. Returns 0 when the strategy made room:
 * t resumes at site->resume (the strategy may have rewritten t->ctx.sp, t->ctx.ra and
 * t->stack.limit, e.g. to run the frame elsewhere); -1 when the fault policy must apply;
 * STACK_RETRY when only memory other tasks hold is missing: the task may wait until the
 * strategy calls k_stack_released(), then ask again (nothing was changed by either refusal).
 * Runs in the trap handler (or the call slow path) with interrupts masked. */
int stack_request(struct k_tcb *t, const struct cactus_check_site *site);
/* Prints (k_report, one indented line) why the last stack_request of this strategy returned -1:
 * what the strategy could not do and the figures that decided it. */
void stack_refusal_print(void);
/* The running task t reached the return trampoline (port_stack_return_site) with its registers
 * in t->ctx: a frame the strategy moved has returned. Returns 0 when t may resume at t->ctx.pc
 * (the strategy restored sp, ra, pc and the limit), -1 when t has no moved frame to return
 * from (the fault policy must apply). */
int stack_frame_return(struct k_tcb *t);
/* Instrumented code released the frame that began at sp. */
void stack_frame_released(struct k_tcb *t, uintptr_t sp);
/* Returns t's stack to the strategy (t is terminated or restarting). */
void stack_free(struct k_tcb *t);
/* Region, limit and high-water mark of t's stack. */
void stack_usage(const struct k_tcb *t, cactus_stack_info *out);

/* Logical stacks (the `relocate` strategy, docs/sensmart.md): tasks address their stack at
 * logical addresses only the running task's window translates. The strategies whose tasks see
 * physical addresses take both operations from stack/physical.h. */
/* Kernel code is about to read or write n bytes at p, a pointer task t gave it (a queue item):
 * returns the address kernel code must use (t's physical stack address for a logical one;
 * when it lies below t's bound, a buffer t never wrote, t's stack is grown first, which may
 * move other stacks: an address translated before is stale then). Returns p unchanged for
 * every address that is not a logical stack address. */
void *stack_task_ptr(struct k_tcb *t, void *p, uint32_t n);
/* Task t (the running one: the stack-window exception, before anything was written; or one a
 * kernel call writes into: stack_task_ptr) needs its stack down to logical address `low`,
 * below its bound: 0 when the strategy made room, -1 when it could not (the fault policy
 * applies to a running task). */
int stack_grow(struct k_tcb *t, uintptr_t low);

#endif
