/* The C half of the `cactus fuzz` runtime (docs/fuzz.md): program start and exit, trap
 * reports, a printf sufficient for csmith's checksum lines, and the few libc functions GCC
 * and csmith programs call. It is compiled by the same pipeline as the program (so it is
 * instrumented too) with -ffreestanding -fno-builtin.
 *
 * Guarantees: output goes only to the 16550 UART at 0x1000_0000; the program ends only
 * through the test finisher at 0x10_0000: code 0 = main returned 0, FUZZ_EXIT_OVERFLOW = a
 * stack check failed (reported before the frame was written), FUZZ_EXIT_TRAP = any other
 * trap, otherwise main's return value. The trace device is touched only when the harness set
 * flag bit 0 in fuzz_config (cactus-sim); QEMU never sees it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define UART_THR ((volatile uint8_t *)0x10000000u)
#define FINISHER ((volatile uint32_t *)0x00100000u)
#define TRACE_BASE 0x0E000000u
#define TRACE_NOBODY 0xFFFFFFFFu
#define PAINT 0xCAC705A5u
#define FUZZ_EXIT_OVERFLOW 91
#define FUZZ_EXIT_TRAP 92
#define MCAUSE_ECALL_M 11u
#define SITE_KIND_DYNAMIC 1u

struct fuzz_config {
    uint32_t magic, flags, stack, reserved;
};
struct cactus_stack_desc {
    uint32_t limit;
};
struct cactus_check_site {
    uint32_t site, resume, need, info;
};

extern struct fuzz_config fuzz_config;
extern struct cactus_stack_desc fuzz_stack_desc;
extern uint32_t __stack_bottom[], __stack_top[];
extern const struct cactus_check_site __start_cactus_checks[] __attribute__((weak));
extern const struct cactus_check_site __stop_cactus_checks[] __attribute__((weak));

int main(int argc, char **argv);
void fuzz_start(void) __attribute__((noreturn));
void fuzz_trap(uint32_t mcause, uint32_t mepc, uint32_t mtval, uint32_t sp)
    __attribute__((noreturn));
int printf(const char *fmt, ...);
int puts(const char *s);
int putchar(int c);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
int strcmp(const char *a, const char *b);
size_t strlen(const char *s);

/* ---- trace device (docs/trace-device.md) ---- */

static int tracing(void)
{
    return (fuzz_config.flags & 1u) != 0;
}

static void trace_event(uint32_t code, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3)
{
    volatile uint32_t *dev = (volatile uint32_t *)TRACE_BASE;
    dev[0x10 / 4] = a0;
    dev[0x14 / 4] = a1;
    dev[0x18 / 4] = a2;
    dev[0x1C / 4] = a3;
    dev[0x20 / 4] = code;
}

enum { EV_TASK_CREATE = 1, EV_TASK_SWITCH = 2, EV_REGION_ASSIGN = 4, EV_STACK_HWM = 7,
       EV_OVERFLOW = 8 };

/* ---- start and exit ---- */

static uint32_t stack_used(void)
{
    const uint32_t *p = __stack_bottom;
    while (p < __stack_top && *p == PAINT)
        p++;
    return (uint32_t)((uintptr_t)__stack_top - (uintptr_t)p);
}

static void fuzz_exit(uint32_t code) __attribute__((noreturn));
static void fuzz_exit(uint32_t code)
{
    if (tracing()) {
        uint32_t budget = (uint32_t)((uintptr_t)__stack_top - fuzz_stack_desc.limit);
        trace_event(EV_STACK_HWM, 0, stack_used(), budget, 0);
        trace_event(EV_TASK_SWITCH, TRACE_NOBODY, 0, 0, 0);
    }
    *FINISHER = code == 0 ? 0x5555u : ((code << 16) | 0x3333u);
    for (;;) {
    }
}

void fuzz_start(void)
{
    static char arg0[] = "fuzz", arg1[] = "1";
    char *argv[] = { arg0, arg1, NULL };
    if (tracing()) {
        uint32_t bottom = (uint32_t)(uintptr_t)__stack_bottom;
        uint32_t top = (uint32_t)(uintptr_t)__stack_top;
        uint32_t limit = fuzz_stack_desc.limit;
        trace_event(EV_TASK_CREATE, 0, 0, (uint32_t)(uintptr_t)arg0, 0);
        if (limit > bottom)
            trace_event(EV_REGION_ASSIGN, bottom, limit - bottom, TRACE_NOBODY, 0);
        trace_event(EV_REGION_ASSIGN, limit, top - limit, 0, 0);
        trace_event(EV_TASK_SWITCH, 0, 0, 0, 0);
    }
    fuzz_exit((uint32_t)main(2, argv));
}

static const struct cactus_check_site *find_site(uint32_t pc)
{
    const struct cactus_check_site *s = __start_cactus_checks;
    if (s == NULL)
        return NULL;
    for (; s < __stop_cactus_checks; s++)
        if (s->site == pc)
            return s;
    return NULL;
}

void fuzz_trap(uint32_t mcause, uint32_t mepc, uint32_t mtval, uint32_t sp)
{
    const struct cactus_check_site *site = mcause == MCAUSE_ECALL_M ? find_site(mepc) : NULL;
    if (site != NULL) {
        uint32_t f1 = site->info & 0xFFFFu;
        uint32_t need = (site->info >> 30) == SITE_KIND_DYNAMIC ? site->need : site->need - f1;
        printf("stack overflow caught: pc=%08x need=%u sp=%08x\n", (unsigned)mepc,
               (unsigned)need, (unsigned)sp);
        if (tracing())
            trace_event(EV_OVERFLOW, 0, sp, need, 2);
        fuzz_exit(FUZZ_EXIT_OVERFLOW);
    }
    printf("trap: mcause=%x mepc=%08x mtval=%08x sp=%08x\n", (unsigned)mcause, (unsigned)mepc,
           (unsigned)mtval, (unsigned)sp);
    fuzz_exit(FUZZ_EXIT_TRAP);
}

