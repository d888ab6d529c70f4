/* A extension AMOs: every amo*.w returns the old memory value in rd and
 * stores op(old, rs2); signed vs unsigned min/max on edge values; the .aq,
 * .rl and .aqrl variants; rd = x0 (memory still updated); rd = rs2. */
#include "asm_test.h"

/* mem = init; rd = amo(mem, v); check rd == init and mem == exp. */
#define TEST_AMO(id, inst, init, v, exp) \
    la s0, cell;                          \
    li t1, init;                          \
    sw t1, 0(s0);                         \
    li t2, v;                             \
    inst t3, t2, (s0);                    \
    CHECK_REG(id, t3, init);              \
    lw t3, 0(s0);                         \
    CHECK_REG(id + 1000, t3, exp)

    .data
    .balign 16
cell:
    .word 0, 0, 0, 0

TEST_MAIN_BEGIN
    TEST_AMO(1, amoswap.w, 0x11111111, 0x22222222, 0x22222222)
    TEST_AMO(2, amoswap.w.aq, 0x80000000, 0, 0)
    TEST_AMO(3, amoswap.w.rl, 0, -1, -1)
    TEST_AMO(4, amoswap.w.aqrl, 0x12345678, 0x12345678, 0x12345678)

    TEST_AMO(10, amoadd.w, 1, 2, 3)
    TEST_AMO(11, amoadd.w.aq, 0x7fffffff, 1, 0x80000000)
    TEST_AMO(12, amoadd.w.rl, 0xffffffff, 1, 0)
    TEST_AMO(13, amoadd.w.aqrl, 0x80000000, 0x80000000, 0)

    TEST_AMO(20, amoxor.w, 0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0)
    TEST_AMO(21, amoxor.w.aqrl, 0xffffffff, 0xffffffff, 0)
    TEST_AMO(22, amoand.w, 0xff00ff00, 0x0ff00ff0, 0x0f000f00)
    TEST_AMO(23, amoand.w.aq, 0xffffffff, 0, 0)
    TEST_AMO(24, amoor.w, 0xff00ff00, 0x0ff00ff0, 0xfff0fff0)
    TEST_AMO(25, amoor.w.rl, 0, 0x80000001, 0x80000001)

    TEST_AMO(30, amomin.w, 5, 7, 5)
    TEST_AMO(31, amomin.w, 7, 5, 5)
    TEST_AMO(32, amomin.w, 0xffffffff, 1, 0xffffffff)        /* -1 < 1 */
    TEST_AMO(33, amomin.w.aq, 0x7fffffff, 0x80000000, 0x80000000)
    TEST_AMO(34, amomin.w.aqrl, 0x80000000, 0x80000000, 0x80000000)
    TEST_AMO(40, amomax.w, 5, 7, 7)
    TEST_AMO(41, amomax.w, 0xffffffff, 1, 1)
    TEST_AMO(42, amomax.w.rl, 0x80000000, 0x7fffffff, 0x7fffffff)
    TEST_AMO(43, amomax.w.aqrl, -5, -3, -3)
    TEST_AMO(50, amominu.w, 0xffffffff, 1, 1)
    TEST_AMO(51, amominu.w.aq, 0x7fffffff, 0x80000000, 0x7fffffff)
    TEST_AMO(52, amominu.w.rl, 0, 0xffffffff, 0)
    TEST_AMO(60, amomaxu.w, 0xffffffff, 1, 0xffffffff)
    TEST_AMO(61, amomaxu.w.aqrl, 0x7fffffff, 0x80000000, 0x80000000)
    TEST_AMO(62, amomaxu.w, 0, 0, 0)

    /* rd = x0: the memory update still happens */
    la s0, cell
    li t1, 40
    sw t1, 0(s0)
    li t2, 2
    amoadd.w x0, t2, (s0)
    lw t3, 0(s0)
    CHECK_REG(70, t3, 42)
    CHECK_REG(71, x0, 0)
    /* rd == rs2: rd gets the old value, memory gets the old rs2 */
    li t2, 99
    amoswap.w t2, t2, (s0)
    CHECK_REG(72, t2, 42)
    lw t3, 0(s0)
    CHECK_REG(73, t3, 99)
    /* amo on a neighbouring word leaves this one alone */
    li t2, 1
    addi t4, s0, 4
    amoadd.w x0, t2, (t4)
    lw t3, 0(s0)
    CHECK_REG(74, t3, 99)
    lw t3, 4(s0)
    CHECK_REG(75, t3, 1)
    /* a counter built from amoadd in a loop */
    sw zero, 8(s0)
    addi s1, s0, 8
    li s2, 100
1:  li t2, 3
    amoadd.w t3, t2, (s1)
    addi s2, s2, -1
    bnez s2, 1b
    lw t3, 8(s0)
    CHECK_REG(76, t3, 300)
TEST_MAIN_END("rv32a_amo")
