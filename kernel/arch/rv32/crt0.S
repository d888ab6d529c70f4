/* Reset entry: gp, kernel stack and its descriptor in tp, .bss cleared (with CACTUS_ISOLATE
 * every task region's .bss part too), trap vector, with ccs-hw the switch registers (rmcs: and
 * the register pool), then
 * main(). QEMU virt with `-bios none`
 * jumps to 0x80000000, where the linker script places .text.init. */
#include "port.h"
#if CACTUS_SWITCH_RMCS
#include "switch_rmcs.h"
#elif CACTUS_SWITCH_CCS_HW
#include "switch_ccs_hw.h"
#endif

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
2:
#if CACTUS_ISOLATE
    /* An isolated firmware keeps each task region's zero-initialised globals in a NOLOAD part
     * of its own (crates/firmware/src/isolate_link.rs): clear each one from the link script's
     * table cactus_iso_bss (count, then [start, end) pairs). */
    la t2, cactus_iso_bss
    lw t3, 0(t2)
4:  beqz t3, 2f
    lw t0, 4(t2)
    lw t1, 8(t2)
    addi t2, t2, 8
    addi t3, t3, -1
5:  bgeu t0, t1, 4b
    sw zero, 0(t0)
    addi t0, t0, 4
    j 5b
#endif
2:  la t0, port_kstack_bottom       /* the kernel stack's check limit (port.h) */
    la t1, port_kernel
    sw t0, PORT_STACK_DESC(t1)
    la t0, port_vectors + 1         /* vectored: the timer has its own entry (trap.S) */
    csrw mtvec, t0
#if CACTUS_SWITCH_CCS_HW
    CCS_HW_BOOT                     /* the switch registers and the deferral budget */
#endif
#if CACTUS_SWITCH_RMCS
    RMCS_BOOT                       /* the register pool: present, its pages free */
#endif
    call main
    /* main returned: exit with its status through the finisher */
    call port_exit
3:  j 3b
