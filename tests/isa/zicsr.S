/* Zicsr: csrrw/csrrs/csrrc and csrrwi/csrrsi/csrrci on mscratch (old value
 * returned in rd, write/set/clear semantics), rd = x0 (no read result),
 * rs1 = x0 / uimm = 0 for set/clear (no write, so read-only CSRs can be read
 * with csrrs/csrrc), rd == rs1 (swap), misa (MXL = 1 for RV32 and the I, M,
 * A, C bits; other bits are not checked because QEMU also reports F/D/S),
 * mhartid = 0, mcause/mtval read/write, a CSR named by number.
 * NOTE: the spec says mepc bit 0 reads as zero; QEMU 7.2 returns the bit as
 * written, so that is deliberately not checked. */
#include "asm_test.h"

TEST_MAIN_BEGIN
    /* csrrw: returns old, writes new */
    li t1, 0x12345678
    csrw mscratch, t1
    li t2, 0xcafebabe
    csrrw t3, mscratch, t2
    CHECK_REG(1, t3, 0x12345678)
    csrr t3, mscratch
    CHECK_REG(2, t3, 0xcafebabe)
    /* csrrs: returns old, sets bits */
    li t1, 0x00ff00ff
    csrw mscratch, t1
    li t2, 0x0f0f0f0f
    csrrs t3, mscratch, t2
    CHECK_REG(3, t3, 0x00ff00ff)
    csrr t3, mscratch
    CHECK_REG(4, t3, 0x0fff0fff)
    /* csrrc: returns old, clears bits */
    li t2, 0x0f0f0f0f
    csrrc t3, mscratch, t2
    CHECK_REG(5, t3, 0x0fff0fff)
    csrr t3, mscratch
    CHECK_REG(6, t3, 0x00f000f0)
    /* immediate forms (5-bit zero-extended uimm) */
    csrrwi t3, mscratch, 31
    CHECK_REG(7, t3, 0x00f000f0)
    csrr t3, mscratch
    CHECK_REG(8, t3, 31)
    csrrci t3, mscratch, 0x15
    CHECK_REG(9, t3, 31)
    csrr t3, mscratch
    CHECK_REG(10, t3, 0x0a)
    csrrsi t3, mscratch, 0x11
    CHECK_REG(11, t3, 0x0a)
    csrr t3, mscratch
    CHECK_REG(12, t3, 0x1b)
    csrrwi t3, mscratch, 0
    CHECK_REG(13, t3, 0x1b)
    csrr t3, mscratch
    CHECK_REG(14, t3, 0)
    /* rd = x0: csrw / csrs / csrc / csrwi / csrsi / csrci pseudo-forms */
    li t1, -1
    csrw mscratch, t1
    li t1, 0xf0
    csrc mscratch, t1
    csrr t3, mscratch
    CHECK_REG(20, t3, 0xffffff0f)
    csrci mscratch, 0xf
    csrr t3, mscratch
    CHECK_REG(21, t3, 0xffffff00)
    csrwi mscratch, 5
    csrsi mscratch, 0x18
    csrr t3, mscratch
    CHECK_REG(22, t3, 0x1d)
    li t1, 0x80000000
    csrs mscratch, t1
    csrr t3, mscratch
    CHECK_REG(23, t3, 0x8000001d)
    /* rs1 = x0 / uimm = 0: pure reads, value unchanged */
    csrrs t3, mscratch, x0
    CHECK_REG(24, t3, 0x8000001d)
    csrrc t3, mscratch, x0
    CHECK_REG(25, t3, 0x8000001d)
    csrrsi t3, mscratch, 0
    csrrci t3, mscratch, 0
    CHECK_REG(26, t3, 0x8000001d)
    csrr t3, mscratch
    CHECK_REG(27, t3, 0x8000001d)
    /* csrrw with rd == rs1: a swap */
    li t1, 0x600d
    csrrw t1, mscratch, t1
    CHECK_REG(28, t1, 0x8000001d)
    csrr t3, mscratch
    CHECK_REG(29, t3, 0x600d)
    /* csrrw with rd = x0 and rs1 = x0 writes zero */
    csrrw x0, mscratch, x0
    csrr t3, mscratch
    CHECK_REG(30, t3, 0)
    /* csrrs/csrrc write nothing for rs1 = x0 even for a read-only CSR:
     * reading mhartid this way must not trap */
    csrrs t3, mhartid, x0
    CHECK_REG(31, t3, 0)
    csrrc t3, mhartid, x0
    CHECK_REG(32, t3, 0)
    csrrsi t3, mhartid, 0
    CHECK_REG(33, t3, 0)
    /* misa: MXL (bits 31:30) = 1, and I (8), M (12), A (0), C (2) set */
    csrr s0, misa
    srli t3, s0, 30
    CHECK_REG(40, t3, 1)
    srli t3, s0, 8
    andi t3, t3, 1
    CHECK_REG(41, t3, 1)
    srli t3, s0, 12
    andi t3, t3, 1
    CHECK_REG(42, t3, 1)
    andi t3, s0, 1
    CHECK_REG(43, t3, 1)
    srli t3, s0, 2
    andi t3, t3, 1
    CHECK_REG(44, t3, 1)
    /* E (bit 4) is clear on an RV32I hart */
    srli t3, s0, 4
    andi t3, t3, 1
    CHECK_REG(45, t3, 0)
    /* mcause and mtval are plain read/write in M-mode */
    li t1, 0x8000000b
    csrw mcause, t1
    csrr t3, mcause
    CHECK_REG(51, t3, 0x8000000b)
    li t1, 0xa5a5a5a5
    csrw mtval, t1
    csrr t3, mtval
    CHECK_REG(52, t3, 0xa5a5a5a5)
    csrw mcause, zero
    csrw mtval, zero
    /* CSR by number: 0x340 is mscratch */
    li t1, 0x3141
    csrw 0x340, t1
    csrr t3, mscratch
    CHECK_REG(53, t3, 0x3141)
TEST_MAIN_END("zicsr")
