/* mstatus across traps and mret in M-mode: on trap entry MPIE <- MIE,
 * MIE <- 0, MPP <- M (3); on mret MIE <- MPIE, MPIE <- 1, MPP <- U (0, the
 * least-privileged mode, since U is implemented). mret returns to whatever
 * mepc holds: mepc + 4 skips the ecall, and a handler can redirect the
 * return elsewhere. A trap handler that takes a nested exception sees the
 * inner trap's MPIE/MPP. mret executed directly in M-mode (not from a trap)
 * follows the same rules. */
#include "rt.h"

#define MSTATUS_MIE  (1u << 3)
#define MSTATUS_MPIE (1u << 7)
#define MSTATUS_MPP  (3u << 11)

static volatile uint32_t seen_status, seen_mie_inside, traps;
static volatile uint32_t nested_status;

__asm__(
    ".text\n"
    ".option push\n"
    ".option norvc\n"
    /* uint32_t ecall_then_add(void): ecall, then a0 = 1 after the ecall.
     * If mret returned to the ecall itself, it would trap forever. */
    ".globl ecall_then_add\n"
    "ecall_then_add:\n"
    "  li a0, 0\n"
    "  ecall\n"
    "  addi a0, a0, 1\n"
    "  ret\n"
    /* uint32_t ecall_redirect(void): the handler redirects to redirect_target
     * (which returns 7); the instruction after the ecall would return 1. */
    ".globl ecall_redirect, redirect_target\n"
    "ecall_redirect:\n"
    "  li a0, 0\n"
    "  li a7, 1\n"
    "  ecall\n"
    "  li a0, 1\n"
    "  ret\n"
    "redirect_target:\n"
    "  li a0, 7\n"
    "  ret\n"
    /* uint32_t mret_to(uint32_t mstatus_bits): sets mepc to the next label,
     * sets mstatus, executes mret; returns mstatus read after it. */
    ".globl mret_to\n"
    "mret_to:\n"
    "  la t0, 1f\n"
    "  csrw mepc, t0\n"
    "  csrw mstatus, a0\n"
    "  mret\n"
    "1: csrr a0, mstatus\n"
    "  ret\n"
    ".option pop\n");

uint32_t ecall_then_add(void);
uint32_t ecall_redirect(void);
uint32_t mret_to(uint32_t mstatus_bits);
extern const char redirect_target[];

static void hook(struct rt_trap_frame *f)
{
    traps++;
    seen_status = f->mstatus;
    seen_mie_inside = csr_read(mstatus) & MSTATUS_MIE;
    if (f->mcause == 11 && f->x[17] == 1) { /* a7 == 1: redirect */
        f->x[17] = 0;
        f->mepc = (uint32_t)redirect_target;
        return;
    }
    if (f->mcause == 11 && f->x[17] == 2) { /* a7 == 2: nested ecall */
        f->x[17] = 0;
        uint32_t saved_epc = csr_read(mepc);
        /* Set MPIE/MPP to known values, then trap again from the handler:
         * the inner trap must overwrite them (MPIE <- MIE = 0, MPP <- 3). */
        csr_set(mstatus, MSTATUS_MPIE);
        csr_clear(mstatus, MSTATUS_MPP);
        __asm__ volatile("li a7, 0\n ecall" ::: "a7", "memory");
        nested_status = seen_status;
        csr_write(mepc, saved_epc);
    }
    f->mepc += 4;
}

int main(void)
{
    rt_set_trap_hook(hook);

    rt_puts("trap with MIE=1\n");
    csr_set(mstatus, MSTATUS_MIE);
    CHECK(ecall_then_add() == 1);
    CHECK(traps == 1);
    CHECK((seen_status & MSTATUS_MIE) == 0);      /* MIE cleared on entry */
    CHECK((seen_status & MSTATUS_MPIE) != 0);     /* MPIE = old MIE = 1 */
    CHECK((seen_status & MSTATUS_MPP) == MSTATUS_MPP); /* MPP = M */
    CHECK(seen_mie_inside == 0);
    uint32_t after = csr_read(mstatus);
    CHECK((after & MSTATUS_MIE) != 0);            /* MIE = MPIE = 1 */
    CHECK((after & MSTATUS_MPIE) != 0);           /* MPIE = 1 */
    CHECK((after & MSTATUS_MPP) == 0);            /* MPP = U */

    rt_puts("trap with MIE=0\n");
    csr_clear(mstatus, MSTATUS_MIE);
    CHECK(ecall_then_add() == 1);
    CHECK(traps == 2);
    CHECK((seen_status & MSTATUS_MIE) == 0);
    CHECK((seen_status & MSTATUS_MPIE) == 0);     /* MPIE = old MIE = 0 */
    CHECK((seen_status & MSTATUS_MPP) == MSTATUS_MPP);
    after = csr_read(mstatus);
    CHECK((after & MSTATUS_MIE) == 0);            /* MIE = MPIE = 0 */
    CHECK((after & MSTATUS_MPIE) != 0);           /* MPIE = 1 */
    CHECK((after & MSTATUS_MPP) == 0);

    rt_puts("handler redirects mepc\n");
    CHECK(ecall_redirect() == 7);
    CHECK(traps == 3);

    rt_puts("nested trap inside the handler\n");
    csr_set(mstatus, MSTATUS_MIE);
    __asm__ volatile("li a7, 2\n ecall" ::: "a7", "memory");
    CHECK(traps == 5);
    CHECK((nested_status & MSTATUS_MPIE) == 0);   /* handler ran with MIE = 0 */
    CHECK((nested_status & MSTATUS_MPP) == MSTATUS_MPP);
    csr_clear(mstatus, MSTATUS_MIE);

    rt_puts("mret without a trap\n");
    /* MPIE=1, MIE=0, MPP=M  ->  MIE=1, MPIE=1, MPP=U */
    after = mret_to(MSTATUS_MPIE | MSTATUS_MPP);
    CHECK((after & MSTATUS_MIE) != 0);
    CHECK((after & MSTATUS_MPIE) != 0);
    CHECK((after & MSTATUS_MPP) == 0);
    /* MPIE=0, MIE=1, MPP=M  ->  MIE=0, MPIE=1, MPP=U */
    after = mret_to(MSTATUS_MIE | MSTATUS_MPP);
    CHECK((after & MSTATUS_MIE) == 0);
    CHECK((after & MSTATUS_MPIE) != 0);
    CHECK((after & MSTATUS_MPP) == 0);
    /* MPP is WARL over {M, U}: writing M reads back M */
    csr_set(mstatus, MSTATUS_MPP);
    CHECK((csr_read(mstatus) & MSTATUS_MPP) == MSTATUS_MPP);
    csr_clear(mstatus, MSTATUS_MPP);
    CHECK((csr_read(mstatus) & MSTATUS_MPP) == 0);

    rt_set_trap_hook(0);
    return rt_summary("trap_mstatus");
}
