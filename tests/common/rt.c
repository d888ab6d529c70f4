/* Tiny runtime for Cactus bare-metal test programs: UART output, exit
 * through the test finisher, check counting, and trap dispatch. See rt.h. */
#include "rt.h"

static rt_trap_hook trap_hook;
static rt_overflow_hook overflow_hook;
static uint32_t checks;
static uint32_t failures;

extern char __stack_bottom[], __trap_stack_bottom[]; /* link.ld */
struct rt_stack_desc rt_main_stack = { 0, { (uint32_t)(uintptr_t)__stack_bottom } };
struct rt_stack_desc rt_trap_stack = { 0, { (uint32_t)(uintptr_t)__trap_stack_bottom } };

void rt_putc(char c)
{
    *(volatile uint8_t *)RT_UART_BASE = (uint8_t)c;
}

void rt_puts(const char *s)
{
    while (*s)
        rt_putc(*s++);
}

void rt_putu(uint32_t v)
{
    char buf[10];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        rt_putc(buf[--n]);
}

void rt_putd(int32_t v)
{
    if (v < 0) {
        rt_putc('-');
        rt_putu(0u - (uint32_t)v);
    } else {
        rt_putu((uint32_t)v);
    }
}

static void put_hex_digits(uint32_t v, int digits)
{
    for (int i = digits - 1; i >= 0; i--)
        rt_putc("0123456789abcdef"[(v >> (4 * i)) & 0xf]);
}

void rt_puthex(uint32_t v)
{
    rt_puts("0x");
    put_hex_digits(v, 8);
}

void rt_puthex64(uint64_t v)
{
    rt_puts("0x");
    put_hex_digits((uint32_t)(v >> 32), 8);
    put_hex_digits((uint32_t)v, 8);
}

void rt_exit(uint32_t code)
{
    uint32_t word;
    if (code == 0) {
        word = 0x5555;
    } else {
        if (code > 255)
            code = 255;
        word = (code << 16) | 0x3333;
    }
    rt_mmio_write32(RT_FINISHER_BASE, word);
    for (;;)
        __asm__ volatile("wfi");
}

rt_trap_hook rt_set_trap_hook(rt_trap_hook hook)
{
    rt_trap_hook old = trap_hook;
    trap_hook = hook;
    return old;
}

void rt_set_overflow_hook(rt_overflow_hook hook)
{
    overflow_hook = hook;
}

/* A failed check: report it and end the run (the frame is never resumed). The
 * interrupted tp (frame slot x4) points just past the descriptor it was
 * checked against (docs/stack-checks.md: the limit is the word at tp - 4). */
static void stack_overflow(const struct rt_trap_frame *frame,
                           const struct cactus_check_site *site)
{
    const struct cactus_stack_desc *d = (const struct cactus_stack_desc *)(frame->x[4] - 4);
    struct rt_overflow o = { site, cactus_check_need(site), frame->x[2], d->limit };
    rt_puts("stack overflow caught: pc=");
    rt_puthex(site->site);
    rt_puts(" need=");
    rt_putu(o.need);
    rt_puts(" sp=");
    rt_puthex(o.sp);
    rt_puts(" limit=");
    rt_puthex(o.limit);
    rt_putc('\n');
    if (overflow_hook)
        overflow_hook(&o);
    rt_exit(RT_EXIT_STACK_OVERFLOW);
}

/* Called by rt_trap_entry in crt0.S with the saved frame. */
void rt_trap_dispatch(struct rt_trap_frame *frame);
void rt_trap_dispatch(struct rt_trap_frame *frame)
{
    if (frame->mcause == 11) {
        const struct cactus_check_site *site = cactus_check_site_at(frame->mepc);
        if (site)
            stack_overflow(frame, site);
    }
    if (trap_hook) {
        trap_hook(frame);
        return;
    }
    rt_puts("unexpected trap mcause=");
    rt_puthex(frame->mcause);
    rt_puts(" mepc=");
    rt_puthex(frame->mepc);
    rt_puts(" mtval=");
    rt_puthex(frame->mtval);
    rt_putc('\n');
    rt_exit(RT_EXIT_UNEXPECTED_TRAP);
}

void rt_check_eq(uint32_t id, uint32_t got, uint32_t expected)
{
    checks++;
    if (got == expected)
        return;
    failures++;
    rt_puts("FAIL check ");
    rt_putu(id);
    rt_puts(": got ");
    rt_puthex(got);
    rt_puts(" expected ");
    rt_puthex(expected);
    rt_putc('\n');
}

void rt_check(int ok, const char *file, int line, const char *what)
{
    checks++;
    if (ok)
        return;
    failures++;
    rt_puts("FAIL ");
    rt_puts(file);
    rt_putc(':');
    rt_putd(line);
    rt_puts(": ");
    rt_puts(what);
    rt_putc('\n');
}

uint32_t rt_checks(void)
{
    return checks;
}

uint32_t rt_failures(void)
{
    return failures;
}

int rt_summary(const char *name)
{
    rt_puts(name);
    rt_puts(": ");
    rt_putu(checks);
    rt_puts(" checks, ");
    rt_putu(failures);
    rt_puts(" failed\n");
    rt_puts(failures ? "FAIL\n" : "PASS\n");
    if (failures == 0)
        return 0;
    return failures > 99 ? 99 : (int)failures;
}

uint32_t rt_insn_len(uint32_t addr)
{
    uint16_t low = *(volatile uint16_t *)addr;
    return (low & 3) == 3 ? 4 : 2;
}

uint64_t rt_mtime(void)
{
    uint32_t hi, lo, hi2;
    do {
        hi = rt_mmio_read32(RT_CLINT_MTIME + 4);
        lo = rt_mmio_read32(RT_CLINT_MTIME);
        hi2 = rt_mmio_read32(RT_CLINT_MTIME + 4);
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}

void rt_set_mtimecmp(uint64_t when)
{
    /* Raise the high word first so no intermediate value is in the past. */
    rt_mmio_write32(RT_CLINT_MTIMECMP + 4, 0xffffffffu);
    rt_mmio_write32(RT_CLINT_MTIMECMP, (uint32_t)when);
    rt_mmio_write32(RT_CLINT_MTIMECMP + 4, (uint32_t)(when >> 32));
}

/* The compiler may emit calls to these four even in freestanding code
 * (struct copies, large initialisers). The optimize attribute stops GCC from
 * turning the loops back into calls to themselves. */
#define RT_NO_LIBCALL __attribute__((optimize("no-tree-loop-distribute-patterns")))

RT_NO_LIBCALL void *memcpy(void *dst, const void *src, __SIZE_TYPE__ n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    while (n--)
        *d++ = *s++;
    return dst;
}

RT_NO_LIBCALL void *memmove(void *dst, const void *src, __SIZE_TYPE__ n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    if (d < s) {
        while (n--)
            *d++ = *s++;
    } else {
        while (n--)
            d[n] = s[n];
    }
    return dst;
}

RT_NO_LIBCALL void *memset(void *dst, int c, __SIZE_TYPE__ n)
{
    uint8_t *d = dst;
    while (n--)
        *d++ = (uint8_t)c;
    return dst;
}

RT_NO_LIBCALL int memcmp(const void *a, const void *b, __SIZE_TYPE__ n)
{
    const uint8_t *x = a, *y = b;
    for (__SIZE_TYPE__ i = 0; i < n; i++) {
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    }
    return 0;
}
