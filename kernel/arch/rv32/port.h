/* The whole contract between the portable kernel core and the RV32 machine-mode port.
 *
 * Guarantees: core code needs nothing from kernel/arch/rv32 beyond this header. The context
 * layout below is shared with the assembly (trap.S, switch.S); every offset the assembly uses is
 * a macro defined here and checked against the C struct with _Static_assert in port.c.
 *
 * Execution model: tasks and kernel run in M-mode. `tp` always points just past the running
 * code's stack descriptor (its limit is at tp-4; docs/stack-checks.md), and every descriptor lies right after a context
 * (PORT_STACK_DESC): a task's in its TCB (the core places it there), the kernel's in
 * port_kernel. A trap saves the interrupted registers at tp - PORT_TP (a task's into its
 * TCB) and runs the kernel on the dedicated kernel stack, so a task's stack holds only that
 * task's own frames. Every path that resumes a task sets tp = its context + PORT_TP;
 * every path that runs kernel C code on the kernel stack (trap entry, yield, port_syscall, crt0
 * before the first task) sets tp = &port_kernel.stack + 1. tp is therefore not part of a task's
 * context: it costs one addi per resume and no save or load. mscratch is scratch for the trap
 * entry and port_syscall (the context they must come back to). Code must never change tp. */
#ifndef CACTUS_PORT_H
#define CACTUS_PORT_H

#if !defined(__riscv) || __riscv_xlen != 32
#error "kernel/arch/rv32 supports only RV32 targets"
#endif

/* Context slot offsets (bytes). x1 (ra) and x2 (sp) first, then x5..x31; gp (x3) is a
 * process-wide constant and tp (x4) is derived from the context pointer on every resume (see
 * PORT_STACK_DESC), so neither is part of a task's context. */
#define CTX_RA 0
#define CTX_SP 4
#define CTX_X(n) (((n) - 3) * 4) /* offset of xn for 5 <= n <= 31 */
#define CTX_A0 CTX_X(10)
#define CTX_A1 CTX_X(11)
#define CTX_A2 CTX_X(12)
/* CTX_PC is 0 while the task runs and in a voluntary context (only ra, sp, s0-s11, a0 live):
 * the trap entry stores mepc there, context initialisation the entry point, and every full
 * resume clears it again, so voluntary entries (yield, kernel calls) need not store it. */
#define CTX_PC 116
/* The branch counter of the preempt-traps pass (docs/sensmart.md "Preemption by counted
 * branches"): the word at tp - 8, which code built with `cactus cc --preempt-traps=N`
 * decrements at every backward branch; at zero it calls port_preempt_<reg> (preempt.S). Every
 * context starts with it at N (cactus_preempt_period; 0 without the pass: then nothing reads
 * it). While port_preempt_<reg> runs it briefly holds the task's resume address. */
#define CTX_PREEMPT 120
#define CTX_SIZE 124
/* Offset of a stack descriptor from its context. The core's TCB must place the task's
 * descriptor there (core/k.h checks), as struct port_kernel does. */
#define PORT_STACK_DESC CTX_SIZE
/* tp points just past the descriptor's limit word (docs/stack-checks.md: the limit is at tp-4,
 * and tp itself is where thread-local storage would begin): resuming context c sets
 * tp = c + PORT_TP (one addi), and a trap saves registers at tp - PORT_TP. */
#define PORT_TP (PORT_STACK_DESC + 4)

#define MCAUSE_ECALL_M 11

/* The timer interrupt's fast path (tick.S) works on core state named here, the whole contract
 * (core/k.h and core/time.c check every offset): the running task's ready-list node lies at its
 * context + PORT_LINK (its first word is the next node of its priority level, so the node
 * pointing at itself means the task is alone at its level), a timer node's deadline at
 * PORT_TIMER_DEADLINE, and the core defines the words k_tick (ticks so far), k_tick_period
 * (mtime units per tick), k_next_tick_lo / k_next_tick_hi (the mtime of the next tick),
 * k_timers (its first word: the earliest timer node, or 0), k_slice_used and k_slice_ticks
 * (the round-robin slice), all in gp's reach. */
