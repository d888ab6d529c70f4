/* RV32 machine-mode port: context initialisation, trap dispatch and the layout checks that tie
 * the assembly in trap.S to struct port_context. */
#include <stddef.h>
#include "port.h"
#include "bound.h"
#include "window.h"
#if CACTUS_SWITCH_RMCS
#include "switch_rmcs.h"
#endif

_Static_assert(offsetof(struct port_context, ra) == CTX_RA, "CTX_RA");
_Static_assert(offsetof(struct port_context, sp) == CTX_SP, "CTX_SP");
_Static_assert(offsetof(struct port_context, t0) == CTX_X(5), "t0");
_Static_assert(offsetof(struct port_context, s0) == CTX_X(8), "s0");
_Static_assert(offsetof(struct port_context, s1) == CTX_X(9), "s1");
_Static_assert(offsetof(struct port_context, a0) == CTX_A0, "a0");
_Static_assert(offsetof(struct port_context, a1) == CTX_A1, "a1");
_Static_assert(offsetof(struct port_context, a2) == CTX_A2, "a2");
_Static_assert(offsetof(struct port_context, a7) == CTX_X(17), "a7");
_Static_assert(offsetof(struct port_context, s2) == CTX_X(18), "s2");
_Static_assert(offsetof(struct port_context, s11) == CTX_X(27), "s11");
_Static_assert(offsetof(struct port_context, t3) == CTX_X(28), "t3");
_Static_assert(offsetof(struct port_context, t6) == CTX_X(31), "t6");
_Static_assert(offsetof(struct port_context, pc) == CTX_PC, "pc");
_Static_assert(sizeof(struct port_context) == CTX_SIZE, "context size");

struct port_context *volatile port_current;

extern char port_kstack_bottom[], port_kstack_top[];

/* In .sbss, within gp's reach (`la tp, port_kernel + PORT_TP` is one instruction on
 * the switch paths); crt0 sets the limit to port_kstack_bottom after clearing .bss. (An
 * initialised definition would land at the very start of .sdata, gp - 2048, which the linker
 * does not relax to gp-relative addressing.) */
struct port_kernel port_kernel;
_Static_assert(offsetof(struct port_kernel, stack) == PORT_STACK_DESC, "port_kernel layout");

/* Where a task's entry returns (switch.S): jumps to the exit function kept in s1. */
extern const char port_task_return_to[];

/* The preempt-traps period N (an absolute symbol the pass defines, weak; 0 without the pass):
 * every context starts with its branch counter at N. */
extern const char cactus_preempt_period[] __attribute__((weak));
_Static_assert(offsetof(struct port_context, preempt) == CTX_PREEMPT, "CTX_PREEMPT");
_Static_assert(CTX_PREEMPT == PORT_TP - 8, "the branch counter is at tp - 8");

void port_context_init(struct port_context *ctx, void (*entry)(void *), void *arg, uintptr_t sp,
                       void (*exit_fn)(void))
{
    /* A context rewritten while the code it describes is inside a kernel entry (a task
     * restarted by its own fault, by its own kernel call or by a handler that interrupted it)
     * must not be completed by that entry's exit: the exit stores the live s0-s11 (and a
     * kernel call's result) into the context mscratch names, which would overwrite the fresh
     * ones (s1 holds the exit function), and resumes "the same task" without loading them.
     * Every exit that completes a context reads mscratch (trap.S, port_syscall), so it is
     * pointed at the kernel's own context, scratch here: the exit then completes that and
     * resumes port_current through the full restore. */
#if CACTUS_SWITCH_RMCS
    port_rmcs_release(ctx); /* its held register pages, if any (switch_rmcs.h) */
#endif
    struct port_context *entered;
    __asm__ volatile("csrr %0, mscratch" : "=r"(entered));
    if (entered == ctx)
        __asm__ volatile("csrw mscratch, %0" ::"r"(&port_kernel.ctx) : "memory");
    uint32_t *w = (uint32_t *)ctx;
    for (size_t i = 0; i < sizeof(*ctx) / 4; i++)
        w[i] = 0;
    ctx->ra = (uint32_t)(uintptr_t)port_task_return_to;
    ctx->s1 = (uint32_t)(uintptr_t)exit_fn;
    ctx->sp = (uint32_t)sp;
    ctx->a0 = (uint32_t)(uintptr_t)arg;
    ctx->pc = (uint32_t)(uintptr_t)entry;
    ctx->preempt = (uint32_t)(uintptr_t)cactus_preempt_period;
}

