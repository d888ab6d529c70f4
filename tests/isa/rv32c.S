/* C extension: every RV32C integer instruction written with an explicit c.
 * mnemonic (the assembler must emit the 16-bit form; a build-time assertion
 * checks each is 2 bytes:
 * `.org` fails to assemble if it would have to move backwards), with immediate sign/zero extension edges:
 * c.addi4spn c.lw c.sw c.nop c.addi c.jal c.li c.addi16sp c.lui c.srli
 * c.srai c.andi c.sub c.xor c.or c.and c.j c.beqz c.bnez c.slli c.lwsp
 * c.jr c.mv c.jalr c.add c.swsp. (c.ebreak is covered by trap_exceptions.)
 * Also mixes 16- and 32-bit instructions so 32-bit ones sit at 2 mod 4. */
#include "asm_test.h"

/* Emits one compressed instruction and asserts at build time it is 16-bit. */
#define C1(...) 8001: __VA_ARGS__; .org 8001b + 2

    .option rvc
    .option norelax   /* keeps instruction sizes fixed so C1's .org check works */

    .data
    .balign 16
cdata:
    .word 0x11111111, 0x80000000, 0x7fffffff, 0xdeadbeef
    .space 112
    .word 0xcafef00d          /* cdata + 128 */

TEST_MAIN_BEGIN
    /* c.li: 6-bit signed immediate */
    C1(c.li a0, 31)
    CHECK_REG(1, a0, 31)
    C1(c.li a0, -32)
    CHECK_REG(2, a0, -32)
    C1(c.li s1, 0)
    CHECK_REG(3, s1, 0)
    /* c.lui: nzimm[17:12], sign-extended from bit 17 */
    C1(c.lui a0, 1)
    CHECK_REG(4, a0, 0x1000)
    C1(c.lui a0, 0x1f)
    CHECK_REG(5, a0, 0x1f000)
    C1(c.lui a0, 0xfffe0)
    CHECK_REG(6, a0, 0xfffe0000)
    C1(c.lui a0, 0xfffff)
    CHECK_REG(7, a0, 0xfffff000)
    /* c.addi */
    li a0, 10
    C1(c.addi a0, 31)
    CHECK_REG(8, a0, 41)
    li a0, 10
    C1(c.addi a0, -32)
    CHECK_REG(9, a0, -22)
    li a0, 0x7fffffff
    C1(c.addi a0, 1)
    CHECK_REG(10, a0, 0x80000000)
    /* c.nop changes nothing */
    li a0, 77
    C1(c.nop)
    CHECK_REG(11, a0, 77)
    /* c.mv / c.add */
    li a2, 0x12345678
    C1(c.mv a0, a2)
    CHECK_REG(12, a0, 0x12345678)
    li a0, 0x7fffffff
    li t0, 0x7fffffff
    C1(c.add a0, t0)
    CHECK_REG(13, a0, 0xfffffffe)
    /* c.slli / c.srli / c.srai, shift amounts 1 and 31 */
    li a0, 0x80000001
    C1(c.slli a0, 1)
    CHECK_REG(14, a0, 2)
    li t0, 1
    C1(c.slli t0, 31)
    CHECK_REG(15, t0, 0x80000000)
    li a0, 0x80000000
    C1(c.srli a0, 31)
    CHECK_REG(16, a0, 1)
    li s0, 0x80000000
    C1(c.srai s0, 31)
    CHECK_REG(17, s0, 0xffffffff)
    li s0, 0x80000000
    C1(c.srli s0, 1)
    CHECK_REG(18, s0, 0x40000000)
    li a5, 0x7ffffff0
    C1(c.srai a5, 4)
    CHECK_REG(19, a5, 0x07ffffff)
    /* c.andi: 6-bit signed immediate */
    li a0, 0xffffffff
    C1(c.andi a0, 31)
    CHECK_REG(20, a0, 31)
    li a0, 0x12345678
    C1(c.andi a0, -32)
    CHECK_REG(21, a0, 0x12345660)
    /* c.sub / c.xor / c.or / c.and on x8-x15 */
    li a0, 5
    li a1, 7
    C1(c.sub a0, a1)
    CHECK_REG(22, a0, -2)
    li a3, 0xff00ff00
    li a4, 0x0ff00ff0
    C1(c.xor a3, a4)
    CHECK_REG(23, a3, 0xf0f0f0f0)
    li a3, 0xff00ff00
    li a4, 0x0ff00ff0
    C1(c.or a3, a4)
    CHECK_REG(24, a3, 0xfff0fff0)
    li a3, 0xff00ff00
    li a4, 0x0ff00ff0
    C1(c.and a3, a4)
    CHECK_REG(25, a3, 0x0f000f00)

    /* c.lw / c.sw with offsets 0 and 124 */
    la s1, cdata
    C1(c.lw a0, 0(s1))
    CHECK_REG(30, a0, 0x11111111)
    C1(c.lw a0, 4(s1))
    CHECK_REG(31, a0, 0x80000000)
    C1(c.lw a0, 12(s1))
    CHECK_REG(32, a0, 0xdeadbeef)
    addi s0, s1, 4
    C1(c.lw a0, 124(s0))
    CHECK_REG(33, a0, 0xcafef00d)
    li a2, 0x600dcafe
    C1(c.sw a2, 124(s1))
    lw a0, 124(s1)
    CHECK_REG(34, a0, 0x600dcafe)
    li a2, 0x13572468
    C1(c.sw a2, 0(s1))
    lw a0, 0(s1)
    CHECK_REG(35, a0, 0x13572468)

    /* sp-relative: c.addi16sp, c.addi4spn, c.swsp, c.lwsp */
    mv s1, sp
    C1(c.addi16sp sp, -512)
    sub a0, s1, sp
    CHECK_REG(40, a0, 512)
    C1(c.addi16sp sp, 496)
    sub a0, s1, sp
    CHECK_REG(41, a0, 16)
    C1(c.addi16sp sp, -128)       /* frame of 144 below the original sp */
    li a1, 0x0a0b0c0d
    C1(c.swsp a1, 0(sp))
    li a2, 0x01020304
    C1(c.swsp a2, 124(sp))
    C1(c.lwsp a3, 0(sp))
    C1(c.lwsp t0, 124(sp))
    mv s0, t0
    CHECK_REG(42, a3, 0x0a0b0c0d)
    CHECK_REG(43, s0, 0x01020304)
    C1(c.addi4spn a0, sp, 4)
    sub a0, a0, sp
    CHECK_REG(44, a0, 4)
    C1(c.addi4spn a0, sp, 1020)
    sub a0, a0, sp
    CHECK_REG(45, a0, 1020)
    C1(c.addi4spn s0, sp, 124)
    lw a0, 0(s0)
    CHECK_REG(46, a0, 0x01020304)
    C1(c.addi16sp sp, 144)
    sub a0, s1, sp
    CHECK_REG(47, a0, 0)

    /* c.beqz / c.bnez taken and not taken */
    li s0, 0
    li a0, 0
    C1(c.beqz s0, 1f)
    li a0, 1
