/* The whole contract between the portable kernel core and the RV32 machine-mode port.
 *
 * Guarantees: core code needs nothing from kernel/arch/rv32 beyond this header. The context
 * layout below is shared with the assembly (trap.S, switch.S); every offset the assembly uses is
 * a macro defined here and checked against the C struct with _Static_assert in port.c.
 *
 * Execution model: tasks and kernel run in M-mode. mscratch always holds the running task's
 * context pointer (== its TCB pointer, the context is the TCB's first member). Traps swap it with
 * t6 (`csrrw t6, mscratch, t6`), save every register into the TCB and run the kernel on the
 * dedicated kernel stack, so a task's stack holds only that task's own frames. */
#ifndef CACTUS_PORT_H
#define CACTUS_PORT_H

#if !defined(__riscv) || __riscv_xlen != 32
#error "kernel/arch/rv32 supports only RV32 targets"
#endif

/* Context slot offsets (bytes). x1 (ra) and x2 (sp) first, then x5..x31; gp (x3) and tp (x4)
 * are process-wide constants and are not part of a task's context. */
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
#define CTX_SIZE 120

#define MSTATUS_MIE 0x8
#define MSTATUS_MPIE 0x80
#define MSTATUS_MPP_M 0x1800

#ifndef __ASSEMBLER__
#include <stdint.h>

/* A task's saved registers. `pc` == 0 marks a voluntary context saved by a kernel call: then
 * only ra, sp, s0-s11 and a0 (the call's result) are restored, and the task resumes at ra.
 * A non-zero `pc` is a full context (trap or a freshly initialised task): every register is
 * restored and the task resumes at pc with interrupts enabled (and `pc` is reset to 0). */
struct port_context {
    uint32_t ra, sp;
    uint32_t t0, t1, t2, s0, s1, a0, a1, a2, a3, a4, a5, a6, a7;
    uint32_t s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, t3, t4, t5, t6;
    uint32_t pc;
};

/* The running task's context; the core switches tasks by storing the next one here (with
 * interrupts masked); the port's exit path loads it into mscratch and resumes it. */
extern struct port_context *volatile port_current;

/* Prepares `ctx` so that resuming it calls entry(arg) on a stack whose top is `sp`, with ra
 * pointing at `exit_fn` (reached if entry returns). */
void port_context_init(struct port_context *ctx, void (*entry)(void *), void *arg, uintptr_t sp,
                       void (*exit_fn)(void));

/* Calls fn(a0, a1, a2, a3) on the kernel stack with interrupts masked, on behalf of the running
 * task; if fn changed port_current, the caller is suspended (its result stored in its context)
 * and the new task resumed. Returns fn's result when the caller resumes. */
uintptr_t port_syscall(uintptr_t a0, uintptr_t a1, uintptr_t a2, uintptr_t a3,
                       uintptr_t (*fn)(uintptr_t, uintptr_t, uintptr_t, uintptr_t));

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

/* True when `sp` lies inside the kernel stack (a trap taken while kernel code ran). */
int port_in_kernel_stack(uintptr_t sp);

/* Called by the trap entry with mcause: the port decodes it and calls the core's
 * k_tick_interrupt() or k_exception(). */
void port_trap(uint32_t mcause);

/* Core entry points the port calls. */
void k_tick_interrupt(void);
void k_exception(uint32_t cause, uint32_t pc, uint32_t tval);
#endif

#endif /* CACTUS_PORT_H */