#define PORT_LINK 128
#define PORT_TIMER_DEADLINE 4
/* The yield's assembly path (yield.S) also reads the running task's priority, a byte at its
 * context + PORT_PRIO (the rmcs switch picks the least critical holder of a register page by
 * it too: switch_rmcs.h), and rotates its level: the word at k_ready + PORT_READY_HEAD + 4 * prio
 * is that level's head (core/k.h checks both). */
#define PORT_PRIO 156
#define PORT_READY_HEAD 8
/* The trace device's registers and event the yield's assembly path writes in a simulation
 * build (the task-switch event of cactus/trace.h; trace/trace_sim.c checks them). */
#define PORT_TRACE_BASE 0x0E000000
#define PORT_TRACE_ARG0 0x10
#define PORT_TRACE_EVENT 0x20
#define PORT_TRACE_EV_TASK_SWITCH 2
/* The stack-window displacement of a task (the `relocate` strategy's hardware variant,
 * window.h): a word at this offset of its context, present only in kernels built with
 * CACTUS_STACK_WINDOW (core/k.h places it). */
#define PORT_STACK_DISP 160

/* The frame the SRP mode pushes to start a job from a trap (see port_srp_preempt below). */
#define PORT_SRP_FRAME 80
#define MSTATUS_MIE 0x8
#define MSTATUS_MPIE 0x80
#define MSTATUS_MPP_M 0x1800

#include "plic.h"

#ifndef __ASSEMBLER__
#include <stdint.h>
#include "cactus/stackcheck.h"

/* A task's saved registers. `pc` == 0 marks a voluntary context saved by a kernel call: then
 * only ra, sp, s0-s11 and a0 (the call's result) are restored, and the task resumes at ra.
 * A non-zero `pc` is a full context (trap or a freshly initialised task): every register is
 * restored and the task resumes at pc with interrupts enabled (and `pc` is reset to 0). */
struct port_context {
    uint32_t ra, sp;
    uint32_t t0, t1, t2, s0, s1, a0, a1, a2, a3, a4, a5, a6, a7;
    uint32_t s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, t3, t4, t5, t6;
    uint32_t pc;
    uint32_t preempt; /* the branch counter at tp - 8 (CTX_PREEMPT) */
};

/* The running task's context; the core switches tasks by storing the next one here (with
 * interrupts masked); the port's exit paths resume it. */
extern struct port_context *volatile port_current;

/* Prepares `ctx` so that resuming it calls entry(arg) on a stack whose top is `sp`; if entry
 * returns, it reaches `exit_fn` through port_task_return_to (switch.S: the outermost frame a
 * debugger's backtrace of the task ends at). When `ctx` is the context the running kernel
 * entry will complete at its exit (mscratch: the task restarted is the one whose trap or
 * kernel call this is), mscratch is pointed at port_kernel.ctx, so the exit completes that
 * instead and resumes the fresh context in full. */
void port_context_init(struct port_context *ctx, void (*entry)(void *), void *arg, uintptr_t sp,
                       void (*exit_fn)(void));

/* Calls fn(a0, a1, a2, a3) on the kernel stack with interrupts masked, on behalf of the running
 * task; if fn changed port_current, the caller is suspended (its result stored in its context)
 * and the new task resumed. Returns fn's result when the caller resumes. */
uintptr_t port_syscall(uintptr_t a0, uintptr_t a1, uintptr_t a2, uintptr_t a3,
                       uintptr_t (*fn)(uintptr_t, uintptr_t, uintptr_t, uintptr_t));

/* The context of the task whose kernel call is running, from kernel C code that port_syscall
 * called for a task (not from a trap or a handler's call): port_syscall keeps it in mscratch
 * for its exit, and it equals port_current until the call switches tasks (or restarts its
 * caller: port_context_init). One CSR read instead of a load of port_current. */
static inline struct port_context *port_syscall_caller(void)
{
    struct port_context *c;
    __asm__ volatile("csrr %0, mscratch" : "=r"(c));
    return c;
}

/* Resumes port_current for the first time; never returns. Interrupts masked on entry. */
void port_start(void) __attribute__((noreturn));

/* Interrupt masking for kernel critical sections and the public cactus_irq_save(). */
static inline uint32_t port_irq_save(void)
{
    uint32_t old;
    __asm__ volatile("csrrci %0, mstatus, 8" : "=r"(old)::"memory");
    return old & MSTATUS_MIE;
}
static inline void port_irq_restore(uint32_t state)
{
    if (state)
        __asm__ volatile("csrsi mstatus, 8" ::: "memory");
}

