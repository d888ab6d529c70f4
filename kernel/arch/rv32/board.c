/* QEMU virt board devices used by the kernel besides the CLINT: the 16550 UART (transmit only)
 * and the SiFive test finisher. The cactus-sim default machine uses the same map. */
#include "port.h"

#define UART_BASE 0x10000000u
#define UART_THR 0u
#define UART_LSR 5u
#define UART_LSR_THRE 0x20u
#define FINISHER_BASE 0x00100000u

static inline volatile uint32_t *reg32(uint32_t addr)
{
    return (volatile uint32_t *)(uintptr_t)addr;
}

void port_putc(char c)
{
    volatile uint8_t *uart = (volatile uint8_t *)(uintptr_t)UART_BASE;
    while (!(uart[UART_LSR] & UART_LSR_THRE)) {
    }
    uart[UART_THR] = (uint8_t)c;
}

void port_exit(uint32_t code)
{
    *reg32(FINISHER_BASE) = code == 0 ? 0x5555u : (code << 16) | 0x3333u;
    for (;;)
        __asm__ volatile("wfi");
}
