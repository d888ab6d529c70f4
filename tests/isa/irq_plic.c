/* The PLIC at 0x0C00_0000 as QEMU 7.2 virt lays it out for hart 0's M-mode
 * context, driven by the UART's THR-empty interrupt (PLIC source 10):
 * priority registers keep 3 bits (none for source 0 or 97), the threshold
 * keeps 3 bits, enables read back, pending bits are read-only and a claim
 * with nothing pending returns 0. A UART raise sets pending bit 10; mip.MEIP
 * follows only when the source is enabled with a priority above the
 * threshold. QEMU 7.2's gateway: the pending bit stays set when the line
 * drops, only a claim clears it, and a complete does not re-sample a line
 * that is still high (the next UART re-evaluation does). An interrupt is
 * taken with mcause 0x8000_000b; the handler claims 10, reads IIR (THR
 * empty, 0x02, which lowers the line) and completes. No UART input needed. */
#include "rt.h"

#define PLIC_BASE      0x0C000000u
#define PLIC_PRIO(s)   (PLIC_BASE + 4u * (s))
#define PLIC_PENDING   (PLIC_BASE + 0x1000u)
#define PLIC_ENABLE0   (PLIC_BASE + 0x2000u)
#define PLIC_THRESH0   (PLIC_BASE + 0x200000u)
#define PLIC_CLAIM0    (PLIC_BASE + 0x200004u)
#define UART_IRQ       10u

#define UART_IER       (RT_UART_BASE + 1u)
#define UART_IIR       (RT_UART_BASE + 2u)
#define UART_FCR       (RT_UART_BASE + 2u)
#define UART_LSR       (RT_UART_BASE + 5u)
#define IER_THRI       0x02u

#define MIP_MEIP       (1u << 11)
#define MSTATUS_MIE    (1u << 3)
#define SPIN_LIMIT     20000000u

static volatile uint32_t n_irq, claimed, iir_seen, bad;

static inline uint8_t mmio_read8(uint32_t addr)
{
    return *(volatile uint8_t *)addr;
}

static inline void mmio_write8(uint32_t addr, uint8_t v)
{
    *(volatile uint8_t *)addr = v;
}

static void hook(struct rt_trap_frame *f)
{
    n_irq++;
    if (f->mcause != 0x8000000bu) {
        bad++;
        return;
    }
    uint32_t src = rt_mmio_read32(PLIC_CLAIM0);
    claimed = src;
    iir_seen = mmio_read8(UART_IIR) & 0x0Fu;   /* clears THR empty */
    if (rt_mmio_read32(PLIC_PENDING) & (1u << UART_IRQ))
        bad++;                                  /* claim cleared it, line low */
    rt_mmio_write32(PLIC_CLAIM0, src);
}

