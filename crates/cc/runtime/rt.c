/* The C half of the bare-metal runtime `cactus cc` links into executables (docs/cc.md, "The
 * runtime"): picolibc's stdin/stdout/stderr on the 16550 UART at 0x1000_0000, _exit through
 * the test finisher at 0x0010_0000 (so `cactus run` and QEMU both end with the program's exit
 * code), the stack descriptors crt0.S points tp at, and the trap report.
 *
 * Guarantees: every trap ends the run with exit code 3 after one report on the UART naming
 * the function (from the table the driver appends, __cactus_rt_syms_*), the pc and the cause;
 * a failed stack check is reported as an overflow with the bytes missing and the link option
 * that gives the stack more. Nothing here is instrumented or uses the program's stack. */
#include <stdint.h>
#include <stdio.h>
#include "cactus/stackcheck.h"

#define RT_UART 0x10000000u
#define RT_FINISHER 0x00100000u
/* The exit code of a run that ended in a trap. */
#define RT_EXIT_TRAP 3

extern char __cactus_stack_bottom[], __cactus_stack_top[], __cactus_trap_stack_bottom[];
/* What tp points just past in the trap handler (crt0.S): the trap stack's limit (the program
 * stack's descriptor is in crt0.S, with the preempt-traps words below it). */
struct cactus_stack_desc cactus_rt_trap_stack = {
    (uint32_t)(uintptr_t)__cactus_trap_stack_bottom
};

/* One function of the program: [addr, addr + size), its name. */
struct cactus_rt_sym {
    uint32_t addr, size;
    const char *name;
};
extern const struct cactus_rt_sym __cactus_rt_syms_start[], __cactus_rt_syms_end[];

/* What ended the run, for the host (`cactus run` reads it by symbol after the run and repeats
 * the report on its stderr): kind 0 nothing, 1 a caught stack overflow, 2 another trap. Filled
 * before the report is printed; in .bss, so 0 until a trap. */
struct cactus_rt_fault {
    uint32_t kind, mcause, pc, over, stack_size;
};
volatile struct cactus_rt_fault cactus_rt_fault;

void _exit(int code) __attribute__((noreturn));
void cactus_rt_trap(uint32_t mcause, uint32_t mepc, uint32_t mtval, uint32_t sp, uint32_t tp)
    __attribute__((noreturn));

static void put(char c)
{
    *(volatile uint8_t *)RT_UART = (uint8_t)c;
}

static void puts_raw(const char *s)
{
    while (*s)
        put(*s++);
}

static void put_hex(uint32_t v)
{
    puts_raw("0x");
    for (int i = 7; i >= 0; i--)
        put("0123456789abcdef"[(v >> (4 * i)) & 0xf]);
}

static void put_dec(uint32_t v)
{
    char buf[10];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        put(buf[--n]);
}

static int uart_put(char c, FILE *f)
{
    (void)f;
    put(c);
    return (unsigned char)c;
}

static int uart_get(FILE *f)
{
    (void)f;
    return _FDEV_EOF;
}

static FILE uart = FDEV_SETUP_STREAM(uart_put, uart_get, NULL, _FDEV_SETUP_RW);
FILE *const stdin = &uart;
FILE *const stdout = &uart;
FILE *const stderr = &uart;

/* 0 -> pass; any other code -> (code << 16) | 0x3333, clamped to 1..255 so that a failing
 * code never wraps to a passing status. */
void _exit(int code)
{
    uint32_t c = (uint32_t)code;
    uint32_t word = 0x5555;
    if (c != 0)
        word = ((c > 255 ? 255 : c) << 16) | 0x3333;
    *(volatile uint32_t *)RT_FINISHER = word;
    for (;;)
        __asm__ volatile("wfi");
}

