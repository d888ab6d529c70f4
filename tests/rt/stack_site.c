/* The bare-metal runtime honours the stack-check contract (docs/stack-checks.md): tp points at
 * the program stack's descriptor (limit __stack_bottom); a check that passes continues; an ecall
 * that is not a check site still reaches the program's trap hook; a check that fails (a function
 * needing 32 KiB on the 16 KiB stack, tests/common/check_sites.S) is reported as
 * "stack overflow caught: ..." before the function wrote anything: the stack below main's frame,
 * painted first, is intact when the runtime's overflow hook runs. */
#include "check_sites.h"
#include "rt.h"

#define PAINT 0xA5u

extern char __stack_bottom[]; /* link.ld */

static uintptr_t paint_lo, paint_hi;
static uint32_t plain_ecalls;

static void skip_ecall(struct rt_trap_frame *f)
{
    CHECK_EQ(1, f->mcause, 11);
    CHECK_EQ(2, f->mepc, (uint32_t)(uintptr_t)ck_plain_ecall);
    plain_ecalls++;
    f->mepc += 4;
}

static void on_overflow(const struct rt_overflow *o)
{
    CHECK_EQ(10, o->site->site, (uint32_t)(uintptr_t)ck_fill_32k_site);
    CHECK_EQ(11, o->need, 32768 - 16);
    CHECK_EQ(12, o->limit, (uint32_t)(uintptr_t)__stack_bottom);
    CHECK(o->sp > paint_hi && o->sp < paint_hi + 256);
    uint32_t changed = 0;
    for (const volatile uint8_t *b = (const uint8_t *)paint_lo; b < (const uint8_t *)paint_hi; b++)
        changed += *b != PAINT;
    CHECK_EQ(13, changed, 0);
    rt_puts("painted stack below the check: ");
    rt_putu(paint_hi - paint_lo);
    rt_puts(" bytes, ");
    rt_putu(changed);
    rt_puts(" changed\n");
    rt_exit((uint32_t)rt_summary("stack_site"));
}

int main(void)
{
    uint32_t tp;
    __asm__ volatile("mv %0, tp" : "=r"(tp));
    CHECK_EQ(20, tp, (uint32_t)(uintptr_t)&rt_main_stack + RT_TP_OFFSET);
    CHECK_EQ(21, rt_main_stack.desc.limit, (uint32_t)(uintptr_t)__stack_bottom);

    rt_set_trap_hook(skip_ecall);
    ck_plain_ecall();
    CHECK_EQ(22, plain_ecalls, 1);
    rt_set_trap_hook(0);

    CHECK_EQ(23, ck_fill_256(7), 256);

    uintptr_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    paint_lo = (uintptr_t)__stack_bottom;
    paint_hi = (sp - 128) & ~(uintptr_t)15;
    for (volatile uint8_t *b = (uint8_t *)paint_lo; b < (uint8_t *)paint_hi; b++)
        *b = PAINT;
    rt_set_overflow_hook(on_overflow);
    ck_fill_32k(0x5A); /* needs 32 KiB below its entry sp: caught at its check */
    rt_puts("FAIL: the failed check returned\n");
    return 1;
}