/* ---- output ---- */

int putchar(int c)
{
    *UART_THR = (uint8_t)c;
    return (uint8_t)c;
}

int puts(const char *s)
{
    while (*s)
        putchar(*s++);
    putchar('\n');
    return 0;
}

/* Writes `v` in `base` with at least `width` characters, padded with `pad` on the left (or
 * spaces on the right when `left`); returns the characters written. */
static int put_number(unsigned long long v, unsigned base, int upper, int negative, int width,
                      char pad, int left)
{
    char buf[24];
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    int n = 0, out = 0;
    do {
        buf[n++] = digits[v % base];
        v /= base;
    } while (v != 0);
    int len = n + (negative ? 1 : 0);
    if (negative && pad == '0') {
        putchar('-');
        out++;
    }
    for (; !left && width > len; width--, out++)
        putchar(pad);
    if (negative && pad != '0') {
        putchar('-');
        out++;
    }
    while (n > 0) {
        putchar(buf[--n]);
        out++;
    }
    for (; left && width > len; width--, out++)
        putchar(' ');
    return out;
}

/* printf with flags '-' and '0', a width, length modifiers hh h l ll z and conversions
 * d i u x X o c s p %: what csmith's output and this runtime's reports use. */
int printf(const char *fmt, ...)
{
    va_list ap;
    int out = 0;
    va_start(ap, fmt);
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            putchar(*fmt);
            out++;
            continue;
        }
        int left = 0, width = 0, longs = 0;
        char pad = ' ';
        for (fmt++; *fmt == '-' || *fmt == '0'; fmt++) {
            if (*fmt == '-')
                left = 1;
            else
                pad = '0';
        }
        for (; *fmt >= '0' && *fmt <= '9'; fmt++)
            width = width * 10 + (*fmt - '0');
        for (; *fmt == 'l' || *fmt == 'h' || *fmt == 'z'; fmt++)
            if (*fmt == 'l')
                longs++;
        if (left)
            pad = ' ';
        switch (*fmt) {
        case 'd':
        case 'i': {
            long long v = longs >= 2 ? va_arg(ap, long long) : va_arg(ap, int);
            unsigned long long mag = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
            out += put_number(mag, 10, 0, v < 0, width, pad, left);
            break;
        }
        case 'u':
        case 'x':
        case 'X':
        case 'o': {
            unsigned long long v =
                longs >= 2 ? va_arg(ap, unsigned long long) : va_arg(ap, unsigned int);
            unsigned base = *fmt == 'u' ? 10u : *fmt == 'o' ? 8u : 16u;
            out += put_number(v, base, *fmt == 'X', 0, width, pad, left);
            break;
        }
        case 'p':
            out += put_number((uintptr_t)va_arg(ap, void *), 16, 0, 0, width, pad, left);
            break;
        case 'c':
            putchar(va_arg(ap, int));
            out++;
            break;
        case 's':
            for (const char *s = va_arg(ap, const char *); *s; s++, out++)
                putchar(*s);
            break;
        case '%':
            putchar('%');
            out++;
            break;
        default: /* unknown conversion: print it as written */
            putchar('%');
            out++;
            if (*fmt == '\0')
                fmt--;
            else {
                putchar(*fmt);
                out++;
            }
            break;
        }
    }
    va_end(ap);
    return out;
}

/* ---- the libc functions GCC and csmith programs call ---- */

/* The kernel's own (kernel/lib/string.c: memcpy, memmove, memset, memcmp, strlen, strcmp),
 * written beside this file by the harness, compiled into this unit. */
#include "string.c"

/* ---- the logical-stack pass's C library wrappers (docs/sensmart.md "The software variant") ----
 * Code built with `--logical-stack` calls these instead of the six functions above: a pointer
 * in the stack window's aperture [0x6000_0000, 0x7000_0000) is a logical stack address, which
 * becomes physical with the program's displacement (fuzz_lstack_disp, crt0.S); any other
 * pointer is physical already. The stack never moves, so the translation holds for the call. */
extern uint32_t fuzz_lstack_disp;

static void *ls_phys(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    if (a - 0x60000000u < 0x10000000u)
        a += fuzz_lstack_disp;
    return (void *)a;
}

void *cactus_ls_memcpy(void *dst, const void *src, size_t n);
void *cactus_ls_memmove(void *dst, const void *src, size_t n);
void *cactus_ls_memset(void *dst, int c, size_t n);
int cactus_ls_memcmp(const void *a, const void *b, size_t n);
size_t cactus_ls_strlen(const char *s);
int cactus_ls_strcmp(const char *a, const char *b);

void *cactus_ls_memcpy(void *dst, const void *src, size_t n)
{
    memcpy(ls_phys(dst), ls_phys(src), n);
    return dst;
}

void *cactus_ls_memmove(void *dst, const void *src, size_t n)
{
    memmove(ls_phys(dst), ls_phys(src), n);
    return dst;
}

void *cactus_ls_memset(void *dst, int c, size_t n)
{
    memset(ls_phys(dst), c, n);
    return dst;
}

int cactus_ls_memcmp(const void *a, const void *b, size_t n)
{
    return memcmp(ls_phys(a), ls_phys(b), n);
}

size_t cactus_ls_strlen(const char *s)
{
    return strlen(ls_phys(s));
}

int cactus_ls_strcmp(const char *a, const char *b)
{
    return strcmp(ls_phys(a), ls_phys(b));
}