/* "name+0xoff" of the function holding pc, or "an unknown function". */
static void put_function(uint32_t pc)
{
    for (const struct cactus_rt_sym *s = __cactus_rt_syms_start; s < __cactus_rt_syms_end; s++) {
        if (pc >= s->addr && pc - s->addr < s->size) {
            puts_raw(s->name);
            if (pc != s->addr) {
                puts_raw("+0x");
                uint32_t off = pc - s->addr;
                int started = 0;
                for (int i = 7; i >= 0; i--) {
                    uint32_t d = (off >> (4 * i)) & 0xf;
                    if (d || started || i == 0) {
                        put("0123456789abcdef"[d]);
                        started = 1;
                    }
                }
            }
            return;
        }
    }
    puts_raw("an unknown function");
}

static const char *cause_name(uint32_t mcause)
{
    static const char *const names[] = {
        "instruction address misaligned", "instruction access fault", "illegal instruction",
        "breakpoint", "load address misaligned", "load access fault",
        "store/AMO address misaligned", "store/AMO access fault", "ecall from U-mode",
        "exception 9", "exception 10", "ecall from M-mode",
    };
    if (mcause & 0x80000000u)
        return "an interrupt (the runtime enables none)";
    return mcause < sizeof names / sizeof names[0] ? names[mcause] : "exception";
}

/* A failed check at site: the frame would end `need` bytes below sp, past the limit. */
static void overflow(const struct cactus_check_site *site, uint32_t sp, uint32_t tp)
{
    uint32_t limit = ((const struct cactus_stack_desc *)(uintptr_t)(tp - 4))->limit;
    uint32_t low = sp - cactus_check_need(site);
    uint32_t over = low < limit ? limit - low : 0;
    uint32_t size = (uint32_t)(__cactus_stack_top - __cactus_stack_bottom);
    cactus_rt_fault.mcause = 11;
    cactus_rt_fault.pc = site->site;
    cactus_rt_fault.over = over;
    cactus_rt_fault.stack_size = size;
    cactus_rt_fault.kind = 1;
    puts_raw("cactus: stack overflow caught in ");
    put_function(site->site);
    puts_raw(" (pc ");
    put_hex(site->site);
    puts_raw("): the frame needs ");
    put_dec(over);
    puts_raw(" bytes below the limit ");
    put_hex(limit);
    puts_raw(" of the ");
    put_dec(size);
    puts_raw("-byte stack\ncactus:   fix: link with at least -Wl,--defsym=__cactus_stack_size=");
    put_dec((size + over + 15) / 16 * 16);
    puts_raw(" (more if deeper calls follow)\n");
    _exit(RT_EXIT_TRAP);
}

void cactus_rt_trap(uint32_t mcause, uint32_t mepc, uint32_t mtval, uint32_t sp, uint32_t tp)
{
    if (mcause == 11 && tp != 0) {
        const struct cactus_check_site *site = cactus_check_site_at(mepc);
        if (site)
            overflow(site, sp, tp);
    }
    cactus_rt_fault.mcause = mcause;
    cactus_rt_fault.pc = mepc;
    cactus_rt_fault.kind = 2;
    puts_raw("cactus: fault in ");
    put_function(mepc);
    puts_raw(" (pc ");
    put_hex(mepc);
    puts_raw("): ");
    puts_raw(cause_name(mcause));
    puts_raw(" (mcause ");
    put_dec(mcause);
    puts_raw("), mtval ");
    put_hex(mtval);
    put('\n');
    int access = mcause >= 4 && mcause <= 7;
    if (access && tp == 0 && mtval >= 0xfffffff0u)
        puts_raw("cactus:   likely cause: tp is 0: code built with stack checks reads its limit at "
                 "tp-4, and something cleared tp (the runtime set it; docs/stack-checks.md)\n");
    else if (sp < (uint32_t)(uintptr_t)__cactus_stack_bottom &&
             sp >= (uint32_t)(uintptr_t)__cactus_stack_bottom - 65536u)
        puts_raw("cactus:   likely cause: sp is below the stack: an overflow in code without "
                 "checks (build with cactus cc --checks detect to catch it at the call)\n");
    _exit(RT_EXIT_TRAP);
}
