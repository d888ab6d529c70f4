/* The SRP mode's preemption trampoline (core/srp.c), for RV32 M-mode.
 *
 * A trap that released a job above the system ceiling while a job (or the dispatcher) ran
 * pushed the interrupted registers onto the shared stack (PORT_SRP_FRAME bytes: ra, t0-t2,
 * a0-a7, t3-t6, pc and the interrupted sp; port.h): below the interrupted sp, or, when the
 * interrupted job ran off the shared stack (Carousel), below cactus_srp_spill; and resumed
 * the task here with interrupts enabled: sp = the frame, tp = the task's descriptor, s0-s11
 * still the interrupted code's. The released jobs run nested,
 * on this stack, inside k_srp_preempted (which returns with interrupts masked); then every
 * register comes back from the frame and mret resumes the interrupted code with interrupts
 * enabled (MPIE), as if the trap had just returned. Linked only into SRP firmware. */
#include "port.h"

    .section .text.port_srp, "ax"
    .globl port_srp_preempt
    .type port_srp_preempt, @function
port_srp_preempt:
    call k_srp_preempted
    lw t0, 64(sp)                   /* the interrupted pc */
    csrw mepc, t0
    li t0, MSTATUS_MPP_M | MSTATUS_MPIE
    csrs mstatus, t0
    lw ra, 0(sp)
    lw t0, 4(sp)
    lw t1, 8(sp)
    lw t2, 12(sp)
    lw a0, 16(sp)
    lw a1, 20(sp)
    lw a2, 24(sp)
    lw a3, 28(sp)
    lw a4, 32(sp)
    lw a5, 36(sp)
    lw a6, 40(sp)
    lw a7, 44(sp)
    lw t3, 48(sp)
    lw t4, 52(sp)
    lw t5, 56(sp)
    lw t6, 60(sp)
    lw sp, 68(sp)                   /* the interrupted sp: the frame's end, or a job's stack */
    mret
    .size port_srp_preempt, . - port_srp_preempt

