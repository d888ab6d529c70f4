/* crt0.S: reset entry for bare-metal workload runners. Sets gp, sp and tp (the stack-check
 * descriptor of the boot stack, bm_boot_stack: limit __boot_stack_bottom; docs/stack-checks.md),
 * clears .bss, installs bm_trap_entry, calls main(), and reports main's return value through the
 * QEMU virt test finisher (0 -> 0x5555 pass, n -> (n << 16) | 0x3333 fail). Never returns.
 *
 * Workloads never trap on purpose, so every trap ends the run: bm_trap_entry moves to the trap
 * stack (the interrupted stack is never written: a failed stack check traps with sp possibly far
 * below its limit) and calls bm_trap(mcause, mepc, sp, tp) (bm_io.c), which reports a failed
 * check ("stack overflow caught: ...", exit 101) or any other trap (exit 100). */
    .section .text.init, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la sp, __boot_stack_top
    la tp, bm_boot_stack + 4        /* limit (= __boot_stack_bottom) is the word at tp-4 */
    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 1b
2:  la t0, bm_trap_entry
    .option push
    .option arch, +zicsr            /* runners are linked (and assembled) with -march=rv32imac */
    csrw mtvec, t0
    .option pop
    call main
    call bm_exit
3:  j 3b

    .text
    .p2align 2
    .globl bm_trap_entry
bm_trap_entry:
    .option push
    .option arch, +zicsr
    csrr a0, mcause
    csrr a1, mepc
    .option pop
    mv a2, sp
    mv a3, tp
    la sp, __trap_stack_top
    la tp, bm_trap_stack + 4        /* the limit is the word at tp-4 */
    call bm_trap                    /* never returns */
4:  j 4b

/* uint32_t wl_call_on_stack(uint32_t (*fn)(uint32_t), uint32_t arg, void *sp_top,
 *                           struct cactus_stack_desc *desc):
 * calls fn(arg) with sp = sp_top - 16 (a 16-byte frame holding ra, the caller's sp and tp) and
 * tp = desc + 1 (just past the new stack's check limit), then restores the caller's stack and tp
 * and returns
 * fn's result. */
    .globl wl_call_on_stack
wl_call_on_stack:
    mv t0, sp
    addi sp, a2, -16
    sw ra, 12(sp)
    sw t0, 8(sp)
    sw tp, 4(sp)
    addi tp, a3, 4
    mv t1, a0
    mv a0, a1
    jalr t1
    lw tp, 4(sp)
    lw ra, 12(sp)
    lw t0, 8(sp)
    mv sp, t0
    ret
