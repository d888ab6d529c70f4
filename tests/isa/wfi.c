/* WFI with interrupts:
 * - MIE=1, MTIE=1, timer armed: wfi stalls until the timer fires, the
 *   interrupt is taken with mepc = the instruction after the wfi, and the
 *   handler runs exactly once;
 * - MIE=0, MTIE=1: wfi still wakes when MTIP becomes pending, but no trap is
 *   taken; the trap follows as soon as MIE is set;
 * - a software interrupt already pending (MSIE=1, MIE=0): wfi returns at
 *   once without trapping.
 * Only ordering is checked, never how long the wait took. */
#include "rt.h"

#define MIP_MSIP (1u << 3)
#define MIP_MTIP (1u << 7)
#define MSTATUS_MIE (1u << 3)
#define DELTA 500

__asm__(
    ".text\n"
    ".option push\n"
    ".option norvc\n"
    ".globl wfi_once, after_wfi\n"
    "wfi_once:\n"
    "  wfi\n"
    "after_wfi:\n"
    "  ret\n"
    ".option pop\n");
void wfi_once(void);
extern const char after_wfi[];

static volatile uint32_t n_irq, last_cause, last_epc;
/* While set, a timer interrupt that arrives before the wfi has executed
 * (possible if the host pauses QEMU, since mtime follows host time) re-arms
 * the timer instead of counting, so the wfi still has something to wake it. */
static volatile uint32_t retry_early;

static void hook(struct rt_trap_frame *f)
{
    if (retry_early && f->mcause == 0x80000007u && f->mepc != (uint32_t)after_wfi) {
        rt_set_mtimecmp(rt_mtime() + DELTA);
        return;
    }
    n_irq++;
    last_cause = f->mcause;
    last_epc = f->mepc;
    if (f->mcause == 0x80000007u)
        rt_set_mtimecmp(~0ull);
    else if (f->mcause == 0x80000003u)
        rt_mmio_write32(RT_CLINT_MSIP, 0);
}

int main(void)
{
    rt_set_trap_hook(hook);
    csr_clear(mstatus, MSTATUS_MIE);
    rt_set_mtimecmp(~0ull);

    rt_puts("wfi with MIE=1 wakes into the timer handler\n");
    csr_write(mie, MIP_MTIP);
    retry_early = 1;
    csr_set(mstatus, MSTATUS_MIE);
    rt_set_mtimecmp(rt_mtime() + DELTA);
    wfi_once();
    retry_early = 0;
    CHECK(n_irq == 1);
    CHECK(last_cause == 0x80000007u);
    CHECK(last_epc == (uint32_t)after_wfi);

    rt_puts("wfi with MIE=0 wakes without a trap\n");
    csr_clear(mstatus, MSTATUS_MIE);
    rt_set_mtimecmp(rt_mtime() + DELTA);
    /* Wake-ups may be spurious in general; loop until MTIP is pending. */
    for (uint32_t i = 0; i < 100000 && (csr_read(mip) & MIP_MTIP) == 0; i++)
        wfi_once();
    CHECK((csr_read(mip) & MIP_MTIP) != 0);
    CHECK(n_irq == 1);
    csr_set(mstatus, MSTATUS_MIE);
    __asm__ volatile("nop");
    csr_clear(mstatus, MSTATUS_MIE);
    CHECK(n_irq == 2);
    CHECK(last_cause == 0x80000007u);

    rt_puts("wfi with an interrupt already pending returns\n");
    csr_write(mie, MIP_MSIP);
    rt_mmio_write32(RT_CLINT_MSIP, 1);
    CHECK((csr_read(mip) & MIP_MSIP) != 0);
    wfi_once();
    CHECK(n_irq == 2);
    csr_set(mstatus, MSTATUS_MIE);
    __asm__ volatile("nop");
    csr_clear(mstatus, MSTATUS_MIE);
    CHECK(n_irq == 3);
    CHECK(last_cause == 0x80000003u);

    csr_write(mie, 0);
    rt_set_trap_hook(0);
    return rt_summary("wfi");
}
