/* Machine software interrupt through the CLINT msip register (0x0200_0000):
 * writing 1 sets mip.MSIP, writing 0 clears it; it is taken (mcause
 * 0x8000_0003, mepc = an instruction of the interrupted code) only with
 * mie.MSIE and mstatus.MIE set; the handler clears msip and returns to the
 * interrupted code; and when software and timer interrupts are both pending
 * and enabled, the software interrupt is taken first (priority MSI > MTI). */
#include "rt.h"

#define MIP_MSIP (1u << 3)
#define MIP_MTIP (1u << 7)
#define MSTATUS_MIE (1u << 3)
#define SPIN_LIMIT 20000000u

static volatile uint32_t order[4], n_irq, bad;

static void hook(struct rt_trap_frame *f)
{
    if (n_irq < 4)
        order[n_irq] = f->mcause;
    n_irq++;
    if (f->mcause == 0x80000003u)
        rt_mmio_write32(RT_CLINT_MSIP, 0);
    else if (f->mcause == 0x80000007u)
        rt_set_mtimecmp(~0ull);
    else
        bad++;
    /* mepc must be inside this program's code, and not a trap site */
    if (f->mepc < 0x80000000u || f->mepc >= 0x80100000u)
        bad++;
}

int main(void)
{
    rt_set_trap_hook(hook);
    csr_clear(mstatus, MSTATUS_MIE);
    csr_write(mie, 0);
    rt_set_mtimecmp(~0ull);

    rt_puts("msip sets and clears MSIP\n");
    CHECK((csr_read(mip) & MIP_MSIP) == 0);
    rt_mmio_write32(RT_CLINT_MSIP, 1);
    CHECK(rt_mmio_read32(RT_CLINT_MSIP) == 1);
    CHECK((csr_read(mip) & MIP_MSIP) != 0);
    rt_mmio_write32(RT_CLINT_MSIP, 0);
    CHECK(rt_mmio_read32(RT_CLINT_MSIP) == 0);
    CHECK((csr_read(mip) & MIP_MSIP) == 0);

    rt_puts("not taken while masked\n");
    rt_mmio_write32(RT_CLINT_MSIP, 1);
    csr_set(mstatus, MSTATUS_MIE);     /* MSIE still 0 */
    for (volatile int i = 0; i < 100; i++)
        ;
    CHECK(n_irq == 0);
    csr_clear(mstatus, MSTATUS_MIE);
    csr_write(mie, MIP_MSIP);          /* MSIE=1, MIE=0 */
    for (volatile int i = 0; i < 100; i++)
        ;
    CHECK(n_irq == 0);

    rt_puts("taken when enabled\n");
    csr_set(mstatus, MSTATUS_MIE);
    uint32_t spins = 0;
    while (n_irq == 0 && spins < SPIN_LIMIT)
        spins++;
    CHECK(n_irq == 1);
    CHECK(order[0] == 0x80000003u);
    CHECK((csr_read(mip) & MIP_MSIP) == 0);

    rt_puts("raised while enabled\n");
    rt_mmio_write32(RT_CLINT_MSIP, 1);
    spins = 0;
    while (n_irq == 1 && spins < SPIN_LIMIT)
        spins++;
    CHECK(n_irq == 2);
    CHECK(order[1] == 0x80000003u);

    rt_puts("priority: software before timer\n");
    csr_clear(mstatus, MSTATUS_MIE);
    csr_write(mie, MIP_MSIP | MIP_MTIP);
    rt_set_mtimecmp(0);                /* timer pending now */
    rt_mmio_write32(RT_CLINT_MSIP, 1); /* software pending now */
    CHECK((csr_read(mip) & (MIP_MSIP | MIP_MTIP)) == (MIP_MSIP | MIP_MTIP));
    csr_set(mstatus, MSTATUS_MIE);
    spins = 0;
    while (n_irq < 4 && spins < SPIN_LIMIT)
        spins++;
    CHECK(n_irq == 4);
    CHECK(order[2] == 0x80000003u);
    CHECK(order[3] == 0x80000007u);
    CHECK(bad == 0);

    csr_clear(mstatus, MSTATUS_MIE);
    csr_write(mie, 0);
    rt_set_trap_hook(0);
    return rt_summary("irq_software");
}
