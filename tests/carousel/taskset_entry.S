/* The timer interrupt entry of the task-set experiment (taskset.c): the handler runs on the
 * executive's stack in the OS scratchpad, never on the interrupted job's stack, so a job's
 * Carousel invocation never finds its own frames in a block it swapped out (which would make
 * its cost depend on what it preempted). The frame goes at ts_os_sp (the executive's stack
 * below whatever is live on it: dispatch moves ts_os_sp down before it runs a job, so a nested
 * interrupt lands below the frames of the dispatch it interrupts); the interrupted sp is saved
 * in the frame and restored before mret. */
    .section .text.ts_timer_entry, "ax"
    .globl ts_timer_entry
    .type ts_timer_entry, @function
    .balign 4
ts_timer_entry:
    csrw mscratch, t0
    la t0, ts_os_sp
    lw t0, 0(t0)
    addi t0, t0, -80
    sw sp, 0(t0)
    mv sp, t0
    csrr t0, mscratch
    sw ra, 4(sp)
    sw t0, 8(sp)
    sw t1, 12(sp)
    sw t2, 16(sp)
    sw a0, 20(sp)
    sw a1, 24(sp)
    sw a2, 28(sp)
    sw a3, 32(sp)
    sw a4, 36(sp)
    sw a5, 40(sp)
    sw a6, 44(sp)
    sw a7, 48(sp)
    sw t3, 52(sp)
    sw t4, 56(sp)
    sw t5, 60(sp)
    sw t6, 64(sp)
    call ts_timer_isr
    lw ra, 4(sp)
    lw t0, 8(sp)
    lw t1, 12(sp)
    lw t2, 16(sp)
    lw a0, 20(sp)
    lw a1, 24(sp)
    lw a2, 28(sp)
    lw a3, 32(sp)
    lw a4, 36(sp)
    lw a5, 40(sp)
    lw a6, 44(sp)
    lw a7, 48(sp)
    lw t3, 52(sp)
    lw t4, 56(sp)
    lw t5, 60(sp)
    lw t6, 64(sp)
    lw sp, 0(sp)
    mret
    .size ts_timer_entry, . - ts_timer_entry