int port_in_kernel_stack(uintptr_t sp)
{
    return sp >= (uintptr_t)port_kstack_bottom && sp <= (uintptr_t)port_kstack_top;
}

/* Every trap but the timer interrupt (which tick.S takes through its own vector). An ecall
 * whose mepc is a `cactus_checks` site is a failed stack check, one at port_stack_return a
 * moved frame's return; any other ecall keeps its meaning (an exception: the task's fault
 * policy). A stack-bound exception (bound.h) at a site is a failed check too (`cactus cc
 * --stack-bound`: the site is the sp decrement itself), anywhere else a caught overflow. A
 * stack-window exception (window.h, kernels built with CACTUS_STACK_WINDOW) asks the strategy
 * to grow the running task's stack. */
void port_trap(uint32_t mcause)
{
    /* Whichever task this trap resumes runs with interrupts enabled (trap.S exits with mret and
     * relies on MPIE = 1; a task that faulted with interrupts masked left MPIE = 0), except a
     * task resumed in place after a granted stack request: it keeps its own interrupt state
     * (it may be inside a critical section). */
    uint32_t mstatus;
    __asm__ volatile("csrrs %0, mstatus, %1" : "=r"(mstatus) : "r"(MSTATUS_MPIE));
    struct port_context *ctx; /* where the trap entry saved the registers */
    __asm__ volatile("csrr %0, mscratch" : "=r"(ctx));
    int in_kernel = ctx == &port_kernel.ctx || port_in_kernel_stack(ctx->sp);
    if (mcause == MCAUSE_ECALL_M || mcause == MCAUSE_STACK_BOUND) {
        const struct cactus_check_site *site = cactus_check_site_at(ctx->pc);
        int resumed;
        if (site)
            resumed = k_stack_check_failed(ctx, site, cactus_check_need(site), in_kernel,
                                           (mstatus & MSTATUS_MPIE) != 0) == 0;
        else if (mcause == MCAUSE_ECALL_M &&
                 ctx->pc == (uint32_t)(uintptr_t)port_stack_return)
            resumed = k_stack_frame_return(ctx, in_kernel) == 0;
        else if (mcause == MCAUSE_STACK_BOUND) {
            uint32_t refused;
            __asm__ volatile("csrr %0, mtval" : "=r"(refused));
            k_stack_bound_fault(ctx, refused, in_kernel);
            return;
        } else
            goto exception;
        if (resumed && !(mstatus & MSTATUS_MPIE))
            __asm__ volatile("csrc mstatus, %0" ::"r"(MSTATUS_MPIE));
        return;
    }
    if (CACTUS_STACK_WINDOW && mcause == MCAUSE_STACK_WINDOW) {
        /* An access below the running task's stack window (window.h): the strategy grows the
         * stack and the access is re-executed, or the fault policy applies. */
        uint32_t addr;
        __asm__ volatile("csrr %0, mtval" : "=r"(addr));
        if (k_stack_window_fault(ctx, addr, in_kernel) == 0 && !(mstatus & MSTATUS_MPIE))
            __asm__ volatile("csrc mstatus, %0" ::"r"(MSTATUS_MPIE));
        return;
    }
exception:;
    uint32_t tval;
    __asm__ volatile("csrr %0, mtval" : "=r"(tval));
    k_exception(mcause, ctx->pc, tval, in_kernel);
}
