/* A direct handler of the software interrupt (docs/interrupts.md, "Direct handlers"): an
 * interrupt function bound to the vector at link time.
 * - It runs on the kernel's interrupt stack with the kernel's stack descriptor (in a handler
 *   for the kernel calls) and with interrupts masked.
 * - Every register of the interrupted task survives: a computation with many live values,
 *   interrupted at every step, gives the result it gives with interrupts masked.
 * - A semaphore it gives wakes a task that outranks the interrupted one when the handler
 *   returns, before the interrupted task's next statement; a give to a lower task switches
 *   nothing.
 * - A raise from inside the handler is not lost and does not nest: the handler runs again
 *   right after it returns.
 * - While every task waits (tickless idle), the kernel runs the handler as a call and its
 *   give ends the wait. */
#include "ktest.h"

const char ktest_name[] = "irq_direct";

extern char port_kstack_bottom[], port_kstack_top[];

static cactus_sem s_hi, s_low;
static volatile uint32_t runs, depth, max_depth, bad_stack, not_in_isr, irq_on;
static volatile uint32_t hi_wakes, reraise, give_hi, give_low;

CACTUS_DIRECT_ISR_SOFTWARE(direct_isr)
{
    char here;
    depth++;
    if (depth > max_depth)
        max_depth = depth;
    if ((uintptr_t)&here < (uintptr_t)port_kstack_bottom ||
        (uintptr_t)&here >= (uintptr_t)port_kstack_top)
        bad_stack++;
    if (!cactus_in_isr())
        not_in_isr++;
    uint32_t mstatus;
    __asm__ volatile("csrr %0, mstatus" : "=r"(mstatus));
    if (mstatus & 8)
        irq_on++;
    runs++;
    if (reraise) {
        reraise = 0;
        cactus_irq_raise_software(); /* taken again after this return, not nested */
    }
    if (give_hi)
        cactus_sem_give(&s_hi);
    if (give_low)
        cactus_sem_give(&s_low);
    depth--;
}

static void hi(void *arg)
{
    (void)arg;
    for (;;) {
        CHECK_EQ(cactus_sem_take(&s_hi, CACTUS_FOREVER), CACTUS_OK);
        CHECK(!cactus_in_isr());
        hi_wakes++;
    }
}

/* The raise as one store to msip, not a call: the interrupt is taken right after it, in the
 * middle of the computation, with the caller-saved registers holding live values too. */
static inline void raise_here(void)
{
    __asm__ volatile("sw %0, 0(%1)" ::"r"(1), "r"(0x02000000u) : "memory");
}

/* Many live values across every step; the raise lands between two of them. */
static uint32_t mix(int raise)
{
    uint32_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9, j = 10, k = 11;
    uint32_t l = 12, m = 13, n = 14, o = 15, p = 16, q = 17;
    for (uint32_t step = 0; step < 64; step++) {
        a = a * 3 + q;
        b ^= a + 7;
        c += b >> 3;
        d = d * 5 + c;
        e ^= d << 1;
        f += e * 7;
        g ^= f >> 2;
        h += g + step;
        i = i * 9 + h;
        j ^= i >> 5;
        k += j * 3;
        l ^= k << 2;
        m += l >> 1;
        n ^= m * 11;
        o += n + a;
        p ^= o >> 4;
        q += p * 13;
        if (raise)
            raise_here();
    }
    return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h ^ i ^ j ^ k ^ l ^ m ^ n ^ o ^ p ^ q;
}

static void low(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_irq_attach_direct_software("direct_isr"), CACTUS_OK);

    /* Registers: the same result with 64 interrupts as with none. */
    uint32_t s = cactus_irq_save();
    uint32_t want = mix(0);
    cactus_irq_restore(s);
    uint32_t before = runs;
    CHECK_EQ(mix(1), want);
    CHECK_EQ(runs - before, 64);

    /* A give to the higher task: it runs before the next statement here. */
    give_hi = 1;
    cactus_irq_raise_software();
    CHECK_EQ(hi_wakes, 1);
    cactus_irq_raise_software();
    CHECK_EQ(hi_wakes, 2);
    give_hi = 0;

    /* A give to a task that does not outrank this one: no switch. */
    give_low = 1;
    cactus_irq_raise_software();
    give_low = 0;
    CHECK_EQ(cactus_sem_count(&s_low), 1);
    CHECK_EQ(cactus_sem_take(&s_low, CACTUS_NO_WAIT), CACTUS_OK);

    /* A raise from inside the handler: one more run, after the return. */
    before = runs;
    reraise = 1;
    cactus_irq_raise_software();
    CHECK_EQ(runs - before, 2);

    /* Idle: raised with interrupts masked, taken once every task waits. */
    give_low = 1;
    before = runs;
    cactus_irq_save();
    cactus_irq_raise_software();
    CHECK_EQ(cactus_sem_take(&s_low, CACTUS_FOREVER), CACTUS_OK);
    CHECK_EQ(runs - before, 1);
    give_low = 0;

    CHECK_EQ(max_depth, 1);
    CHECK_EQ(bad_stack, 0);
    CHECK_EQ(not_in_isr, 0);
    CHECK_EQ(irq_on, 0);
    CHECK_EQ(hi_wakes, 2);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "hi", .entry = hi, .stack_size = 1024, .prio = 10 },
    { .name = "low", .entry = low, .stack_size = 1024, .prio = 5 },
};

int main(void)
{
    cactus_sem_init(&s_hi, 0, 10);
    cactus_sem_init(&s_low, 0, 10);
    ktest_start(tasks, 2);
}
