/* The integer register file: all 31 writable registers hold independent
 * values at once (each register gets a distinct pattern, then every one is
 * read back), x0 stays zero whatever is written to it, and a value moves
 * through every register in a chain (x1 -> x2 -> ... -> x31) unchanged.
 * sp, gp and tp are saved in mscratch/memory around the test and restored. */
#include "asm_test.h"

#define PAT(n) (0x01010101 * (n) ^ 0xa5000000)

    .data
    .balign 4
saved:
    .word 0, 0, 0, 0
dump:
    .space 32 * 4

    .text
TEST_MAIN_BEGIN
    la t0, saved
    sw sp, 0(t0)
    sw gp, 4(t0)
    sw tp, 8(t0)
    sw ra, 12(t0)

    /* 1. every register gets its own value */
    li x1, PAT(1)
    li x2, PAT(2)
    li x3, PAT(3)
    li x4, PAT(4)
    li x5, PAT(5)
    li x6, PAT(6)
    li x7, PAT(7)
    li x8, PAT(8)
    li x9, PAT(9)
    li x10, PAT(10)
    li x11, PAT(11)
    li x12, PAT(12)
    li x13, PAT(13)
    li x14, PAT(14)
    li x15, PAT(15)
    li x16, PAT(16)
    li x17, PAT(17)
    li x18, PAT(18)
    li x19, PAT(19)
    li x20, PAT(20)
    li x21, PAT(21)
    li x22, PAT(22)
    li x23, PAT(23)
    li x24, PAT(24)
    li x25, PAT(25)
    li x26, PAT(26)
    li x27, PAT(27)
    li x28, PAT(28)
    li x29, PAT(29)
    li x30, PAT(30)
    li x0, 0x7777           /* discarded */
    /* x31 is the base for the dump; its own value is tested in part 2 */
    la x31, dump
    sw x0, 0(x31)
    sw x1, 4(x31)
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
    /* x31 with x1 as base */
    la x1, dump
    li x31, PAT(31)
    sw x31, 124(x1)

    la t0, saved
    lw sp, 0(t0)
    lw gp, 4(t0)
    lw tp, 8(t0)
    lw ra, 12(t0)

    /* check dump[n] == PAT(n) for n = 1..31 and dump[0] == 0 */
    la s0, dump
    lw s1, 0(s0)
    CHECK_REG(100, s1, 0)
    li s2, 1
1:  slli t0, s2, 2
    add t0, t0, s0
    lw a1, 0(t0)
    li t1, 0x01010101
    mul a2, t1, s2
    li t1, 0xa5000000
    xor a2, a2, t1
    addi a0, s2, 100
    call rt_check_eq
    addi s2, s2, 1
    li t0, 32
    blt s2, t0, 1b

    /* 2. one value through every register in a chain */
    la t0, saved
    sw sp, 0(t0)
    sw gp, 4(t0)
    sw tp, 8(t0)
    li x1, 0x5eed1234
    mv x2, x1
    mv x3, x2
    mv x4, x3
    mv x5, x4
    mv x6, x5
    mv x7, x6
    mv x8, x7
    mv x9, x8
    mv x10, x9
    mv x11, x10
    mv x12, x11
    mv x13, x12
    mv x14, x13
    mv x15, x14
    mv x16, x15
    mv x17, x16
    mv x18, x17
    mv x19, x18
    mv x20, x19
    mv x21, x20
    mv x22, x21
    mv x23, x22
    mv x24, x23
    mv x25, x24
    mv x26, x25
    mv x27, x26
    mv x28, x27
    mv x29, x28
    mv x30, x29
    mv x31, x30
    mv x0, x31
    add x30, x31, x0        /* x0 still reads zero */
    mv s2, x30
    la t0, saved
    lw sp, 0(t0)
    lw gp, 4(t0)
    lw tp, 8(t0)
    CHECK_REG(200, s2, 0x5eed1234)
    CHECK_REG(201, x0, 0)
TEST_MAIN_END("rv32i_regs")