1:  CHECK_REG(50, a0, 0)
    li s0, 0x80000000
    li a0, 0
    C1(c.beqz s0, 1f)
    li a0, 1
1:  CHECK_REG(51, a0, 1)
    li s0, 0x80000000
    li a0, 0
    C1(c.bnez s0, 1f)
    li a0, 1
1:  CHECK_REG(52, a0, 0)
    li s0, 0
    li a0, 0
    C1(c.bnez s0, 1f)
    li a0, 1
1:  CHECK_REG(53, a0, 1)
    /* backward c.bnez loop */
    li s0, 8
    li s1, 0
2:  C1(c.addi s1, 3)
    C1(c.addi s0, -1)
    C1(c.bnez s0, 2b)
    CHECK_REG(54, s1, 24)

    /* c.j */
    li a0, 0
    C1(c.j 3f)
    li a0, 1
3:  CHECK_REG(55, a0, 0)

    /* c.jal links pc+2 */
    C1(c.jal 4f)
5:  j 6f
4:  mv s0, ra
    la s1, 5b
    CHECK_REGS(56, s0, s1)
    mv ra, s0
    C1(c.jr ra)
6:
    /* c.jalr links pc+2; c.jr to a register other than ra */
    la s1, 7f
    C1(c.jalr s1)
8:  j 9f
7:  mv s0, ra
    la s1, 8b
    CHECK_REGS(57, s0, s1)
    mv t1, s0
    C1(c.jr t1)
9:
    /* a 32-bit instruction at an address that is 2 mod 4 */
    .balign 4
    C1(c.li a0, 1)
    addi a0, a0, 0x100        /* 32-bit, misaligned to 2 mod 4 */
    C1(c.addi a0, 2)
    CHECK_REG(58, a0, 0x103)
TEST_MAIN_END("rv32c")
