/* User mode: entering U via mret with MPP = 0, U-mode code running normally
 * (loads, stores, calls), ecall from U (cause 8, mepc = the ecall, MPP = U
 * in the trap's mstatus), ebreak from U (3), U-mode access to M-mode CSRs
 * (mscratch, mstatus) and mret in U trapping as illegal instructions (2,
 * mtval = instruction bits), cycle with mcounteren = 0 trapping, and M-mode
 * interrupts being enabled in U-mode even with mstatus.MIE = 0.
 *
 * NOTE: a hart with PMP denies all U-mode accesses until a PMP entry allows
 * them, so main first programs PMP entry 0 as NAPOT over the whole address
 * space with RWX (pmpaddr0 = all ones, pmpcfg0 = 0x1f). */
#include "rt.h"

#define MSTATUS_MIE  (1u << 3)
#define MSTATUS_MPIE (1u << 7)
#define MSTATUS_MPP  (3u << 11)
#define SYS_EXIT 93
#define SYS_ADD100 1

/* uint32_t run_user(uint32_t (*fn)(void), void *user_sp): runs fn in U-mode
 * with sp = user_sp and returns fn's result. fn returns to user_return,
 * which leaves U-mode through ecall SYS_EXIT; the hook resumes at m_resume
 * in M-mode, which restores the M-mode sp and callee-saved registers. */
__asm__(
    ".text\n"
    ".option push\n"
    ".option norvc\n"
    ".globl run_user, m_resume\n"
    "run_user:\n"
    "  addi sp, sp, -64\n"
    "  sw ra, 60(sp)\n  sw s0, 56(sp)\n  sw s1, 52(sp)\n  sw s2, 48(sp)\n"
    "  sw s3, 44(sp)\n  sw s4, 40(sp)\n  sw s5, 36(sp)\n  sw s6, 32(sp)\n"
    "  sw s7, 28(sp)\n  sw s8, 24(sp)\n  sw s9, 20(sp)\n  sw s10, 16(sp)\n"
    "  sw s11, 12(sp)\n"
    "  la t0, saved_msp\n"
    "  sw sp, 0(t0)\n"
    "  sw tp, 4(t0)\n"                      /* M-mode's stack descriptor */
    "  la tp, user_stack_desc + 8\n"         /* RT_TP_OFFSET: the user stack's descriptor */
    "  csrw mepc, a0\n"
    "  li t0, 0x1880\n" /* MPP = U, MPIE = 0 (so MIE = 0 in U-mode) */
    "  csrc mstatus, t0\n"
    "  mv sp, a1\n"
    "  la ra, user_return\n"
    "  mret\n"
    "user_return:\n"
    "  li a7, 93\n"
    "  ecall\n"
    "1: j 1b\n"
    "m_resume:\n"
    "  la t0, saved_msp\n"
    "  lw sp, 0(t0)\n"
    "  lw tp, 4(t0)\n"
    "  lw ra, 60(sp)\n  lw s0, 56(sp)\n  lw s1, 52(sp)\n  lw s2, 48(sp)\n"
    "  lw s3, 44(sp)\n  lw s4, 40(sp)\n  lw s5, 36(sp)\n  lw s6, 32(sp)\n"
    "  lw s7, 28(sp)\n  lw s8, 24(sp)\n  lw s9, 20(sp)\n  lw s10, 16(sp)\n"
    "  lw s11, 12(sp)\n"
    "  addi sp, sp, 64\n"
    "  ret\n"
    /* U-mode bodies with labelled trapping instructions */
    ".globl u_ecall, u_site_ecall\n"
    "u_ecall:\n"
    "  li a0, 5\n"
    "  li a7, 1\n"
    "u_site_ecall: ecall\n"
    "  ret\n"
    ".globl u_ebreak, u_site_ebreak\n"
    "u_ebreak:\n"
    "  li a0, 9\n"
    "u_site_ebreak: ebreak\n"
    "  ret\n"
    ".globl u_csr, u_site_csr1, u_site_csr2, u_site_csr3\n"
    "u_csr:\n"
    "  li a0, 3\n"
    "u_site_csr1: csrr a0, mscratch\n"  /* traps; a0 stays 3 */
    "u_site_csr2: csrw mstatus, zero\n"
    "u_site_csr3: csrr a1, cycle\n"     /* mcounteren = 0: traps */
    "  ret\n"
    ".globl u_mret, u_site_mret\n"
    "u_mret:\n"
    "  li a0, 4\n"
    "u_site_mret: mret\n"
    "  ret\n"
    ".globl u_first\n"
    "u_first:\n"
    "  li a0, 11\n"
    "  ret\n"
    ".option pop\n");

uint32_t run_user(uint32_t (*fn)(void), void *user_sp);
uint32_t u_ecall(void), u_ebreak(void), u_csr(void), u_mret(void), u_first(void);
extern const char m_resume[], u_site_ecall[], u_site_ebreak[], u_site_csr1[], u_site_csr2[],
    u_site_csr3[], u_site_mret[];

/* The M-mode sp ([0]) and tp ([1]) while U-mode code runs (run_user saves, m_resume
 * restores them). */
uint32_t saved_msp[2];
_Static_assert(RT_TP_OFFSET == 8, "run_user points tp at user_stack_desc + 8");
static uint32_t user_stack[256] __attribute__((aligned(16)));
/* The user stack's stack-check descriptor (docs/stack-checks.md): run_user points tp just
 * past it, so code built with `cactus cc` checks the stack it really runs on. */
