/* Built only by `make -C tests checks` (through `cactus cc --checks detect`, runtime included):
 * unbounded recursion in compiled C is caught by the compiler's own checks against the
 * runtime's descriptor. The test raises the program stack's limit 2 KiB above __stack_bottom
 * and paints those 2 KiB; the recursion reaches the limit, a check fails, the runtime reports
 * "stack overflow caught", and the overflow hook finds the painted bytes intact: nothing below
 * the limit was written. (Uninstrumented, this program would smash memory: hence checks-only.) */
#include "rt.h"

#define PAINT 0xA5u
#define GAP 2048u

extern char __stack_bottom[]; /* link.ld */

static uint32_t deepest;
static volatile uint32_t max_depth = 1000000; /* far deeper than any stack here */

static uint32_t __attribute__((noinline)) dive(uint32_t depth, volatile uint8_t *prev)
{
    volatile uint8_t frame[96];
    for (uint32_t i = 0; i < sizeof(frame); i++)
        frame[i] = (uint8_t)(depth + i);
    deepest = depth;
    if (depth >= max_depth)
        return frame[0];
    return dive(depth + 1, frame) + frame[depth % sizeof(frame)] + (prev ? prev[0] : 0);
}

static void on_overflow(const struct rt_overflow *o)
{
    uint32_t lo = (uint32_t)(uintptr_t)__stack_bottom;
    CHECK_EQ(1, o->limit, lo + GAP);
    CHECK(o->sp < o->limit + o->need);
    CHECK(deepest > 100);
    uint32_t changed = 0;
    for (const volatile uint8_t *b = (const uint8_t *)lo; b < (const uint8_t *)(lo + GAP); b++)
        changed += *b != PAINT;
    CHECK_EQ(2, changed, 0);
    rt_puts("recursion caught at its check; bytes changed below the limit: ");
    rt_putu(changed);
    rt_putc('\n');
    rt_exit((uint32_t)rt_summary("checks_recursion"));
}

int main(void)
{
    uint32_t lo = (uint32_t)(uintptr_t)__stack_bottom;
    for (volatile uint8_t *b = (uint8_t *)lo; b < (uint8_t *)(lo + GAP); b++)
        *b = PAINT;
    rt_main_stack.desc.limit = lo + GAP;
    rt_set_overflow_hook(on_overflow);
    dive(0, 0);
    rt_puts("FAIL: the recursion returned\n");
    return 1;
}
