/* A direct handler (docs/interrupts.md, "Direct handlers") that makes a blocking kernel call
 * is the same clear kernel error as a plain handler's (irq_block.c): the kernel names the
 * handler given to cactus_irq_attach_direct_software and stops through the halt hook. */
#include "ktest.h"

const char ktest_name[] = "irq_direct_block";

static cactus_sem never;
static volatile int in_isr;

CACTUS_DIRECT_ISR_SOFTWARE(bad_direct_isr)
{
    in_isr = 1;
    cactus_sem_take(&never, 10); /* blocks: not allowed in a handler */
    in_isr = 2;
}

static void halt_hook(const cactus_fault *f)
{
    CHECK(f == 0);
    CHECK_EQ(in_isr, 1);
    ktest_pass();
}

static void task(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_irq_attach_direct_software("bad_direct_isr"), CACTUS_OK);
    cactus_irq_raise_software();
    for (;;)
        ;
}

static const cactus_task_desc tasks[] = {
    { .name = "task", .entry = task, .stack_size = 1024, .prio = 5 },
};

int main(void)
{
    cactus_sem_init(&never, 0, 1);
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 1, .tasks = tasks, .ntasks = 1,
                                 .halt_hook = halt_hook };
    ktest_start_cfg(&cfg);
}
