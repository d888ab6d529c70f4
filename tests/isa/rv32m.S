/* M extension: mul, mulh, mulhsu, mulhu, div, divu, rem, remu with edge
 * values, including division by zero (quotient all ones, remainder =
 * dividend) and signed overflow INT_MIN / -1 (quotient INT_MIN, remainder 0),
 * as the RISC-V spec defines them (no trap). */
#include "asm_test.h"

TEST_MAIN_BEGIN
    TEST_RR(1, mul, 0, 0, 0)
    TEST_RR(2, mul, 6, 2, 3)
    TEST_RR(3, mul, 0xfffffffa, -2, 3)
    TEST_RR(4, mul, 6, -2, -3)
    TEST_RR(5, mul, 0x80000000, 0x80000000, -1)
    TEST_RR(6, mul, 1, -1, -1)
    TEST_RR(7, mul, 0x00000001, 0x7fffffff, 0x7fffffff)
    TEST_RR(8, mul, 0x242d2080, 0x12345678, 0x9abcdef0)
    TEST_RR(9, mul, 0, 0x80000000, 2)

    TEST_RR(10, mulh, 0, 0, 0)
    TEST_RR(11, mulh, 0xffffffff, -2, 3)
    TEST_RR(12, mulh, 0, -2, -3)
    TEST_RR(13, mulh, 0x00000000, 0x80000000, -1)   /* 2^31: high word 0 */
    TEST_RR(14, mulh, 0x40000000, 0x80000000, 0x80000000)
    TEST_RR(15, mulh, 0x3fffffff, 0x7fffffff, 0x7fffffff)
    TEST_RR(16, mulh, 0xc0000000, 0x80000000, 0x7fffffff)
    TEST_RR(17, mulh, 0xffffffff, -1, 1)
    TEST_RR(18, mulh, 0xf8cc93d6, 0x12345678, 0x9abcdef0)

    TEST_RR(20, mulhu, 0, 0, 0)
    TEST_RR(21, mulhu, 0xfffffffe, -1, -1)
    TEST_RR(22, mulhu, 0x40000000, 0x80000000, 0x80000000)
    TEST_RR(23, mulhu, 0x00000002, -2, 3)
    TEST_RR(24, mulhu, 0x0b00ea4e, 0x12345678, 0x9abcdef0)
    TEST_RR(25, mulhu, 0, 0xffffffff, 1)

    TEST_RR(30, mulhsu, 0, 0, 0)
    TEST_RR(31, mulhsu, 0xffffffff, -1, 1)          /* -1 * 1 */
    TEST_RR(32, mulhsu, 0xffffffff, -1, 0xffffffff) /* -1 * (2^32-1) */
    TEST_RR(33, mulhsu, 0xc0000000, 0x80000000, 0x80000000)
    TEST_RR(34, mulhsu, 0x7ffffffe, 0x7fffffff, 0xffffffff)
    TEST_RR(35, mulhsu, 0x80000000, 0x80000000, 0xffffffff)
    TEST_RR(36, mulhsu, 0x0b00ea4e, 0x12345678, 0x9abcdef0)

    TEST_RR(40, div, 3, 20, 6)
    TEST_RR(41, div, -3, -20, 6)
    TEST_RR(42, div, -3, 20, -6)
    TEST_RR(43, div, 3, -20, -6)
    TEST_RR(44, div, 0x80000000, 0x80000000, -1)    /* overflow */
    TEST_RR(45, div, -1, 0x80000000, 0)             /* by zero */
    TEST_RR(46, div, -1, 5, 0)
    TEST_RR(47, div, -1, 0, 0)
    TEST_RR(48, div, 0x80000000, 0x80000000, 1)
    TEST_RR(49, div, 0, 1, 2)

    TEST_RR(50, divu, 3, 20, 6)
    TEST_RR(51, divu, 0x2aaaaaa7, -20, 6)
    TEST_RR(52, divu, 0, 20, -6)
    TEST_RR(53, divu, 0, 0x80000000, -1)
    TEST_RR(54, divu, 0xffffffff, 0x80000000, 0)    /* by zero */
    TEST_RR(55, divu, 0xffffffff, 0, 0)
    TEST_RR(56, divu, 1, -1, -1)
    TEST_RR(57, divu, 0xffffffff, -1, 1)

    TEST_RR(60, rem, 2, 20, 6)
    TEST_RR(61, rem, -2, -20, 6)                    /* sign of dividend */
    TEST_RR(62, rem, 2, 20, -6)
    TEST_RR(63, rem, -2, -20, -6)
    TEST_RR(64, rem, 0, 0x80000000, -1)             /* overflow */
    TEST_RR(65, rem, 0x80000000, 0x80000000, 0)     /* by zero */
    TEST_RR(66, rem, 5, 5, 0)
    TEST_RR(67, rem, -5, -5, 0)
    TEST_RR(68, rem, 0, 0, 0)

    TEST_RR(70, remu, 2, 20, 6)
    TEST_RR(71, remu, 2, -20, 6)
    TEST_RR(72, remu, 20, 20, -6)
    TEST_RR(73, remu, 0x80000000, 0x80000000, -1)
    TEST_RR(74, remu, 0x80000000, 0x80000000, 0)    /* by zero */
    TEST_RR(75, remu, 0xffffffff, -1, 0)
    TEST_RR(76, remu, 0, -1, -1)
    TEST_RR(77, remu, 0x12345678 % 0x1234, 0x12345678, 0x1234)

    /* rd aliasing a source */
    TEST_RR_SAME(80, mul, 0x00000001, -1)
    TEST_RR_SAME(81, div, 1, -7)
    TEST_RR_SAME(82, rem, 0, -7)
    TEST_RR_SAME(83, mulhu, 0xfffffffe, -1)
    /* x0 destination discards */
    li t1, 7
    li t2, 9
    mul x0, t1, t2
    div x0, t1, x0
    CHECK_REG(84, x0, 0)
TEST_MAIN_END("rv32m")
