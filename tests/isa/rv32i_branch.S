/* RV32I control transfer: beq/bne/blt/bge/bltu/bgeu taken and not taken
 * with signed/unsigned edge values, forward and backward branches, jal and
 * jalr link values, jalr with an odd target (bit 0 is cleared), jalr with a
 * negative offset, and rd = rs1 for jalr. */
#include "asm_test.h"

/* Branch test: t0 = 1 if taken, 0 if not; check against exp. */
#define TEST_BR(id, inst, exp, v1, v2) \
    li t1, v1;                          \
    li t2, v2;                          \
    li t0, 0;                           \
    inst t1, t2, 1f;                    \
    j 2f;                               \
1:  li t0, 1;                           \
2:  CHECK_REG(id, t0, exp)

TEST_MAIN_BEGIN
    TEST_BR(1, beq, 1, 0, 0)
    TEST_BR(2, beq, 0, 0, 1)
    TEST_BR(3, beq, 1, -1, -1)
    TEST_BR(4, beq, 0, 0x80000000, 0)
    TEST_BR(5, bne, 0, 0, 0)
    TEST_BR(6, bne, 1, 0, 1)
    TEST_BR(7, bne, 1, 0x80000000, 0x7fffffff)
    TEST_BR(8, bne, 0, -1, -1)
    TEST_BR(10, blt, 0, 0, 0)
    TEST_BR(11, blt, 1, -1, 0)
    TEST_BR(12, blt, 0, 0, -1)
    TEST_BR(13, blt, 1, 0x80000000, 0x7fffffff)
    TEST_BR(14, blt, 0, 0x7fffffff, 0x80000000)
    TEST_BR(15, blt, 1, 0x80000000, -1)
    TEST_BR(16, blt, 0, -1, 0x80000000)
    TEST_BR(20, bge, 1, 0, 0)
    TEST_BR(21, bge, 0, -1, 0)
    TEST_BR(22, bge, 1, 0, -1)
    TEST_BR(23, bge, 0, 0x80000000, 0x7fffffff)
    TEST_BR(24, bge, 1, 0x7fffffff, 0x80000000)
    TEST_BR(25, bge, 1, -1, -1)
    TEST_BR(26, bge, 1, 0x80000000, 0x80000000)
    TEST_BR(30, bltu, 0, 0, 0)
    TEST_BR(31, bltu, 0, -1, 0)
    TEST_BR(32, bltu, 1, 0, -1)
    TEST_BR(33, bltu, 0, 0x80000000, 0x7fffffff)
    TEST_BR(34, bltu, 1, 0x7fffffff, 0x80000000)
    TEST_BR(35, bltu, 1, 0xfffffffe, 0xffffffff)
    TEST_BR(40, bgeu, 1, 0, 0)
    TEST_BR(41, bgeu, 1, -1, 0)
    TEST_BR(42, bgeu, 0, 0, -1)
    TEST_BR(43, bgeu, 1, 0x80000000, 0x7fffffff)
    TEST_BR(44, bgeu, 0, 0x7fffffff, 0x80000000)
    TEST_BR(45, bgeu, 1, 0xffffffff, 0xffffffff)
    /* pseudo-forms with x0 */
    li t0, 0
    li t1, 0
    beq t1, x0, 18f
    j 19f
18: li t0, 1
19: CHECK_REG(46, t0, 1)
    li t0, 0
    li t1, 0x80000000
    bge t1, x0, 18f             /* bltz/bgez idioms: negative is not >= 0 */
    j 19f
18: li t0, 1
19: CHECK_REG(47, t0, 0)

    /* backward branch loop: count 10 iterations */
    li t0, 0
    li t1, 10
3:  addi t0, t0, 1
    blt t0, t1, 3b
    CHECK_REG(50, t0, 10)
    /* bltu loop counting down through zero stops at the wrap */
    li t0, 5
    li t2, 0
4:  addi t2, t2, 1
    addi t0, t0, -1
    bgez t0, 4b
    CHECK_REG(51, t2, 6)

    /* jal: link = address of the next instruction */
    .option push
    .option norvc
    jal s0, 5f
6:  j 7f
5:  la s1, 6b
    CHECK_REGS(52, s0, s1)
    jr s0                       /* return to 6b, which jumps to 7f */
7:
    /* jal x0 does not link */
    jal x0, 8f
    li t0, 99                   /* skipped */
8:  CHECK_REG(53, x0, 0)

    /* jalr: link value and target = (rs1 + imm) & ~1 */
    la t1, 10f
    addi t1, t1, 1              /* odd address: bit 0 must be cleared */
    jalr s0, 0(t1)
9:  j 11f
10: la s1, 9b
    CHECK_REGS(54, s0, s1)
    jr s0
11:
    /* jalr with negative offset and odd immediate */
    la t1, 12f
    addi t1, t1, 9
    jalr s0, -8(t1)             /* (12f + 9 - 8) & ~1 = 12f */
13: j 14f
12: la s1, 13b
    CHECK_REGS(55, s0, s1)
    jr s0
14:
    /* jalr with rd == rs1: target uses the old rs1 value */
    la s2, 15f
    jalr s2, 0(s2)
16: j 17f
15: la s1, 16b
    CHECK_REGS(56, s2, s1)
    jr s2
17:
    /* auipc+jalr pair reaching a function and returning */
    call helper_add3
    CHECK_REG(57, a0, 3)
    .option pop
TEST_MAIN_END("rv32i_branch")

    .text
helper_add3:
    li a0, 0
    addi a0, a0, 3
    ret
