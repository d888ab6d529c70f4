/* Link-time variant: every fault stops the system. A firmware that links this object before the
 * kernel library gets these definitions instead of core/policy.c's and core/stackfault.c's,
 * which are then not linked at all (nothing else in them is referenced): no per-task fault
 * policy (kill, restart), no fault hook, no stack waits, no trap-time stack-check handling.
 * A task's exception, a failed switch-time stack check, a failed check site, the stack bound
 * and a stray return trampoline each print the kernel's HALT report (core/halt.c, the halt hook
 * included) and end the run with CACTUS_EXIT_HALT, as FreeRTOS's default handlers stop at a
 * fault. Only for firmware whose stack strategy never moves a frame (static): a strategy or
 * check mode that needs core/stackfault.c (k_stack_released, k_split_request) makes the link
 * fail with a multiple definition. docs/kernel.md "Footprint" gives what it saves. */
#include "../core/k.h"

/* The HALT report of a fault found in the trap handler. It names the running task when the
 * registers are its own, else no task (0xffff). Every field is set: no block clear, which
 * link-time code generation could only emit as a call to memset. */
static void halt(const struct port_context *ctx, uint8_t reason, uint32_t cause, uint32_t pc,
                 uint32_t tval, uint32_t requested, const char *why) __attribute__((noreturn));
static void halt(const struct port_context *ctx, uint8_t reason, uint32_t cause, uint32_t pc,
                 uint32_t tval, uint32_t requested, const char *why)
{
    struct k_tcb *cur = k_cur();
    int own = cur && ctx == &cur->ctx;
    cactus_fault f;
    f.reason = reason;
    f.action = CACTUS_ON_FAULT_HALT;
    f.task = own ? (uint16_t)k_id(cur) : 0xffffu;
    f.cause = cause;
    f.pc = pc;
    f.tval = tval;
    f.sp = ctx->sp;
    f.limit = own ? cur->stack.limit : port_kernel.stack.limit;
    f.requested = requested;
    k_halt(&f, why);
}

void k_fault(struct k_tcb *t, cactus_fault *f)
{
    f->task = (uint16_t)k_id(t);
    f->action = CACTUS_ON_FAULT_HALT;
    f->limit = t->stack.limit;
    k_halt(f, "fault (variants/fault_halt.c: every fault halts)");
}

void k_exception(uint32_t cause, uint32_t pc, uint32_t tval, int in_kernel)
{
    (void)in_kernel;
    struct k_tcb *cur = k_cur();
    halt(cur ? &cur->ctx : &port_kernel.ctx, CACTUS_FAULT_EXCEPTION, cause, pc, tval, 0,
         "exception");
}

int k_stack_check_failed(struct port_context *ctx, const struct cactus_check_site *site,
                         uint32_t need, int in_kernel, int irq_on)
{
    (void)in_kernel, (void)irq_on;
    halt(ctx, CACTUS_FAULT_STACK_REQUEST, 0, site->site, 0, need, "stack overflow caught");
}

void k_stack_bound_fault(struct port_context *ctx, uint32_t refused, int in_kernel)
{
    (void)in_kernel;
    halt(ctx, CACTUS_FAULT_STACK_REQUEST, 0, ctx->pc, 0, refused < ctx->sp ? ctx->sp - refused : 0,
         "stack overflow caught by the stack bound");
}

int k_stack_frame_return(struct port_context *ctx, int in_kernel)
{
    (void)in_kernel;
    halt(ctx, CACTUS_FAULT_EXCEPTION, MCAUSE_ECALL_M, ctx->pc, 0, 0,
         "stack return trampoline reached with no moved frame");
}
