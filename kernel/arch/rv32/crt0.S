/* Reset entry: gp, kernel stack and its descriptor in tp, .bss cleared, trap vector, then
 * main(). QEMU virt with `-bios none` jumps to 0x80000000, where the linker script places
 * .text.init. */
#include "port.h"

    .section .text.init, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la sp, port_kstack_top
    la tp, port_kernel + PORT_TP /* main() runs on the kernel stack */
    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 1b
2:  la t0, port_kstack_bottom       /* the kernel stack's check limit (port.h) */
    la t1, port_kernel
    sw t0, PORT_STACK_DESC(t1)
    la t0, port_vectors + 1         /* vectored: the timer has its own entry (trap.S) */
    csrw mtvec, t0
    call main
    /* main returned: exit with its status through the finisher */
    call port_exit
3:  j 3b