/* Machine timer (CLINT mtime, 10 MHz on QEMU virt). */
#define PORT_TIMER_HZ 10000000u
uint64_t port_time(void);
void port_timer_set(uint64_t deadline);
/* Rewrites only the low word of the compare value (one device store): for a caller that knows
 * the high word stays the same. */
void port_timer_set_low(uint32_t low);
void port_timer_enable(void);
/* Waits (interrupts masked) until an enabled interrupt is pending. */
static inline void port_wait_for_interrupt(void)
{
    __asm__ volatile("wfi" ::: "memory");
}

/* Board: console byte output and system exit through the test finisher. */
void port_putc(char c);
void port_exit(uint32_t code) __attribute__((noreturn));

/* True when `sp` lies inside the kernel stack. */
int port_in_kernel_stack(uintptr_t sp);

/* Kernel code's context and stack descriptor, laid out like a TCB's first two members.
 * tp = &port_kernel.stack + 1 while kernel code runs on port_kstack; its limit (set by crt0) is the
 * kernel stack's bottom. No margin is needed: a failed check traps before its frame is
 * written, and the trap entry writes only port_kernel.ctx before it resets sp to the kernel
 * stack's top. A trap taken from kernel code (always a kernel panic) saves its registers in
 * port_kernel.ctx: no task's context is overwritten. */
struct port_kernel {
    struct port_context ctx;
    struct cactus_stack_desc stack;
#if CACTUS_STACK_WINDOW
    /* Where a TCB keeps its stack displacement (PORT_STACK_DISP): 0, so code built with the
     * logical-stack pass (window_sw.h) converts the kernel stack's addresses to themselves. */
    uint32_t gap[(PORT_STACK_DISP - PORT_TP) / 4];
    uint32_t stack_disp;
#endif
};
extern struct port_kernel port_kernel;
/* True while kernel code runs (a trap or an interrupt handler): tp is the kernel's descriptor. */
static inline int port_in_kernel_code(void)
{
    uintptr_t tp;
    __asm__ volatile("mv %0, tp" : "=r"(tp));
    return tp == (uintptr_t)(&port_kernel.stack + 1);
}
/* The SRP mode (core/srp.c, arch/rv32/srp.S). A trap that must start a job on the interrupted
 * task's stack pushes a PORT_SRP_FRAME-byte frame onto the shared stack (ra, t0-t2, a0-a7,
 * t3-t6, the interrupted pc and the interrupted sp, in that order, one word each) and resumes
 * the task at port_srp_preempt with sp = the frame, which calls k_srp_preempted() (it runs the
 * jobs; returns with interrupts masked) and then restores the interrupted code from the frame,
 * sp last (s0-s11 were never touched: C preserves them).
 * The frame's size is PORT_SRP_FRAME (above). */
extern const char port_srp_preempt[];
void k_srp_preempted(void);

/* Called by the trap entry with mcause for every trap but the timer interrupt (tick.S): the
 * port decodes it and calls the core's k_stack_check_failed() (an ecall at a `cactus_checks` site) or
 * k_exception(). A trap was taken from kernel code when the entry saved the registers in
 * port_kernel.ctx (the interrupted tp was the kernel's descriptor) or the saved sp lies in the
 * kernel stack. */
void port_trap(uint32_t mcause);

/* Core entry points the port calls. `in_kernel`: the trap interrupted kernel code. */
/* The timer interrupt, after the port's fast path (tick.S) counted the tick in k_tick and
 * programmed the next one. k_tick_due: the earliest deadline is due at k_tick; it expires the
 * due deadlines, counts the slice and runs the highest ready task. k_tick_slice_end: no
 * deadline is due, and the running task, which shares its level, has used up its slice: the
 * level rotates and its next task runs. */
void k_tick_due(void);
void k_tick_slice_end(void);
/* The kernel entry of the preempt-traps pass (core/preempt.c), called by port_preempt_<reg>
 * (preempt.S) as the general trap entry calls port_trap: the running task's registers are in
 * its context, whose pc is where it resumes; interrupts masked, on the kernel stack. */
