/* fence and fence.i. Self-modifying code: the program writes instruction
 * encodings into a buffer in a writable data page, executes fence.i, calls
 * the buffer, then rewrites it with a different immediate (and with 16-bit
 * instructions), executes fence.i again and checks the new code runs.
 * Also executes every fence form the assembler accepts (they must not trap
 * and must not change registers or memory). */
#include "rt.h"

/* Encodings built from fields so the test states what it writes. */
static uint32_t enc_addi(uint32_t rd, uint32_t rs1, int32_t imm)
{
    return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | 0u << 12 | rd << 7 | 0x13;
}
#define RET_32 0x00008067u  /* jalr x0, 0(ra) */
#define C_JR_RA 0x8082u     /* c.jr ra */
static uint16_t enc_c_addi(uint32_t rd, int32_t imm)
{
    uint32_t u = (uint32_t)imm & 0x3f;
    return (uint16_t)(0x0001u | ((u & 0x1f) << 2) | (rd << 7) | ((u >> 5) << 12));
}

/* Writable, 4-byte aligned code buffer in .data (not in the .text pages). */
static uint32_t code_buf[16] __attribute__((aligned(64)));

typedef uint32_t (*fn1)(uint32_t);

static uint32_t call_buf(uint32_t arg)
{
    __asm__ volatile("fence.i" ::: "memory");
    fn1 f = (fn1)(uintptr_t)code_buf;
    return f(arg);
}

int main(void)
{
    rt_puts("fence forms\n");
    volatile uint32_t mem = 0x1234;
    uint32_t r = 77;
    __asm__ volatile("fence\n"
                     "fence rw, rw\n"
                     "fence r, r\n"
                     "fence w, w\n"
                     "fence r, rw\n"
                     "fence rw, w\n"
                     "fence iorw, iorw\n"
                     "fence io, io\n"
                     "fence.tso\n"
                     "fence.i\n"
                     : "+r"(r)::"memory");
    CHECK(r == 77);
    CHECK(mem == 0x1234);

    rt_puts("self-modifying code\n");
    code_buf[0] = enc_addi(10, 10, 5); /* addi a0, a0, 5 */
    code_buf[1] = RET_32;
    CHECK_EQ(1, call_buf(100), 105);

    code_buf[0] = enc_addi(10, 10, -2048);
    CHECK_EQ(2, call_buf(100), 100 - 2048);

    code_buf[0] = enc_addi(10, 10, 1);
    code_buf[1] = enc_addi(10, 10, 2);
    code_buf[2] = enc_addi(10, 10, 4);
    code_buf[3] = RET_32;
    CHECK_EQ(3, call_buf(0), 7);

    /* Rewrite only the middle instruction of a block that already ran. */
    code_buf[1] = enc_addi(10, 10, 64);
    CHECK_EQ(4, call_buf(0), 69);

    /* 16-bit code: c.addi a0, 7 ; c.addi a0, -3 ; c.jr ra */
    uint16_t *h = (uint16_t *)code_buf;
    h[0] = enc_c_addi(10, 7);
    h[1] = enc_c_addi(10, -3);
    h[2] = C_JR_RA;
    CHECK_EQ(5, call_buf(10), 14);

    /* A loop rewriting one immediate per iteration. */
    uint32_t sum = 0;
    for (int32_t k = 0; k < 20; k++) {
        code_buf[0] = enc_addi(10, 10, k * 3);
        code_buf[1] = RET_32;
        sum += call_buf(1000);
    }
    CHECK_EQ(6, sum, 20 * 1000 + 3 * 190);

    return rt_summary("fence_i");
}
