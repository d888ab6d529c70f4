/* Synchronous exceptions in M-mode, taken through the common trap entry:
 * ecall (cause 11), ebreak and c.ebreak (3), illegal instructions (2) with
 * mtval = the instruction bits (32- and 16-bit; for ebreak QEMU writes
 * mtval = 0, which the spec allows), load/store/fetch access
 * faults (5/7/1) at an address neither QEMU virt nor cactus-sim decodes with
 * mtval = that address, a faulting load leaving rd unchanged, and mepc
 * pointing at the trapping instruction (the handler returns to mepc + len,
 * or redirects to ra for a fetch fault). Exceptions are taken even with
 * mstatus.MIE = 0. */
#include "rt.h"

/* An address in neither QEMU virt's memory map nor cactus-sim's. */
#define UNMAPPED 0x00800000u

/* Each helper is a tiny function with a global label on the trapping
 * instruction, so the test knows the exact mepc to expect. */
__asm__(
    ".text\n"
    ".option push\n"
    ".option norvc\n"
    ".globl do_ecall, site_ecall\n"
    "do_ecall:\n"
    "site_ecall: ecall\n"
    "  ret\n"
    ".globl do_ebreak, site_ebreak\n"
    "do_ebreak:\n"
    "site_ebreak: ebreak\n"
    "  ret\n"
    ".globl do_illegal_csr, site_illegal_csr\n"
    "do_illegal_csr:\n"
    "site_illegal_csr: .word 0xc0001073\n" /* csrrw x0, cycle, x0: write to read-only */
    "  ret\n"
    ".globl do_illegal_custom, site_illegal_custom\n"
    "do_illegal_custom:\n"
    "site_illegal_custom: .word 0x0000000b\n" /* custom-0 opcode */
    "  ret\n"
    ".globl do_illegal_mhartid, site_illegal_mhartid\n"
    "do_illegal_mhartid:\n"
    "site_illegal_mhartid: csrw mhartid, a0\n" /* read-only CSR */
    "  ret\n"
    ".option rvc\n"
    ".globl do_cebreak, site_cebreak\n"
    "do_cebreak:\n"
    "site_cebreak: c.ebreak\n"
    "  c.jr ra\n"
    ".globl do_illegal16, site_illegal16\n"
    "do_illegal16:\n"
    "site_illegal16: .half 0x0000\n" /* the all-zero 16-bit instruction is illegal */
    "  c.jr ra\n"
    ".globl do_illegal_addi4spn, site_illegal_addi4spn\n"
    "do_illegal_addi4spn:\n"
    "site_illegal_addi4spn: .half 0x0004\n" /* c.addi4spn with nzuimm = 0: reserved */
    "  c.jr ra\n"
    ".option norvc\n"
    /* uint32_t do_load_fault(uint32_t addr): returns a0 as left by the load */
    ".globl do_load_fault, site_load_fault\n"
    "do_load_fault:\n"
    "  mv t0, a0\n"
    "  li a0, 0x55\n"
    "site_load_fault: lw a0, 0(t0)\n"
    "  ret\n"
    ".globl do_store_fault, site_store_fault\n"
    "do_store_fault:\n"
    "site_store_fault: sw a1, 0(a0)\n"
    "  ret\n"
    ".globl do_byte_load_fault, site_byte_load_fault\n"
    "do_byte_load_fault:\n"
    "site_byte_load_fault: lbu a0, 3(a0)\n"
    "  ret\n"
    ".globl do_fetch_fault\n"
    "do_fetch_fault:\n"
    "  jr a0\n"
    ".option pop\n");

