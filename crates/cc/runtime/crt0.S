/* Start-up code of the bare-metal runtime `cactus cc` links into executables (docs/cc.md,
 * "The runtime"). Same memory map on cactus-sim and QEMU virt (RAM at 0x8000_0000).
 *
 * _start: sets gp, sp (the top of the linker script's stack) and tp (just past the stack's
 * descriptor cactus_rt_main_stack: its limit, __cactus_stack_bottom, is the word at tp-4, the
 * stack-check contract of docs/stack-checks.md), points mtvec at cactus_rt_trap_entry, zeroes
 * .bss, runs the C constructors, calls main(0, 0) and passes its value to exit(), which ends
 * the run through the test finisher (rt.c: _exit). Never returns.
 *
 * cactus_rt_trap_entry: every trap ends the run. It never writes the interrupted stack (a
 * failed check traps with sp possibly below its limit) and does not trust tp or gp: it reads
 * mcause, mepc, mtval, the interrupted sp and tp into a0..a4, moves to the trap stack and its
 * descriptor and calls cactus_rt_trap (rt.c), which reports and exits. */
    .section .text.init, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la sp, __cactus_stack_top
    la tp, cactus_rt_main_stack + 4     /* the limit (__cactus_stack_bottom) is at tp-4 */
    la t0, cactus_rt_trap_entry
    .option push
    .option arch, +zicsr                /* users may link with -march=rv32imac */
    csrw mtvec, t0
    .option pop
    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 1b
2:  call __libc_init_array
    li a0, 0
    li a1, 0
    call main
    call exit
3:  j 3b

    .text
    .p2align 2                          /* mtvec direct mode: 4-byte aligned */
    .globl cactus_rt_trap_entry
cactus_rt_trap_entry:
    .option push
    .option arch, +zicsr
    csrr a0, mcause
    csrr a1, mepc
    csrr a2, mtval
    .option pop
    mv a3, sp
    mv a4, tp
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la sp, __cactus_trap_stack_top
    la tp, cactus_rt_trap_stack + 4
    call cactus_rt_trap                 /* never returns */
4:  j 4b

#include "preempt.S"

/* What tp points just past while the program runs: the main stack's descriptor (its limit
 * __cactus_stack_bottom at tp - 4), and below it the two words of `--preempt-traps` code: the
 * branch counter at tp - 8 (the period; 0 without the pass, then nothing reads it) and the
 * entry's scratch word at tp - 12. */
    .data
    .p2align 2
    .word 0                             /* tp - 12 */
    .word cactus_preempt_period         /* tp - 8 */
    .globl cactus_rt_main_stack
cactus_rt_main_stack:
    .word __cactus_stack_bottom         /* tp - 4 */