void k_preempt_trap(void);
/* A software (mcause 3) or external (11) interrupt taken from a task (port_irq_entry, irq.S):
 * the interrupted registers but s0-s11 are in its context, this runs on the kernel stack with
 * interrupts masked and runs the handlers (it may return with interrupts enabled: the software
 * handler is its tail call); then k_irq_exit_to_task ends the level (interrupts masked again,
 * the one reschedule) and the exit resumes port_current. */
void k_irq_from_task(uint32_t mcause);
void k_irq_exit_to_task(void);
/* The direct handlers' exit (irq_direct.S) when a task must run: the interrupted task's
 * registers but s0-s11 are in its context; the one reschedule of the interrupt. */
void k_irq_direct_exit(void);
/* The same interrupt taken while a handler ran (nesting): the handler's registers are on the
 * kernel stack; no task switch happens here (the outermost exit does it). */
void k_irq_dispatch(uint32_t mcause);
void k_exception(uint32_t cause, uint32_t pc, uint32_t tval, int in_kernel);
/* A stack check failed at `site` (its table entry): the interrupted code, whose registers the
 * trap entry saved in `ctx`, needs `need` bytes below its saved sp; `irq_on`: it ran with
 * interrupts enabled. From a task (ctx is port_current): the strategy makes room, then the task
 * resumes in place at site->resume (returns 0); or it does not resume here (returns -1): it
 * waits for stack memory (the strategy answered STACK_RETRY and irq_on) and retries the check
 * when memory is released, or its fault policy applies. From kernel code: a kernel panic report
 * (never returns). */
int k_stack_check_failed(struct port_context *ctx, const struct cactus_check_site *site,
                         uint32_t need, int in_kernel, int irq_on);
/* The hardware stack bound (arch/rv32/bound.h) refused the write of `refused` into sp at
 * ctx->pc, which is no `cactus_checks` site: an overflow caught before anything below the limit
 * was written. From a task: its fault policy applies. From kernel code: a kernel panic report
 * (never returns). */
void k_stack_bound_fault(struct port_context *ctx, uint32_t refused, int in_kernel);
/* The stack window (window.h) refused the access at logical address `addr` by the code whose
 * registers are in ctx (nothing was read or written). From a task: 0 when the strategy grew
 * its stack (it re-executes the access at ctx->pc), -1 when its fault policy applied. From
 * kernel code: a kernel panic report (never returns). */
int k_stack_window_fault(struct port_context *ctx, uint32_t addr, int in_kernel);
/* The return trampoline: a stack strategy that runs a frame elsewhere (mtss) sets that frame's
 * return address here. It is one `ecall` (arch/rv32/stack_return.S) that preserves every
 * register; port_exception recognises its address and calls k_stack_frame_return(). */
extern const char port_stack_return[];
/* The task whose registers are in ctx reached port_stack_return: 0 = resume it in place at its
 * context's pc (the strategy restored the caller's state), -1 = its fault policy applied; from
 * kernel code a kernel panic (never returns). */
int k_stack_frame_return(struct port_context *ctx, int in_kernel);
/* The call slow path (arch/rv32/split.S, docs/stack-checks.md "The call slow path"). */
/* A `split` stub's entry: t0 = the failed site's table entry (a jump, not a call). */
extern const char port_split_request[];
/* The return address of every frame a stack strategy moved (frame_move.h); the second for a
 * frame whose stack arguments were copied (the same code; its call frame information ends a
 * backtrace there, since the record is above the arguments). */
extern const char port_split_return[];
extern const char port_split_return_args_entry[];
/* The running task's check at `site` failed; its ra, sp, t1-t6 and a0-a7 are in its context.
 * Runs on the kernel stack with interrupts masked. Returns where the task resumes: the site's
 * continuation when the strategy made room (it may have rewritten the context's sp and ra),
 * else the site's ecall (the trap path then applies the fault policy). */
uint32_t k_split_request(const struct cactus_check_site *site);
/* The running task reached port_split_return with its sp, a0 and a1 in its context. Returns
 * where it resumes: its moved frame's real return address (the strategy restored the caller's
 * sp, ra and limit in the context), else port_stack_return (the trap path's fault policy). */
uint32_t k_split_return(void);
#endif

#endif /* CACTUS_PORT_H */
