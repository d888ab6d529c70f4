/* UART receive interrupts through the PLIC (source 10). Needs UART input:
 * the contents of irq_uart_rx.in (`cactus run --uart-in`, `cactus difftest
 * --uart-in`, QEMU's stdin with -serial stdio; `make -C tests qemu-check`
 * feeds it). With IER.RDI set and the FIFO off, every received byte raises
 * a machine external interrupt (mcause 0x8000_000b); the handler claims
 * (10), checks IIR (received data, or none for a raise that came while it
 * drained RBR), reads every waiting byte (LSR.DR, RBR) and completes. The main loop
 * sleeps in wfi with MIE clear (no lost wake-up), lets the interrupt in,
 * and stops at the first '\n'. Then it prints the line back. Nothing
 * printed depends on when the bytes arrive. */
#include "rt.h"

#define PLIC_BASE      0x0C000000u
#define PLIC_PRIO(s)   (PLIC_BASE + 4u * (s))
#define PLIC_ENABLE0   (PLIC_BASE + 0x2000u)
#define PLIC_THRESH0   (PLIC_BASE + 0x200000u)
#define PLIC_CLAIM0    (PLIC_BASE + 0x200004u)
#define UART_IRQ       10u

#define UART_RBR       (RT_UART_BASE + 0u)
#define UART_IER       (RT_UART_BASE + 1u)
#define UART_IIR       (RT_UART_BASE + 2u)
#define UART_LSR       (RT_UART_BASE + 5u)
#define IER_RDI        0x01u
#define LSR_DR         0x01u

#define MIP_MEIP       (1u << 11)
#define MSTATUS_MIE    (1u << 3)
#define LINE_MAX       64u

static volatile char line[LINE_MAX];
static volatile uint32_t len, done, n_irq, bad_cause, bad_claim, bad_iir;

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
        bad_cause++;
        return;
    }
    uint32_t src = rt_mmio_read32(PLIC_CLAIM0);
    if (src != UART_IRQ)
        bad_claim++;
    /* Received data, or nothing: a byte that arrives while the handler is
     * draining RBR raises the line again, which leaves the source pending
     * after the complete although the loop already read that byte. */
    uint8_t iir = mmio_read8(UART_IIR) & 0x0Fu;
    if (iir != 0x04u && iir != 0x01u)
        bad_iir++;
    while (mmio_read8(UART_LSR) & LSR_DR) {
        char c = (char)mmio_read8(UART_RBR);
        if (done)
            continue;
        if (c == '\n')
            done = 1;
        else if (len < LINE_MAX)
            line[len++] = c;
    }
    rt_mmio_write32(PLIC_CLAIM0, src);
}

int main(void)
{
    rt_set_trap_hook(hook);
    csr_clear(mstatus, MSTATUS_MIE);
    rt_mmio_write32(PLIC_PRIO(UART_IRQ), 1);
    rt_mmio_write32(PLIC_THRESH0, 0);
    rt_mmio_write32(PLIC_ENABLE0, 1u << UART_IRQ);
    mmio_write8(UART_IER, IER_RDI);
    csr_write(mie, MIP_MEIP);

    while (!done) {
        __asm__ volatile("wfi");
        csr_set(mstatus, MSTATUS_MIE);
        csr_clear(mstatus, MSTATUS_MIE);
    }
    mmio_write8(UART_IER, 0);
    csr_write(mie, 0);

    rt_puts("received: ");
    for (uint32_t i = 0; i < len; i++)
        rt_putc(line[i]);
    rt_putc('\n');
    CHECK(n_irq > 0);
    CHECK_EQ(1, bad_cause, 0);
    CHECK_EQ(2, bad_claim, 0);
    CHECK_EQ(3, bad_iir, 0);
    CHECK_EQ(4, csr_read(mip) & MIP_MEIP, 0);
    rt_set_trap_hook(0);
    return rt_summary("irq_uart_rx");
}
