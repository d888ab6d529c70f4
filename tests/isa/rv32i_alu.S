/* RV32I register-register and register-immediate arithmetic, logic and
 * shifts with edge values (INT_MIN, INT_MAX, -1, 0, shift amounts 0 and 31),
 * lui/auipc, slt/sltu/slti/sltiu, and x0 as destination. */
#include "asm_test.h"

TEST_MAIN_BEGIN
    /* add / sub */
    TEST_RR(1, add, 0, 0, 0)
    TEST_RR(2, add, 2, 1, 1)
    TEST_RR(3, add, 0x80000000, 0x7fffffff, 1)
    TEST_RR(4, add, 0x7fffffff, 0x80000000, -1)
    TEST_RR(5, add, 0, -1, 1)
    TEST_RR(6, add, 0xfffffffe, -1, -1)
    TEST_RR(7, add, 0, 0x80000000, 0x80000000)
    TEST_RR(8, sub, 0, 0, 0)
    TEST_RR(9, sub, 0x7fffffff, 0x80000000, 1)
    TEST_RR(10, sub, 0x80000000, 0x7fffffff, -1)
    TEST_RR(11, sub, 1, 0, -1)
    TEST_RR(12, sub, 0xffffffff, 0, 1)
    TEST_RR(13, sub, 0x80000000, 0, 0x80000000)
    TEST_RR_SAME(14, add, 0xfffffffe, -1)
    TEST_RR_SAME(15, sub, 0, 0x12345678)
    /* addi: immediate edges -2048 and 2047 */
    TEST_RI(20, addi, 2047, 0, 2047)
    TEST_RI(21, addi, -2048, 0, -2048)
    TEST_RI(22, addi, 0x80000000, 0x7fffffff, 1)
    TEST_RI(23, addi, 0x7fffffff, 0x80000000, -1)
    TEST_RI(24, addi, 0x800007fe, 0x7fffffff, 2047)
    TEST_RI(25, addi, 0x7ffff800, 0x80000000, -2048)
    TEST_RI(26, addi, 0, -1, 1)
    /* logic */
    TEST_RR(30, and, 0x0f000f00, 0xff00ff00, 0x0f0f0f0f)
    TEST_RR(31, or, 0xff0fff0f, 0xff00ff00, 0x0f0f0f0f)
    TEST_RR(32, xor, 0xf00ff00f, 0xff00ff00, 0x0f0f0f0f)
    TEST_RR(33, and, 0, 0xffffffff, 0)
    TEST_RR(34, or, 0xffffffff, 0x80000000, 0x7fffffff)
    TEST_RR(35, xor, 0, 0x5a5a5a5a, 0x5a5a5a5a)
    TEST_RI(36, andi, 0x00000700, 0xff00ff00, 0x70f)
    TEST_RI(37, andi, 0xff00ff00, 0xff00ff00, -1)
    TEST_RI(38, ori, 0xff00ff0f, 0xff00ff00, 0x00f)
    TEST_RI(39, ori, 0xfffff80f, 0x0000000f, -2048)
    TEST_RI(40, xori, 0xff00f80f, 0xff00ff00, 0x70f)
    TEST_RI(41, xori, 0x00ff00ff, 0xff00ff00, -1)
    TEST_RI(42, xori, 0xffffffff, 0, -1)
    /* shifts by register: only the low 5 bits of rs2 count */
    TEST_RR(50, sll, 0x00000001, 1, 0)
    TEST_RR(51, sll, 0x00000002, 1, 1)
    TEST_RR(52, sll, 0x80000000, 1, 31)
    TEST_RR(53, sll, 0x80000000, 1, 63)
    TEST_RR(54, sll, 0x00000001, 1, 32)
    TEST_RR(55, sll, 0x23456780, 0x12345678, 0xffffffe4)
    TEST_RR(56, srl, 0x80000000, 0x80000000, 0)
    TEST_RR(57, srl, 0x00000001, 0x80000000, 31)
    TEST_RR(58, srl, 0x40000000, 0x80000000, 1)
    TEST_RR(59, srl, 0x00000001, 0xffffffff, -1)
    TEST_RR(60, sra, 0x80000000, 0x80000000, 0)
    TEST_RR(61, sra, 0xffffffff, 0x80000000, 31)
    TEST_RR(62, sra, 0xc0000000, 0x80000000, 1)
    TEST_RR(63, sra, 0x3fffffff, 0x7fffffff, 1)
    TEST_RR(64, sra, 0xffffffff, 0xffffffff, 0x7fffffff)
    TEST_RR(65, sra, 0x00000000, 0x7fffffff, 31)
    /* shifts by immediate */
    TEST_RI(70, slli, 0x12345678, 0x12345678, 0)
    TEST_RI(71, slli, 0x80000000, 0xffffffff, 31)
    TEST_RI(72, slli, 0x23456780, 0x12345678, 4)
    TEST_RI(73, srli, 0xffffffff, 0xffffffff, 0)
    TEST_RI(74, srli, 0x00000001, 0xffffffff, 31)
    TEST_RI(75, srli, 0x01234567, 0x12345678, 4)
    TEST_RI(76, srai, 0x80000000, 0x80000000, 0)
    TEST_RI(77, srai, 0xffffffff, 0x80000000, 31)
    TEST_RI(78, srai, 0xf8000000, 0x80000000, 4)
    TEST_RI(79, srai, 0x07ffffff, 0x7fffffff, 4)
    /* set-less-than: signed vs unsigned */
    TEST_RR(80, slt, 0, 0, 0)
    TEST_RR(81, slt, 1, -1, 0)
    TEST_RR(82, slt, 0, 0, -1)
    TEST_RR(83, slt, 1, 0x80000000, 0x7fffffff)
    TEST_RR(84, slt, 0, 0x7fffffff, 0x80000000)
    TEST_RR(85, slt, 1, 0x80000000, -1)
    TEST_RR(86, sltu, 0, 0, 0)
    TEST_RR(87, sltu, 0, -1, 0)
    TEST_RR(88, sltu, 1, 0, -1)
    TEST_RR(89, sltu, 0, 0x80000000, 0x7fffffff)
    TEST_RR(90, sltu, 1, 0x7fffffff, 0x80000000)
    TEST_RR(91, sltu, 1, 0xfffffffe, 0xffffffff)
    TEST_RI(92, slti, 1, -1, 0)
    TEST_RI(93, slti, 0, 0, -1)
    TEST_RI(94, slti, 1, 0x80000000, -2048)
    TEST_RI(95, slti, 0, 0x7fffffff, 2047)
    TEST_RI(96, slti, 1, 2046, 2047)
    TEST_RI(97, sltiu, 1, 0, -1)          /* imm sign-extends to 0xffffffff */
    TEST_RI(98, sltiu, 0, 0xffffffff, -1)
    TEST_RI(99, sltiu, 1, 0xfffffffe, -1)
    TEST_RI(100, sltiu, 1, 0, 1)          /* seqz idiom */
    TEST_RI(101, sltiu, 0, 5, 1)
    TEST_RI(102, sltiu, 0, 0x80000000, 2047)
    TEST_RR(103, sltu, 1, 0, 5)           /* snez idiom: sltu rd, x0, rs */

    /* lui */
    lui t3, 0
    CHECK_REG(110, t3, 0)
    lui t3, 0xfffff
    CHECK_REG(111, t3, 0xfffff000)
    lui t3, 0x80000
    CHECK_REG(112, t3, 0x80000000)
    lui t3, 0x12345
    addi t3, t3, 0x678
    CHECK_REG(113, t3, 0x12345678)
    lui t3, 0x12345
    addi t3, t3, -1
    CHECK_REG(114, t3, 0x12344fff)

    /* auipc: pc-relative; compare against la (which is also auipc-based,
     * so check the arithmetic relation between two auipc results instead) */
1:  auipc s0, 0
2:  auipc s1, 0
3:  auipc s2, 1
4:  auipc s3, 0xfffff
    sub t3, s1, s0
    CHECK_REG(120, t3, 4)
    sub t3, s2, s0
    CHECK_REG(121, t3, 0x1000 + 8)
    sub t3, s3, s0
    CHECK_REG(122, t3, 0xfffff000 + 12)
    la s1, 1b
    CHECK_REGS(123, s0, s1)
    lla s1, 1b
    CHECK_REGS(124, s0, s1)

    /* writes to x0 are ignored */
    li t1, 123
    add x0, t1, t1
    CHECK_REG(130, x0, 0)
    addi x0, x0, 5
    CHECK_REG(131, x0, 0)
    lui x0, 0x12345
    CHECK_REG(132, x0, 0)
    auipc x0, 1
    CHECK_REG(133, x0, 0)
    sub t3, x0, t1
    CHECK_REG(134, t3, -123)
    /* x0 as source reads zero */
    addi t3, x0, -1
    CHECK_REG(135, t3, 0xffffffff)
TEST_MAIN_END("rv32i_alu")
