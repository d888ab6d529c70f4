/* RV32I loads and stores of every width: sign/zero extension, positive and
 * negative offsets (including the -2048/2047 extremes), every byte and
 * halfword position in a word, little-endian layout, x0 as load destination
 * (the value is discarded), and x0 as store source (stores zero). */
#include "asm_test.h"

    .data
    .balign 16
pattern:
    .word 0x807f01ff, 0x7ffe8001, 0x00000000, 0xffffffff
scratch:
    .space 64
    .balign 4
far_buf:
    .space 4096

    .text
TEST_MAIN_BEGIN
    la s0, pattern
    /* lb / lbu on every byte of word 0 = bytes ff 01 7f 80 */
    lb t3, 0(s0)
    CHECK_REG(1, t3, 0xffffffff)
    lbu t3, 0(s0)
    CHECK_REG(2, t3, 0x000000ff)
    lb t3, 1(s0)
    CHECK_REG(3, t3, 0x00000001)
    lbu t3, 1(s0)
    CHECK_REG(4, t3, 0x00000001)
    lb t3, 2(s0)
    CHECK_REG(5, t3, 0x0000007f)
    lbu t3, 2(s0)
    CHECK_REG(6, t3, 0x0000007f)
    lb t3, 3(s0)
    CHECK_REG(7, t3, 0xffffff80)
    lbu t3, 3(s0)
    CHECK_REG(8, t3, 0x00000080)
    /* lh / lhu: word 1 = halfwords 8001, 7ffe */
    lh t3, 4(s0)
    CHECK_REG(10, t3, 0xffff8001)
    lhu t3, 4(s0)
    CHECK_REG(11, t3, 0x00008001)
    lh t3, 6(s0)
    CHECK_REG(12, t3, 0x00007ffe)
    lhu t3, 6(s0)
    CHECK_REG(13, t3, 0x00007ffe)
    lh t3, 0(s0)
    CHECK_REG(14, t3, 0x000001ff)
    lh t3, 2(s0)
    CHECK_REG(15, t3, 0xffff807f)
    lhu t3, 14(s0)
    CHECK_REG(16, t3, 0x0000ffff)
    lh t3, 14(s0)
    CHECK_REG(17, t3, 0xffffffff)
    /* lw */
    lw t3, 0(s0)
    CHECK_REG(20, t3, 0x807f01ff)
    lw t3, 4(s0)
    CHECK_REG(21, t3, 0x7ffe8001)
    lw t3, 8(s0)
    CHECK_REG(22, t3, 0)
    lw t3, 12(s0)
    CHECK_REG(23, t3, 0xffffffff)
    /* negative offsets */
    addi s1, s0, 16
    lw t3, -16(s1)
    CHECK_REG(24, t3, 0x807f01ff)
    lb t3, -13(s1)
    CHECK_REG(25, t3, 0xffffff80)
    lhu t3, -12(s1)
    CHECK_REG(26, t3, 0x8001)

    /* stores: sb into each byte, sh into each half, sw */
    la s1, scratch
    sw zero, 0(s1)
    li t1, 0x123456aa
    sb t1, 0(s1)          /* only the low byte is stored */
    li t1, 0xbb
    sb t1, 1(s1)
    li t1, 0xcc
    sb t1, 2(s1)
    li t1, 0xdd
    sb t1, 3(s1)
    lw t3, 0(s1)
    CHECK_REG(30, t3, 0xddccbbaa)
    li t1, 0xabcd1234
    sh t1, 4(s1)
    li t1, 0x5678
    sh t1, 6(s1)
    lw t3, 4(s1)
    CHECK_REG(31, t3, 0x56781234)
    li t1, 0xfedcba98
    sw t1, 8(s1)
    lbu t3, 8(s1)
    CHECK_REG(32, t3, 0x98)
    lbu t3, 11(s1)
    CHECK_REG(33, t3, 0xfe)
    lhu t3, 10(s1)
    CHECK_REG(34, t3, 0xfedc)
    /* store with negative offset, overwriting one byte of a word */
    addi s2, s1, 12
    li t1, 0x11
    sb t1, -2(s2)
    lw t3, 8(s1)
    CHECK_REG(35, t3, 0xfe11ba98)
    li t1, 0x2222
    sh t1, -4(s2)
    lw t3, 8(s1)
    CHECK_REG(36, t3, 0xfe112222)
    /* x0 as store source stores zero */
    sw x0, 8(s1)
    lw t3, 8(s1)
    CHECK_REG(37, t3, 0)
    li t1, -1
    sw t1, 12(s1)
    sb x0, 13(s1)
    sh x0, 14(s1)
    lw t3, 12(s1)
    CHECK_REG(38, t3, 0x000000ff)

    /* offset extremes: 2047 and -2048 */
    la s3, far_buf
    li t0, 2048
    add s4, s3, t0             /* s4 = far_buf + 2048 */
    li t1, 0x0badf00d
    sw t1, -2048(s4)           /* far_buf + 0 */
    lw t3, 0(s3)
    CHECK_REG(40, t3, 0x0badf00d)
    li t1, 0x5a
    sb t1, 2047(s4)            /* far_buf + 4095 */
    lbu t3, 4095-2048(s4)
    CHECK_REG(41, t3, 0x5a)
    lb t3, 2047(s4)
    CHECK_REG(42, t3, 0x5a)
    lw t3, -2048(s4)
    CHECK_REG(43, t3, 0x0badf00d)

    /* loads into x0 are performed but the result is discarded */
    lw x0, 0(s0)
    CHECK_REG(50, x0, 0)
    lb x0, 3(s0)
    CHECK_REG(51, x0, 0)
    lhu x0, 4(s0)
    CHECK_REG(52, x0, 0)

    /* load into the base register (rd == rs1) */
    mv t1, s0
    lw t1, 4(t1)
    CHECK_REG(53, t1, 0x7ffe8001)

    /* store then load back-to-back (store-to-load forwarding) */
    li t1, 0x13579bdf
    sw t1, 16(s1)
    lw t3, 16(s1)
    CHECK_REG(54, t3, 0x13579bdf)
    lh t3, 18(s1)
    CHECK_REG(55, t3, 0x1357)
    lb t3, 16(s1)
    CHECK_REG(56, t3, 0xffffffdf)
TEST_MAIN_END("rv32i_loadstore")
