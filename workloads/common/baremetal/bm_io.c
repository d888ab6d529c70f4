/* bm_io.c: UART 16550 output, test-finisher exit and the trap report for QEMU virt (see
 * bm_io.h). */
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

extern char __boot_stack_bottom[], __trap_stack_bottom[]; /* link.ld */
struct cactus_stack_desc bm_boot_stack = { (uint32_t)(uintptr_t)__boot_stack_bottom };
struct cactus_stack_desc bm_trap_stack = { (uint32_t)(uintptr_t)__trap_stack_bottom };

void bm_trap(uint32_t mcause, uint32_t mepc, uint32_t sp, uint32_t tp)
{
    const struct cactus_check_site *site = mcause == 11 ? cactus_check_site_at(mepc) : 0;
    if (site) {
        bm_puts("stack overflow caught: pc=");
        bm_put_hex(mepc);
        bm_puts(" need=");
        bm_put_dec(cactus_check_need(site));
        bm_puts(" sp=");
        bm_put_hex(sp);
        bm_puts(" limit=");
        bm_put_hex(((const struct cactus_stack_desc *)(uintptr_t)tp)[-1].limit); /* tp-4 */
        bm_putc('\n');
        bm_exit(BM_EXIT_STACK_OVERFLOW);
    }
    uint32_t tval;
    __asm__ volatile(".option push\n.option arch, +zicsr\ncsrr %0, mtval\n.option pop"
                     : "=r"(tval));
    bm_puts("unexpected trap mcause=");
    bm_put_hex(mcause);
    bm_puts(" mepc=");
    bm_put_hex(mepc);
    bm_puts(" mtval=");
    bm_put_hex(tval);
    bm_putc('\n');
    bm_exit(BM_EXIT_UNEXPECTED_TRAP);
}
