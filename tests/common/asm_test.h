/* Macros for self-checking assembly tests (.S files, C preprocessor).
 *
 * Every check calls rt_check_eq(id, got, expected) (rt.c), which counts it
 * and prints a line for a mismatch. rt_check_eq is a C function: it may
 * clobber every caller-saved register (ra, t0-t6, a0-a7), so a test keeps
 * values that must survive a check in s0-s11. A test's main saves ra in
 * TEST_MAIN_BEGIN and ends with TEST_MAIN_END(name), which prints the
 * summary and returns the failure count.
 * crt0 does not rely on callee-saved registers after main returns, so test
 * mains may use s0-s11 freely.
 */
#ifndef CACTUS_TESTS_ASM_TEST_H
#define CACTUS_TESTS_ASM_TEST_H

#define TEST_MAIN_BEGIN       \
    .text;                    \
    .globl main;              \
    .balign 4;                \
main:                         \
    addi sp, sp, -16;         \
    sw ra, 12(sp)

#define TEST_MAIN_END(namestr)   \
    la a0, 9001f;                \
    call rt_summary;             \
    lw ra, 12(sp);               \
    addi sp, sp, 16;             \
    ret;                         \
    .pushsection .rodata.str;    \
9001: .asciz namestr;            \
    .popsection

/* Checks that register reg holds exp (a constant). */
#define CHECK_REG(id, reg, exp) \
    mv a1, reg;                 \
    li a2, exp;                 \
    li a0, id;                  \
    call rt_check_eq

/* Checks that register reg equals register expreg. */
#define CHECK_REGS(id, reg, expreg) \
    mv a1, reg;                     \
    mv a2, expreg;                  \
    li a0, id;                      \
    call rt_check_eq

/* rd = inst(v1, v2) with register operands; check rd == exp. */
#define TEST_RR(id, inst, exp, v1, v2) \
    li t1, v1;                          \
    li t2, v2;                          \
    inst t3, t1, t2;                    \
    CHECK_REG(id, t3, exp)

/* rd = inst(v1, imm); check rd == exp. */
#define TEST_RI(id, inst, exp, v1, imm) \
    li t1, v1;                           \
    inst t3, t1, imm;                    \
    CHECK_REG(id, t3, exp)

/* Same source and destination register: rd = inst(rd, rd). */
#define TEST_RR_SAME(id, inst, exp, v1) \
    li t1, v1;                           \
    inst t1, t1, t1;                     \
    CHECK_REG(id, t1, exp)

#endif
