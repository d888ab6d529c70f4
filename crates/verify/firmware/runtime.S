# cactus-verify difftest runtime: appended to every generated program (the generator defines
# `scratch`, `SCRATCH_BYTES`, points tp at __cactus_trap_area before anything can trap, and
# jumps to __cactus_epilogue at the end of the body).
#
# __cactus_epilogue saves x1..x31, prints them as "xN=hhhhhhhh" lines, prints the FNV-1a hash
# of the scratch buffer as "mem=hhhhhhhh", the number of traps taken and a hash of their
# (mcause, mepc) as "traps=hhhhhhhh hash=hhhhhhhh", and exits through the test finisher with
# "pass".
# __cactus_trap (mtvec) resumes after the trapping instruction (2 or 4 bytes), folding mcause
# and mepc into the trap hash; it preserves every register (t0..t2 are saved in the trap area
# tp points at). mtval is not folded in: the privileged spec lets implementations differ there.
# After MAX_TRAPS traps it gives up: it prints "trap mcause=.. mepc=.. mtval=..", the registers
# and the hashes, and exits through the finisher with code 1.
# Only base-ISA instructions are used here, so a bug in the M or A extension shows up in the
# body's results rather than in how they are printed.

    .equ UART_THR, 0x10000000
    .equ FINISHER, 0x00100000
    .equ MAX_TRAPS, 256
    # __cactus_trap_area layout: word 0 is unused, then the t0, t1, t2 save slots, the trap
    # hash and count. (These programs have no stack and no check sites, so nothing reads a
    # stack-check limit at tp-4; docs/stack-checks.md.)
    .equ TRAP_T0, 4
    .equ TRAP_T1, 8
    .equ TRAP_T2, 12
    .equ TRAP_HASH, 16
    .equ TRAP_COUNT, 20

    .text
    .align 2
__cactus_epilogue:
    csrw mscratch, x31
    la x31, __cactus_regs
    sw x1, 4(x31)
    call __cactus_save_regs_x31
    li s3, 0
    j __cactus_report

    .align 2
__cactus_trap:
    sw t0, TRAP_T0(tp)
    sw t1, TRAP_T1(tp)
    sw t2, TRAP_T2(tp)
    lw t0, TRAP_COUNT(tp)
    addi t0, t0, 1
    sw t0, TRAP_COUNT(tp)
    li t1, MAX_TRAPS
    bgeu t0, t1, __cactus_trap_fatal
    # hash = (hash ^ mcause) * 31, then (hash ^ mepc) * 31
    lw t2, TRAP_HASH(tp)
    csrr t0, mcause
    xor t2, t2, t0
    slli t1, t2, 5
    sub t2, t1, t2
    csrr t0, mepc
    xor t2, t2, t0
    slli t1, t2, 5
    sub t2, t1, t2
    sw t2, TRAP_HASH(tp)
    # resume after the trapping instruction: 4 bytes if its low bits are 11, else 2
    lhu t1, 0(t0)
    andi t1, t1, 3
    addi t0, t0, 2
    li t2, 3
    bne t1, t2, 1f
    addi t0, t0, 2
1:
    csrw mepc, t0
    lw t0, TRAP_T0(tp)
    lw t1, TRAP_T1(tp)
    lw t2, TRAP_T2(tp)
    mret

__cactus_trap_fatal:
    lw t0, TRAP_T0(tp)
    lw t1, TRAP_T1(tp)
    lw t2, TRAP_T2(tp)
    csrw mscratch, x31
    la x31, __cactus_regs
    sw x1, 4(x31)
    call __cactus_save_regs_x31
    li s2, UART_THR
    la a0, __cactus_str_trap
    call __cactus_puts
    csrr a0, mcause
    call __cactus_puthex
    la a0, __cactus_str_mepc
    call __cactus_puts
    csrr a0, mepc
    call __cactus_puthex
    la a0, __cactus_str_mtval
    call __cactus_puts
    csrr a0, mtval
    call __cactus_puthex
    li a0, '\n'
    call __cactus_putc
    li s3, 1
    j __cactus_report

