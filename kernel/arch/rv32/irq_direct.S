/* Direct handlers (docs/interrupts.md, "Direct handlers"): the machine software interrupt's
 * handler entered from its own vector slot with no generic dispatch and no register save,
 * for RV32 M-mode.
 *
 * A direct handler is a C function compiled as an interrupt function
 * (CACTUS_DIRECT_ISR_SOFTWARE in cactus.h: GCC's `interrupt("machine")` attribute), so it
 * saves every register it writes in its own prologue and ends with mret. This entry only
 * moves onto the kernel's interrupt stack and points the handler's mret at the exit below:
 * - the task's sp goes into its context and mscratch names that context (the exit's, and
 *   port_context_init's note of the context this entry completes);
 * - mepc (the task's pc) goes into the context's pc slot and mepc becomes the exit;
 * - msip is cleared first (a raise while the handler runs is taken again afterwards);
 * - MPIE is cleared: the handler runs with interrupts masked and its mret leaves them masked
 *   (a nested interrupt's mret would lower mstatus.MPP, and the handler's own mret would then
 *   drop to user mode, so nothing nests into a direct handler);
 * - k_isr_call says a handler runs (the software source's), so the handler's kernel calls
 *   defer a wake-up to the exit and refuse to block;
 * - tp and sp are the kernel's, and the handler is jumped to (bound at link time: no table).
 * sp is the entry's and exit's scratch register (a kernel with cactus-sim's stack bound,
 * bound.h, disarms the bound first and sets it again before sp is a stack pointer).
 * The exit (the handler's mret lands there, interrupts masked, every register but sp and tp
 * the task's) resumes the task with two loads when no task was made ready that outranks it;
 * otherwise it completes the task's context as the general entry does and leaves through the
 * general exit, which switches once. */
#include "port.h"
#include "bound.h"
#include "entry.h"

#define SAVE(r, n) sw r, CTX_X(n)(t6)

    .section .text.port_direct, "ax"

    .globl port_swi_direct_entry
port_swi_direct_entry:
    CFI_TRAP_START
    STACK_BOUND_OFF                 /* sp is scratch below (a kernel with the stack bound) */
    sw sp, CTX_SP - PORT_TP(tp)     /* the task's sp into its context */
    addi sp, tp, -PORT_TP
    csrw mscratch, sp               /* the context this entry completes */
    la sp, port_swi_direct_exit
    csrrw sp, mepc, sp              /* the handler's mret comes to the exit */
    sw sp, CTX_PC - PORT_TP(tp)     /* the task's pc */
    lui sp, %hi(PORT_CLINT_MSIP)
    sw zero, %lo(PORT_CLINT_MSIP)(sp) /* first: a raise while the handler runs is taken again */
    li sp, MSTATUS_MPIE
    csrc mstatus, sp                /* the handler's mret leaves interrupts masked */
    li sp, 1                        /* k_isr_call = the software source (0) + 1 */
    sw sp, k_isr_call, tp           /* a handler runs (gp-relative after relaxation) */
    la tp, port_kernel + PORT_TP
    STACK_BOUND_FROM sp, -4, tp
    la sp, port_kstack_top
    j cactus_direct_isr_software
    .cfi_endproc

/* The handler's mret: interrupts masked, MPIE = 1, MPP lowered; sp and tp are the kernel's,
 * every other register the interrupted task's. */
    .globl port_swi_direct_exit
port_swi_direct_exit:
    CFI_TRAP_START
    STACK_BOUND_OFF                 /* sp is scratch below; each way out sets the bound again */
    sw zero, k_isr_call, tp
    lw sp, k_isr_resched
    bnez sp, 1f                     /* a task to switch to */
    lw tp, port_current
    csrr sp, mscratch
    bne tp, sp, 1f                  /* the handler restarted the task: the general exit */
    lw sp, CTX_PC(tp)
    csrw mepc, sp
    sw zero, CTX_PC(tp)             /* running again: see CTX_PC in port.h */
    li sp, MSTATUS_MPP_M | MSTATUS_MPIE
    csrs mstatus, sp
    STACK_BOUND_FROM sp, PORT_TP - 4, tp
    lw sp, CTX_SP(tp)
    addi tp, tp, PORT_TP
    mret
    /* Complete the interrupted context (mscratch) as the general entry does (its sp and pc
     * are stored already), run the one reschedule, leave through the general exit. */
1:  csrr sp, mscratch
    sw t6, CTX_X(31)(sp)
    mv t6, sp
    SAVE(t0, 5)
    SAVE(t1, 6)
    SAVE_C_CLOBBERED_BUT_SP t6
    CFI_TRAPPED_FROM_CONTEXT
    ENTER_KERNEL_STACK t5
    call k_irq_direct_exit
    li t0, MSTATUS_MPP_M | MSTATUS_MPIE
    csrs mstatus, t0
    j port_trap_exit
    .cfi_endproc

/* ---- void port_direct_isr_call(uint32_t source): the direct handler from C -----------------
 * The idle loop (core/irq.c) runs a pending software interrupt's handler as a call: interrupts
 * masked (the handler's mret keeps them masked), mepc pointing back here, MPP = M. The handler
 * preserves every register, so this clobbers only t0. On the kernel stack. */
    .globl port_direct_isr_call
port_direct_isr_call:
    csrci mstatus, MSTATUS_MIE
    addi sp, sp, -16
    sw ra, 12(sp)
    csrr t0, mepc
    sw t0, 8(sp)
    la t0, 1f
    csrw mepc, t0
    li t0, MSTATUS_MPIE
    csrc mstatus, t0
    li t0, MSTATUS_MPP_M
    csrs mstatus, t0
    j cactus_direct_isr_software
1:  lw t0, 8(sp)
    csrw mepc, t0
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

/* ---- void port_irq_direct_route(void) (port.h) ---------------------------------------------
 * Switches mtvec to the vector table below, whose software slot is the direct entry, and
 * enables the software interrupt. */
    .globl port_irq_direct_route
port_irq_direct_route:
    la t0, port_vectors_direct + 1
    csrw mtvec, t0
    li t0, MIE_MSIE
    csrs mie, t0
    ret

/* port_vectors (trap.S) with the software slot sending to the direct entry. */
    .balign 64
port_vectors_direct:
    PORT_VECTOR_TABLE port_swi_direct_entry

/* ---- Stack depths for the static stack analysis (docs/stack-analysis.md) ------------------ */
    .pushsection .cactus.stack_depth, "", @progbits
    .asciz "port_swi_direct_entry 0"
    .asciz "port_swi_direct_exit 0"
    .popsection