void do_ecall(void);
void do_ebreak(void);
void do_cebreak(void);
void do_illegal_csr(void);
void do_illegal_custom(void);
void do_illegal_mhartid(void);
void do_illegal16(void);
void do_illegal_addi4spn(void);
uint32_t do_load_fault(uint32_t addr);
void do_store_fault(uint32_t addr, uint32_t value);
uint32_t do_byte_load_fault(uint32_t addr);
void do_fetch_fault(uint32_t addr);
extern const char site_ecall[], site_ebreak[], site_cebreak[], site_illegal_csr[],
    site_illegal_custom[], site_illegal_mhartid[], site_illegal16[], site_illegal_addi4spn[], site_load_fault[],
    site_store_fault[], site_byte_load_fault[];

static volatile uint32_t trap_count;
static volatile uint32_t last_cause, last_epc, last_tval, last_status;

static void record_and_skip(struct rt_trap_frame *f)
{
    trap_count++;
    last_cause = f->mcause;
    last_epc = f->mepc;
    last_tval = f->mtval;
    last_status = f->mstatus;
    if (f->mcause == 1)
        f->mepc = f->x[1]; /* fetch fault: return to the caller */
    else
        f->mepc += rt_insn_len(f->mepc);
}

static void expect_trap(uint32_t id, uint32_t before, uint32_t cause, const char *epc,
                        uint32_t tval)
{
    CHECK_EQ(id, trap_count, before + 1);
    CHECK_EQ(id + 1, last_cause, cause);
    CHECK_EQ(id + 2, last_epc, (uint32_t)epc);
    CHECK_EQ(id + 3, last_tval, tval);
}

int main(void)
{
    rt_set_trap_hook(record_and_skip);
    uint32_t n;

    rt_puts("ecall\n");
    n = trap_count;
    do_ecall();
    expect_trap(100, n, 11, site_ecall, 0);

    rt_puts("ebreak\n");
    n = trap_count;
    do_ebreak();
    expect_trap(110, n, 3, site_ebreak, 0); /* QEMU writes mtval = 0 (allowed) */
    n = trap_count;
    do_cebreak();
    expect_trap(120, n, 3, site_cebreak, 0);

    rt_puts("illegal instructions\n");
    n = trap_count;
    do_illegal_csr();
    expect_trap(200, n, 2, site_illegal_csr, 0xc0001073);
    n = trap_count;
    do_illegal_custom();
    expect_trap(210, n, 2, site_illegal_custom, 0x0000000b);
    n = trap_count;
    do_illegal_mhartid();
    expect_trap(220, n, 2, site_illegal_mhartid, *(const uint32_t *)site_illegal_mhartid);
    n = trap_count;
    do_illegal16();
    expect_trap(230, n, 2, site_illegal16, 0);
    n = trap_count;
    do_illegal_addi4spn();
    expect_trap(240, n, 2, site_illegal_addi4spn, 0x0004);

    rt_puts("access faults\n");
    n = trap_count;
    CHECK_EQ(300, do_load_fault(UNMAPPED), 0x55); /* rd unchanged */
    expect_trap(301, n, 5, site_load_fault, UNMAPPED);
    n = trap_count;
    do_store_fault(UNMAPPED + 8, 0x1234);
    expect_trap(310, n, 7, site_store_fault, UNMAPPED + 8);
    n = trap_count;
    do_byte_load_fault(UNMAPPED + 0x100);
    expect_trap(320, n, 5, site_byte_load_fault, UNMAPPED + 0x103);
    n = trap_count;
    do_fetch_fault(UNMAPPED + 0x40);
    expect_trap(330, n, 1, (const char *)(UNMAPPED + 0x40), UNMAPPED + 0x40);

    rt_puts("exceptions with MIE=0 and MIE=1\n");
    csr_clear(mstatus, 0x8);
    n = trap_count;
    do_ecall();
    expect_trap(400, n, 11, site_ecall, 0);
    CHECK_EQ(404, (last_status >> 11) & 3, 3); /* MPP = M */
    csr_set(mstatus, 0x8);
    n = trap_count;
    do_ecall();
    expect_trap(410, n, 11, site_ecall, 0);
    csr_clear(mstatus, 0x8);

    rt_set_trap_hook(0);
    return rt_summary("trap_exceptions");
}