# Stores x2..x30 at 4*N(x31) and the value saved in mscratch (x31) at 124(x31); the caller
# stores x1 itself before the call that overwrites it.
__cactus_save_regs_x31:
    sw x2, 8(x31)
    sw x3, 12(x31)
    sw x4, 16(x31)
    sw x5, 20(x31)
    sw x6, 24(x31)
    sw x7, 28(x31)
    sw x8, 32(x31)
    sw x9, 36(x31)
    sw x10, 40(x31)
    sw x11, 44(x31)
    sw x12, 48(x31)
    sw x13, 52(x31)
    sw x14, 56(x31)
    sw x15, 60(x31)
    sw x16, 64(x31)
    sw x17, 68(x31)
    sw x18, 72(x31)
    sw x19, 76(x31)
    sw x20, 80(x31)
    sw x21, 84(x31)
    sw x22, 88(x31)
    sw x23, 92(x31)
    sw x24, 96(x31)
    sw x25, 100(x31)
    sw x26, 104(x31)
    sw x27, 108(x31)
    sw x28, 112(x31)
    sw x29, 116(x31)
    sw x30, 120(x31)
    csrr x30, mscratch
    sw x30, 124(x31)
    ret

# s3 = exit code (0 = pass). Prints the registers and the scratch hash, then exits.
__cactus_report:
    li s2, UART_THR
    la s1, __cactus_regs
    li s0, 1
1:
    li a0, 'x'
    call __cactus_putc
    li t0, 10
    blt s0, t0, 2f
    li a0, '0'
    mv t1, s0
3:
    blt t1, t0, 4f
    addi t1, t1, -10
    addi a0, a0, 1
    j 3b
4:
    mv s4, t1
    call __cactus_putc
    mv a0, s4
    j 5f
2:
    mv a0, s0
5:
    addi a0, a0, '0'
    call __cactus_putc
    li a0, '='
    call __cactus_putc
    slli t0, s0, 2
    add t0, t0, s1
    lw a0, 0(t0)
    call __cactus_puthex
    li a0, '\n'
    call __cactus_putc
    addi s0, s0, 1
    li t0, 32
    blt s0, t0, 1b

    # FNV-1a over the scratch buffer; the multiply by 0x01000193 is done with shifts and adds
    # (h * 0x193 + (h << 24)) so the report does not depend on the M extension.
    la t0, scratch
    li t1, SCRATCH_BYTES
    add t1, t1, t0
    li s5, 0x811c9dc5
6:
    bgeu t0, t1, 7f
    lbu t2, 0(t0)
    xor s5, s5, t2
    slli t3, s5, 24
    slli t4, s5, 8
    add t3, t3, t4
    slli t4, s5, 7
    add t3, t3, t4
    slli t4, s5, 4
    add t3, t3, t4
    slli t4, s5, 1
    add t3, t3, t4
    add s5, t3, s5
    addi t0, t0, 1
    j 6b
7:
    la a0, __cactus_str_mem
    call __cactus_puts
    mv a0, s5
    call __cactus_puthex
    li a0, '\n'
    call __cactus_putc
    la a0, __cactus_str_traps
    call __cactus_puts
    la s6, __cactus_trap_area
    lw a0, TRAP_COUNT(s6)
    call __cactus_puthex
    la a0, __cactus_str_hash
    call __cactus_puts
    lw a0, TRAP_HASH(s6)
    call __cactus_puthex
    li a0, '\n'
    call __cactus_putc

    li t0, FINISHER
    beqz s3, 8f
    slli t1, s3, 16
    li t2, 0x3333
    or t1, t1, t2
    sw t1, 0(t0)
    j 9f
8:
    li t1, 0x5555
    sw t1, 0(t0)
9:
    j 9b

# putc(a0) to the UART at s2.
__cactus_putc:
    sb a0, 0(s2)
    ret

# puts(a0 = NUL-terminated string), clobbers a0, t5, t6.
__cactus_puts:
    mv t6, ra
    mv t5, a0
1:
    lbu a0, 0(t5)
    beqz a0, 2f
    call __cactus_putc
    addi t5, t5, 1
    j 1b
2:
    mv ra, t6
    ret

# puthex(a0): eight lower-case hex digits; clobbers a0, t3..t6.
__cactus_puthex:
    mv t6, ra
    mv t5, a0
    li t4, 28
1:
    srl a0, t5, t4
    andi a0, a0, 15
    li t3, 10
    blt a0, t3, 2f
    addi a0, a0, 'a' - 10 - '0'
2:
    addi a0, a0, '0'
    call __cactus_putc
    addi t4, t4, -4
    bgez t4, 1b
    mv ra, t6
    ret

    .section .rodata
__cactus_str_trap:  .asciz "trap mcause="
__cactus_str_mepc:  .asciz " mepc="
__cactus_str_mtval: .asciz " mtval="
__cactus_str_mem:   .asciz "mem="
__cactus_str_traps: .asciz "traps="
__cactus_str_hash:  .asciz " hash="

    .bss
    .align 4
__cactus_regs:
    .space 128
    .globl __cactus_trap_area
__cactus_trap_area:
    .space 32
