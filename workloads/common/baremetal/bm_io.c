/* bm_io.c: UART 16550 output and test-finisher exit for QEMU virt (see bm_io.h). */
#include "bm_io.h"

#define UART_BASE 0x10000000u
#define UART_THR 0u
#define UART_LSR 5u
#define UART_LSR_THRE 0x20u
#define FINISHER 0x00100000u

void bm_putc(char c)
{
    volatile uint8_t *uart = (volatile uint8_t *)UART_BASE;
    while ((uart[UART_LSR] & UART_LSR_THRE) == 0) {
    }
    uart[UART_THR] = (uint8_t)c;
}

void bm_puts(const char *s)
{
    while (*s)
        bm_putc(*s++);
}

void bm_put_dec(uint32_t v)
{
    char buf[11];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (n)
        bm_putc(buf[--n]);
}

void bm_put_hex(uint32_t v)
{
    bm_puts("0x");
    for (int s = 28; s >= 0; s -= 4)
        bm_putc("0123456789abcdef"[(v >> s) & 15u]);
}

void bm_exit(int code)
{
    volatile uint32_t *fin = (volatile uint32_t *)FINISHER;
    *fin = code == 0 ? 0x5555u : (((uint32_t)code & 0xffffu) << 16) | 0x3333u;
    for (;;) {
    }
}
