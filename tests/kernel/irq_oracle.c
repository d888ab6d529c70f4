/* The ownership oracle judges interrupt handlers (cactus-sim; on QEMU there is no oracle and
 * the test checks only the handler ran): a handler that stores into the interrupted task's
 * stack is one violation, a handler that stores into its own frame and a global is none. */
#include "ktest.h"

const char ktest_name[] = "irq_oracle";

static volatile uint32_t *volatile target; /* a word of the task's stack */
static volatile uint32_t runs, global_word;

static void isr(uint32_t source)
{
    (void)source;
    volatile uint32_t own[4];
    own[runs % 4] = runs; /* the interrupt stack: the kernel's */
    global_word = own[runs % 4];
    if (target)
        *target = 0xBAD; /* the task's stack: a violation */
    runs++;
}

static uint32_t violations(void)
{
    uint32_t v = 0;
    return cactus_oracle_violations(&v) == 0 ? v : 0xFFFFFFFFu;
}

static void task(void *arg)
{
    (void)arg;
    volatile uint32_t mine = 1;
    int sim = violations() != 0xFFFFFFFFu;
    CHECK_EQ(cactus_irq_attach(CACTUS_IRQ_SOFTWARE, isr, 0, "isr"), CACTUS_OK);
    cactus_irq_raise_software();
    while (runs < 1)
        ;
    if (sim)
        CHECK_EQ(violations(), 0);
    target = &mine;
    cactus_irq_raise_software();
    while (runs < 2)
        ;
    CHECK_EQ(mine, 0xBAD);
    if (sim)
        CHECK_EQ(violations(), 1);
    ktest_oracle_violations_allowed = 1;
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "task", .entry = task, .stack_size = 1024, .prio = 5 },
};

int main(void)
{
    ktest_start(tasks, 1);
}
