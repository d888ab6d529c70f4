/* kprintf: a small printf to the console UART. Supports %d %u %x %X %s %c %p %% with an
 * optional '0' flag and width. A whole call is printed with interrupts masked, so lines from
 * different tasks never interleave. */
#include <stdarg.h>
#include "cactus/cactus.h"
#include "port.h"

static void put_num(uint32_t v, unsigned base, int neg, int width, char pad, int upper)
{
    char buf[12];
    int n = 0;
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    do {
        buf[n++] = digits[v % base];
        v /= base;
    } while (v);
    if (neg)
        width--;
    if (neg && pad == '0')
        port_putc('-');
    for (int i = n; i < width; i++)
        port_putc(pad);
    if (neg && pad != '0')
        port_putc('-');
    while (n)
        port_putc(buf[--n]);
}

int kprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    uint32_t irq = port_irq_save();
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            port_putc(*p);
            continue;
        }
        p++;
        char pad = ' ';
        int width = 0;
        if (*p == '0') {
            pad = '0';
            p++;
        }
        while (*p >= '0' && *p <= '9')
            width = width * 10 + (*p++ - '0');
        switch (*p) {
        case 'd': {
            int32_t v = va_arg(ap, int32_t);
            put_num(v < 0 ? 0u - (uint32_t)v : (uint32_t)v, 10, v < 0, width, pad, 0);
            break;
        }
        case 'u': put_num(va_arg(ap, uint32_t), 10, 0, width, pad, 0); break;
        case 'x': put_num(va_arg(ap, uint32_t), 16, 0, width, pad, 0); break;
        case 'X': put_num(va_arg(ap, uint32_t), 16, 0, width, pad, 1); break;
        case 'p': put_num((uint32_t)(uintptr_t)va_arg(ap, void *), 16, 0, 8, '0', 0); break;
        case 'c': port_putc((char)va_arg(ap, int)); break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            for (s = s ? s : "(null)"; *s; s++)
                port_putc(*s);
            break;
        }
        case '%': port_putc('%'); break;
        case '\0': p--; break;
        default: port_putc('%'); port_putc(*p); break;
        }
    }
    port_irq_restore(irq);
    va_end(ap);
    return 0;
}
