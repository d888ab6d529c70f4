/* Device and software interrupts (vectors 3 and 11 of port_vectors), for RV32 M-mode.
 *
 * Handlers run on the kernel stack (tp = the kernel's descriptor), never on a task stack, so
 * no task's stack carries an interrupt frame. Two ways in:
 * - From a task (tp = the task's descriptor): like the general entry (trap.S), the registers C
 *   may clobber go into the task's context and the context pointer into mscratch; the core
 *   dispatches (k_irq_from_task) and the general exit resumes port_current, switching tasks at
 *   most once however many kernel calls the handlers made.
 * - From a handler (a higher-priority source nests; tp = the kernel's descriptor): the
 *   handler's registers, mepc included, are pushed on the kernel stack, the core dispatches
 *   (k_irq_dispatch) and the handler resumes. mscratch still names the outermost task's
 *   context: it is not touched.
 * Both first park t6 and t0 in the slots of whatever context tp names: a task's own, or
 * port_kernel.ctx, which nothing else uses while a handler runs (a trap from kernel code is a
 * panic; interrupts are masked in every other kernel path). */
#include "port.h"
#include "bound.h"
#include "entry.h"

#define SAVE(r, n) sw r, CTX_X(n)(t6)
#define NESTED_FRAME 80

    .section .text.port, "ax"

    .globl port_irq_entry
port_irq_entry:
    CFI_TRAP_START
    sw t6, CTX_X(31) - PORT_TP(tp)
    addi t6, tp, -PORT_TP           /* t6 = the interrupted code's context */
    SAVE(t0, 5)
    la t0, port_kernel
    beq t6, t0, port_irq_nested
    .cfi_remember_state
    SAVE(t1, 6)
    SAVE_C_CLOBBERED t6
    csrw mscratch, t6               /* kept for the exit: C clobbers t6 */
    csrr t5, mepc
    sw t5, CTX_PC(t6)
    CFI_TRAPPED_FROM_CONTEXT
    ENTER_KERNEL_STACK t5
    csrr a0, mcause
    call k_irq_from_task            /* the software handler returns here itself */
    call k_irq_exit_to_task
    /* A nested interrupt's mret left mstatus.MPP = U (mret lowers MPP to the least privileged
     * mode): the general exit relies on MPP = M (and MPIE = 1, which every mret leaves). */
    li t0, MSTATUS_MPP_M
    csrs mstatus, t0
    j port_trap_exit
    .cfi_restore_state

/* A handler was interrupted: t6 = &port_kernel.ctx holding its t6 and t0. Its frame on the
 * kernel stack holds its ra and pc (mepc). */
port_irq_nested:
    addi sp, sp, -NESTED_FRAME
    .cfi_adjust_cfa_offset NESTED_FRAME
    sw ra, 0(sp)
    .cfi_rel_offset ra, 0
    sw t1, 4(sp)
    sw t2, 8(sp)
    sw a0, 12(sp)
    sw a1, 16(sp)
    sw a2, 20(sp)
    sw a3, 24(sp)
    sw a4, 28(sp)
    sw a5, 32(sp)
    sw a6, 36(sp)
    sw a7, 40(sp)
    sw t3, 44(sp)
    sw t4, 48(sp)
    sw t5, 52(sp)
    lw t0, CTX_X(5)(t6)
    sw t0, 56(sp)
    lw t0, CTX_X(31)(t6)
    sw t0, 60(sp)
    csrr t0, mepc
    sw t0, 64(sp)
    .cfi_rel_offset 4929, 64
    csrr a0, mcause
    call k_irq_dispatch             /* returns with interrupts masked */
    lw t0, 64(sp)
    csrw mepc, t0
    li t0, MSTATUS_MPP_M | MSTATUS_MPIE /* the handler ran with interrupts enabled */
    csrs mstatus, t0
    lw ra, 0(sp)
    lw t1, 4(sp)
    lw t2, 8(sp)
    lw a0, 12(sp)
    lw a1, 16(sp)
    lw a2, 20(sp)
    lw a3, 24(sp)
    lw a4, 28(sp)
    lw a5, 32(sp)
    lw a6, 36(sp)
    lw a7, 40(sp)
    lw t3, 44(sp)
    lw t4, 48(sp)
    lw t5, 52(sp)
    lw t0, 56(sp)
    lw t6, 60(sp)
    addi sp, sp, NESTED_FRAME
    mret
    .cfi_endproc

/* A kernel call from an interrupt handler (tp = the kernel's descriptor, on the kernel stack,
 * t0 = mstatus before masking, t1 = tp): fn runs right here, with interrupts masked, and never
 * switches tasks: a task it makes ready waits for the outermost interrupt exit (core/irq.c;
 * k_isr_call, set around every handler by the dispatch, tells the core). ra and the interrupt
 * state are kept in port_kernel.ctx, which nothing else uses while interrupts are masked in a
 * handler. */
    .globl port_syscall_isr
port_syscall_isr:
    sw ra, CTX_RA - PORT_TP(tp)     /* tp = t1: the kernel's descriptor (C never changes tp) */
    sw t0, CTX_PC - PORT_TP(tp)
    /* sp swapped with mscratch and back (both unchanged; interrupts are masked): the caller is
     * on the kernel stack already; for the static stack analysis an sp that comes from a CSR
     * is this path's switch, so no task's bound includes fn (no task reaches this path: tasks
     * run with their own descriptor). Two CSR accesses, cheaper than a store and a load. */
    csrrw sp, mscratch, sp
    csrrw sp, mscratch, sp
    jalr a4
    lw ra, CTX_RA - PORT_TP(tp)
    lw t0, CTX_PC - PORT_TP(tp)
    andi t0, t0, MSTATUS_MIE
    csrs mstatus, t0
    ret

/* ---- void port_irq_route(uint32_t source, uint32_t priority) (plic.h) ----------------------
 * Kept in this file so that attaching a handler links the entry above, which replaces the weak
 * default of vectors 3 and 11 (trap.S: a fault of the interrupted code). */
    .globl port_irq_route
port_irq_route:
    bnez a0, 1f
    li t0, MIE_MSIE
    csrs mie, t0
    ret
1:  li t0, PORT_PLIC_BASE
    slli t1, a0, 2
    add t1, t1, t0
    sw a1, 0(t1)                    /* priority[source] */
    srli t1, a0, 5
    slli t1, t1, 2
    li t2, PORT_PLIC_ENABLE
    add t1, t1, t2
    lw t2, 0(t1)
    li t0, 1
    sll t0, t0, a0                  /* bit source % 32 */
    or t2, t2, t0
    sw t2, 0(t1)                    /* enable[source / 32] */
    li t0, MIE_MEIE
    csrs mie, t0
    ret

/* ---- Stack depths for the static stack analysis (docs/stack-analysis.md) ------------------
 * From a task the entry stores into the task's context and switches to the kernel stack
 * before it calls anything; the nested entry runs on the kernel stack already. */
    .pushsection .cactus.stack_depth, "", @progbits
    .asciz "port_irq_entry 0"
    .asciz "port_syscall_isr 0"
    .popsection
