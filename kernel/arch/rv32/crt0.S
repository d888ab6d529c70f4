/* Reset entry: gp, kernel stack, .bss cleared, trap vector, then main(). QEMU virt with
 * `-bios none` jumps to 0x80000000, where the linker script places .text.init. */
    .section .text.init, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la sp, port_kstack_top
    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 1b
2:  la t0, port_trap_entry
    csrw mtvec, t0
    csrw mscratch, zero
    call main
    /* main returned: exit with its status through the finisher */
    call port_exit
3:  j 3b
