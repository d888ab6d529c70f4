/* kprintf: a small printf to the console UART. Supports %d %u %x %X %s %c %p %% with an
 * optional '0' flag and width. A whole call is printed with interrupts masked, so lines from
 * different tasks never interleave. Written for size (every firmware that can report a fault links
 * it): one digit loop for every base and one out-of-line output call. */
#include <stdarg.h>
#include "cactus/cactus.h"
#include "port.h"
#include "window.h"

/* The one call of port_putc: link-time optimisation would otherwise inline the UART's polling
 * loop at every output call below. */
static __attribute__((noinline)) void out(char c)
{
    port_putc(c);
}

static void put_num(uint32_t v, unsigned base, int neg, int width, char pad, char ten)
{
    char buf[10]; /* 2^32 - 1 has 10 decimal digits */
    int n = 0;
    do {
        unsigned d = v % base;
        buf[n++] = (char)(d < 10 ? '0' + d : ten + (d - 10));
        v /= base;
    } while (v);
    if (neg) {
        width--;
        if (pad == '0')
            out('-');
    }
    for (int i = n; i < width; i++)
        out(pad);
    if (neg && pad != '0')
        out('-');
    while (n)
        out(buf[--n]);
}

int kprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    uint32_t irq = port_irq_save();
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            out(*p);
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
        char c = *p;
        if (c == 's') {
            const char *s = va_arg(ap, const char *);
            /* A task's string on its stack is a logical address under the software stack
             * window (window_sw.h): translated while interrupts stay masked. */
            s = port_window_task_ptr((void *)s);
            for (s = s ? s : "(null)"; *s; s++)
                out(*s);
        } else if (c == 'c') {
            out((char)va_arg(ap, int));
        } else if (c == 'd') {
            int32_t v = va_arg(ap, int32_t);
            put_num(v < 0 ? 0u - (uint32_t)v : (uint32_t)v, 10, v < 0, width, pad, 'a');
        } else if (c == 'u' || c == 'x' || c == 'X') {
            put_num(va_arg(ap, uint32_t), c == 'u' ? 10 : 16, 0, width, pad, c == 'X' ? 'A' : 'a');
        } else if (c == 'p') {
            put_num((uint32_t)(uintptr_t)va_arg(ap, void *), 16, 0, 8, '0', 'a');
        } else if (c == '\0') {
            p--;
        } else {
            if (c != '%')
                out('%');
            out(c);
        }
    }
    port_irq_restore(irq);
    va_end(ap);
    return 0;
}