struct rt_stack_desc user_stack_desc = { 0, { (uint32_t)(uintptr_t)user_stack } };
static void *user_sp(void) { return &user_stack[256]; }

#define MAX_LOG 8
static volatile uint32_t log_n;
static volatile uint32_t log_cause[MAX_LOG], log_epc[MAX_LOG], log_tval[MAX_LOG], log_mpp[MAX_LOG];

/* Ordinary C run in U-mode: uses its stack and global memory. */
static volatile uint32_t user_data[16];
static uint32_t __attribute__((noinline)) u_sum(uint32_t n)
{
    return n == 0 ? 0 : n + u_sum(n - 1);
}
static uint32_t u_work(void)
{
    for (uint32_t i = 0; i < 16; i++)
        user_data[i] = i * i;
    uint32_t acc = 0;
    for (uint32_t i = 0; i < 16; i++)
        acc += user_data[i];
    return acc + u_sum(20); /* 1240 + 210 */
}

static void hook(struct rt_trap_frame *f)
{
    uint32_t mpp = (f->mstatus & MSTATUS_MPP) >> 11;
    if (f->mcause == 8 && f->x[17] == SYS_EXIT) {
        f->mepc = (uint32_t)m_resume;
        f->mstatus |= MSTATUS_MPP; /* resume in M-mode */
        return;
    }
    if (log_n < MAX_LOG) {
        log_cause[log_n] = f->mcause;
        log_epc[log_n] = f->mepc;
        log_tval[log_n] = f->mtval;
        log_mpp[log_n] = mpp;
        log_n++;
    }
    if (f->mcause == 0x80000003u) { /* machine software interrupt */
        rt_mmio_write32(RT_CLINT_MSIP, 0);
        return;
    }
    if (f->mcause == 8 && f->x[17] == SYS_ADD100)
        f->x[10] += 100;
    f->mepc += rt_insn_len(f->mepc);
}

static void expect(uint32_t id, uint32_t i, uint32_t cause, uint32_t epc, uint32_t tval)
{
    CHECK_EQ(id, log_cause[i], cause);
    CHECK_EQ(id + 1, log_epc[i], epc);
    CHECK_EQ(id + 2, log_tval[i], tval);
    CHECK_EQ(id + 3, log_mpp[i], 0); /* trapped from U */
}

static uint32_t insn_at(const char *p)
{
    return *(const uint32_t *)p;
}

int main(void)
{
    /* PMP entry 0: NAPOT over everything, RWX, so U-mode may access memory. */
    csr_write(pmpaddr0, 0xffffffffu);
    csr_write(pmpcfg0, 0x1f);
    csr_write(mcounteren, 0);
    rt_set_trap_hook(hook);

    rt_puts("plain code in U\n");
    CHECK_EQ(4, run_user(u_work, user_sp()), 1450);
    CHECK_EQ(5, log_n, 0);
    CHECK_EQ(6, user_data[15], 225);

    rt_puts("ecall from U\n");
    CHECK_EQ(1, run_user(u_ecall, user_sp()), 105);
    CHECK_EQ(2, log_n, 1);
    expect(10, 0, 8, (uint32_t)u_site_ecall, 0);
    CHECK_EQ(3, (csr_read(mstatus) & MSTATUS_MPP) >> 11, 0); /* after the exit trap's mret */

    rt_puts("ebreak from U\n");
    log_n = 0;
    CHECK_EQ(20, run_user(u_ebreak, user_sp()), 9);
    CHECK_EQ(21, log_n, 1);
    expect(30, 0, 3, (uint32_t)u_site_ebreak, 0);

    rt_puts("M-mode CSRs from U\n");
    log_n = 0;
    csr_write(mscratch, 0x1234);
    uint32_t status_before = csr_read(mstatus) & ~MSTATUS_MPP;
    CHECK_EQ(40, run_user(u_csr, user_sp()), 3);
    CHECK_EQ(41, log_n, 3);
    expect(50, 0, 2, (uint32_t)u_site_csr1, insn_at(u_site_csr1));
    expect(60, 1, 2, (uint32_t)u_site_csr2, insn_at(u_site_csr2));
    expect(70, 2, 2, (uint32_t)u_site_csr3, insn_at(u_site_csr3));
    CHECK_EQ(42, csr_read(mscratch), 0x1234);
    CHECK_EQ(43, csr_read(mstatus) & ~MSTATUS_MPP, status_before);

    rt_puts("mret from U\n");
    log_n = 0;
    CHECK_EQ(80, run_user(u_mret, user_sp()), 4);
    CHECK_EQ(81, log_n, 1);
    expect(90, 0, 2, (uint32_t)u_site_mret, insn_at(u_site_mret));

    rt_puts("M interrupts are enabled in U even with MIE=0\n");
    log_n = 0;
    csr_clear(mstatus, MSTATUS_MIE);
    csr_write(mie, 1u << 3);                  /* MSIE */
    rt_mmio_write32(RT_CLINT_MSIP, 1);
    CHECK_EQ(100, (csr_read(mip) >> 3) & 1, 1); /* pending, not taken in M */
    CHECK_EQ(101, log_n, 0);
    CHECK_EQ(102, run_user(u_first, user_sp()), 11);
    CHECK_EQ(103, log_n, 1);
    expect(110, 0, 0x80000003u, (uint32_t)u_first, 0);
    CHECK_EQ(104, (csr_read(mip) >> 3) & 1, 0);
    csr_write(mie, 0);

    rt_set_trap_hook(0);
    return rt_summary("umode");
}