int main(void)
{
    rt_set_trap_hook(hook);
    csr_clear(mstatus, MSTATUS_MIE);
    csr_write(mie, 0);

    rt_puts("registers\n");
    rt_mmio_write32(PLIC_PRIO(UART_IRQ), 0xFFFFFFFFu);
    CHECK_EQ(1, rt_mmio_read32(PLIC_PRIO(UART_IRQ)), 7);
    rt_mmio_write32(PLIC_PRIO(95), 5);
    CHECK_EQ(2, rt_mmio_read32(PLIC_PRIO(95)), 5);
    rt_mmio_write32(PLIC_PRIO(0), 5);
    CHECK_EQ(3, rt_mmio_read32(PLIC_PRIO(0)), 0);
    rt_mmio_write32(PLIC_PRIO(97), 5);
    CHECK_EQ(26, rt_mmio_read32(PLIC_PRIO(97)), 0);
    rt_mmio_write32(PLIC_PRIO(95), 0);
    rt_mmio_write32(PLIC_THRESH0, 0x1Fu);
    CHECK_EQ(4, rt_mmio_read32(PLIC_THRESH0), 7);
    rt_mmio_write32(PLIC_ENABLE0 + 8, 0x80000001u);
    CHECK_EQ(5, rt_mmio_read32(PLIC_ENABLE0 + 8), 0x80000001u);
    rt_mmio_write32(PLIC_ENABLE0 + 8, 0);
    CHECK_EQ(6, rt_mmio_read32(PLIC_PENDING), 0);
    CHECK_EQ(7, rt_mmio_read32(PLIC_CLAIM0), 0);

    rt_puts("line, enable, threshold\n");
    rt_mmio_write32(PLIC_PRIO(UART_IRQ), 1);
    rt_mmio_write32(PLIC_THRESH0, 1);
    mmio_write8(UART_IER, IER_THRI);            /* THR empty: line raised */
    CHECK_EQ(8, rt_mmio_read32(PLIC_PENDING), 1u << UART_IRQ);
    CHECK_EQ(9, csr_read(mip) & MIP_MEIP, 0);   /* not enabled */
    rt_mmio_write32(PLIC_ENABLE0, 1u << UART_IRQ);
    CHECK_EQ(10, csr_read(mip) & MIP_MEIP, 0);  /* priority 1 = threshold */
    rt_mmio_write32(PLIC_THRESH0, 0);
    CHECK_EQ(11, csr_read(mip) & MIP_MEIP, MIP_MEIP);

    rt_puts("pending latches until claimed\n");
    mmio_write8(UART_IER, 0);                   /* line low: pending stays */
    CHECK_EQ(12, rt_mmio_read32(PLIC_PENDING), 1u << UART_IRQ);
    CHECK_EQ(13, csr_read(mip) & MIP_MEIP, MIP_MEIP);
    CHECK_EQ(27, rt_mmio_read32(PLIC_CLAIM0), UART_IRQ);
    CHECK_EQ(28, rt_mmio_read32(PLIC_PENDING), 0);
    CHECK_EQ(29, csr_read(mip) & MIP_MEIP, 0);
    rt_mmio_write32(PLIC_CLAIM0, UART_IRQ);
    CHECK_EQ(30, csr_read(mip) & MIP_MEIP, 0);

    rt_puts("a complete does not re-sample the line\n");
    mmio_write8(UART_IER, IER_THRI);            /* raised */
    CHECK_EQ(31, rt_mmio_read32(PLIC_CLAIM0), UART_IRQ);
    rt_mmio_write32(PLIC_CLAIM0, UART_IRQ);     /* line still high */
    CHECK_EQ(32, csr_read(mip) & MIP_MEIP, 0);
    CHECK_EQ(33, rt_mmio_read32(PLIC_PENDING), 0);
    mmio_write8(UART_FCR, 0);                   /* re-evaluated: raised */
    CHECK_EQ(34, csr_read(mip) & MIP_MEIP, MIP_MEIP);
    CHECK_EQ(35, rt_mmio_read32(PLIC_CLAIM0), UART_IRQ);
    mmio_write8(UART_IER, 0);
    rt_mmio_write32(PLIC_CLAIM0, UART_IRQ);

    rt_puts("taken, claimed, completed\n");
    mmio_write8(UART_IER, IER_THRI);
    csr_write(mie, MIP_MEIP);
    CHECK_EQ(14, n_irq, 0);                     /* MIE still 0 */
    csr_set(mstatus, MSTATUS_MIE);
    uint32_t spins = 0;
    while (n_irq == 0 && spins < SPIN_LIMIT)
        spins++;
    csr_clear(mstatus, MSTATUS_MIE);
    CHECK_EQ(15, n_irq, 1);
    CHECK_EQ(16, claimed, UART_IRQ);
    CHECK_EQ(17, iir_seen, 0x02);
    CHECK_EQ(18, mmio_read8(UART_IIR) & 0x0Fu, 0x01);
    CHECK_EQ(19, csr_read(mip) & MIP_MEIP, 0);
    CHECK_EQ(20, rt_mmio_read32(PLIC_CLAIM0), 0);
    CHECK_EQ(21, mmio_read8(UART_LSR) & 0x60u, 0x60);

    /* A THR write raises THR empty again (the byte leaves at once). */
    mmio_write8(RT_UART_BASE, '.');
    CHECK_EQ(22, csr_read(mip) & MIP_MEIP, MIP_MEIP);
    csr_set(mstatus, MSTATUS_MIE);
    spins = 0;
    while (n_irq == 1 && spins < SPIN_LIMIT)
        spins++;
    csr_clear(mstatus, MSTATUS_MIE);
    mmio_write8(UART_IER, 0);
    rt_putc('\n');
    CHECK_EQ(23, n_irq, 2);
    CHECK_EQ(24, claimed, UART_IRQ);
    CHECK_EQ(25, bad, 0);

    rt_mmio_write32(PLIC_ENABLE0, 0);
    rt_mmio_write32(PLIC_PRIO(UART_IRQ), 0);
    csr_write(mie, 0);
    rt_set_trap_hook(0);
    return rt_summary("irq_plic");
}
