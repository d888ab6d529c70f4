/* A extension LR/SC: lr.w loads, sc.w after lr.w to the same address
 * succeeds (rd = 0, memory written); sc.w without a reservation fails (rd = 1
 * on QEMU; the spec only says non-zero, so this test checks non-zero and
 * QEMU's 1 separately) and leaves memory unchanged; every sc.w consumes the
 * reservation; sc.w to an address outside the reservation set fails; the
 * aq/rl variants; an lr/sc retry loop used as an atomic increment. */
#include "asm_test.h"

    .data
    .balign 64
word_a:
    .word 0
    .balign 256
word_b:
    .word 0

TEST_MAIN_BEGIN
    la s0, word_a
    la s1, word_b
    /* sc without reservation (none taken yet): fails, memory unchanged */
    li t1, 0x5555
    sw t1, 0(s0)
    li t2, 0x1234
    sc.w t3, t2, (s0)
    sltu t4, x0, t3
    CHECK_REG(1, t4, 1)
    CHECK_REG(2, t3, 1)
    lw t3, 0(s0)
    CHECK_REG(3, t3, 0x5555)

    /* lr then sc to the same address succeeds */
    lr.w t3, (s0)
    li t2, 0x6666
    sc.w t4, t2, (s0)
    mv s2, t3
    mv s3, t4
    CHECK_REG(4, s2, 0x5555)
    CHECK_REG(5, s3, 0)
    lw t3, 0(s0)
    CHECK_REG(6, t3, 0x6666)

    /* a second sc after a successful one fails (reservation consumed) */
    lr.w t3, (s0)
    li t2, 0x7777
    sc.w t4, t2, (s0)
    li t2, 0x8888
    sc.w t5, t2, (s0)
    mv s2, t4
    mv s3, t5
    CHECK_REG(7, s2, 0)
    CHECK_REG(8, s3, 1)
    lw t3, 0(s0)
    CHECK_REG(9, t3, 0x7777)

    /* sc to an address outside the reservation fails, and it also
     * invalidates the reservation, so a later sc to the reserved address
     * fails too */
    sw zero, 0(s1)
    lr.w t3, (s0)
    li t2, 0x9999
    sc.w t4, t2, (s1)
    sc.w t5, t2, (s0)
    mv s2, t4
    mv s3, t5
    CHECK_REG(10, s2, 1)
    CHECK_REG(11, s3, 1)
    lw t3, 0(s1)
    CHECK_REG(12, t3, 0)
    lw t3, 0(s0)
    CHECK_REG(13, t3, 0x7777)

    /* aq/rl variants */
    lr.w.aq t3, (s0)
    li t2, 0xaaaa
    sc.w.rl t4, t2, (s0)
    mv s2, t3
    mv s3, t4
    CHECK_REG(14, s2, 0x7777)
    CHECK_REG(15, s3, 0)
    lr.w.aqrl t3, (s0)
    li t2, 0xbbbb
    sc.w.aqrl t4, t2, (s0)
    mv s2, t3
    mv s3, t4
    CHECK_REG(16, s2, 0xaaaa)
    CHECK_REG(17, s3, 0)
    lw t3, 0(s0)
    CHECK_REG(18, t3, 0xbbbb)

    /* a newer lr replaces the reservation: lr A, lr B, sc B succeeds */
    li t1, 5
    sw t1, 0(s1)
    lr.w t3, (s0)
    lr.w t3, (s1)
    addi t3, t3, 1
    sc.w t4, t3, (s1)
    mv s3, t4
    CHECK_REG(19, s3, 0)
    lw t3, 0(s1)
    CHECK_REG(20, t3, 6)

    /* lr into x0 still takes the reservation */
    lr.w x0, (s0)
    li t2, 0xcccc
    sc.w t4, t2, (s0)
    mv s3, t4
    CHECK_REG(21, s3, 0)
    lw t3, 0(s0)
    CHECK_REG(22, t3, 0xcccc)

    /* atomic increment loop, 50 times */
    sw zero, 0(s0)
    li s2, 50
1:  lr.w t3, (s0)
    addi t3, t3, 2
    sc.w t4, t3, (s0)
    bnez t4, 1b
    addi s2, s2, -1
    bnez s2, 1b
    lw t3, 0(s0)
    CHECK_REG(23, t3, 100)
TEST_MAIN_END("rv32a_lrsc")
