/* Start-up code and trap entry of `cactus fuzz` programs (docs/fuzz.md).
 *
 * 0x8000_0000 _start jumps over the configuration block at 0x8000_0008, which the harness
 * may patch after loading the ELF (the defaults suit QEMU, which cannot be patched):
 *   +0 magic  0x5A5A5546 ("FUZZ")
 *   +4 flags  bit 0: report the stack region and high water through the trace device
 *             (cactus-sim only: QEMU does not decode the device)
 *   +8 stack  bytes of stack the program may use below __stack_top; 0 = the whole stack
 *
 * _start: sets gp and sp, zeroes .bss, paints the stack, sets mtvec, points tp just past the
 * stack descriptor (its one word, the check limit, is at tp - 4: docs/stack-checks.md) with
 * the limit __stack_top - stack, and calls fuzz_start (fuzz_rt.c), which never returns.
 *
 * fuzz_trap_entry: any trap is fatal. It switches to the trap stack and its descriptor (the
 * failing check left sp below the limit; nothing may be stored there) and calls
 * fuzz_trap(mcause, mepc, mtval, sp), which reports and exits.
 *
 * port_split_request: the call slow path of `split` checks, here a jump to the site's ecall.
 * isolate.S: the windows and slow path of `--isolate` code; lstack.S: the slow path of
 * `--logical-stack` code (the program's displacement is the word at tp + 32, which _start
 * sets so that its logical stack ends at the stack window's aperture end, 0x7000_0000). */

    .equ FUZZ_MAGIC, 0x5A5A5546
    .equ PAINT, 0xCAC705A5

    .section .text.init, "ax"
    .globl _start
_start:
    j       1f
    .balign 8
    .globl fuzz_config
fuzz_config:
    .word   FUZZ_MAGIC
    .word   0
    .word   0
    .word   0
1:
.option push
.option norelax
    la      gp, __global_pointer$
.option pop
    la      t0, fuzz_trap_entry
    csrw    mtvec, t0
    la      t0, __bss_start
    la      t1, __bss_end
2:  bgeu    t0, t1, 3f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       2b
3:  la      t0, __stack_bottom
    la      t1, __stack_top
    li      t2, PAINT
4:  bgeu    t0, t1, 5f
    sw      t2, 0(t0)
    addi    t0, t0, 4
    j       4b
5:  la      sp, __stack_top
    la      t0, __stack_bottom
    la      t1, fuzz_config
    lw      t1, 8(t1)
    beqz    t1, 6f
    sub     t2, sp, t1
    bltu    t2, t0, 6f          /* more than the whole stack: keep the bottom */
    mv      t0, t2
6:  la      tp, fuzz_stack_desc + 4
    sw      t0, -4(tp)
    la      t0, __stack_top         /* the logical-stack displacement (tp + 32, lstack.S) */
    li      t1, 0x70000000
    sub     t0, t0, t1
    sw      t0, 32(tp)
    call    fuzz_start
7:  j       7b

    .text
    .balign 4
    .globl fuzz_trap_entry
fuzz_trap_entry:
    mv      a3, sp
    la      sp, __trap_stack_top
    la      tp, fuzz_trap_desc + 4
    csrr    a0, mcause
    csrr    a1, mepc
    csrr    a2, mtval
    call    fuzz_trap
8:  j       8b

/* The call slow path of `--checks split` code (docs/stack-checks.md): a bare-metal program
 * has no strategy to make room, so a failed check goes on to its own ecall (word 0 of the site
 * entry in t0) and fuzz_trap reports it exactly as in `mtss` mode. */
    .balign 4
    .globl port_split_request
port_split_request:
    lw      t0, 0(t0)
    jr      t0

#include "preempt.S"                /* crates/cc/runtime/preempt.S, written beside */
#include "isolate.S"                /* the isolate pass's windows and slow path */
#include "lstack.S"                 /* the logical-stack pass's slow path */

    .data
    .balign 4
    .word   0                       /* tp - 16: the isolate entry's second scratch word */
    .word   0                       /* tp - 12: the preempt and isolate entries' scratch word */
    .word   cactus_preempt_period   /* tp - 8: the branch counter (0 without the pass) */
    .globl fuzz_stack_desc
fuzz_stack_desc:
    .word   0
    .word   0
    .word   cactus_preempt_period
fuzz_trap_desc:
    .word   __trap_stack_bottom
    .word   0, 0, 0, 0, 0           /* fuzz_stack_desc + 16 .. + 32 */
    .globl fuzz_lstack_disp
fuzz_lstack_disp:                   /* the program's tp + 32: its displacement (_start) */
    .word   0
