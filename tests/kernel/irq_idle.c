/* Interrupt handlers run while every task waits (tickless idle): the only task raises the
 * software interrupt with interrupts masked and then blocks, so the kernel is idle when the
 * interrupt is taken. Without a deadline (FOREVER) and with one (a timeout far ahead), the
 * handler's give ends the idle wait at once, the task gets CACTUS_OK, and the tick count goes
 * on from where it was; a plain sleep still ends at its deadline. */
#include "ktest.h"

const char ktest_name[] = "irq_idle";

static cactus_sem sig;
static volatile uint32_t isr_runs;

static void soft_isr(uint32_t source)
{
    (void)source;
    isr_runs++;
    CHECK_EQ(cactus_sem_give(&sig), CACTUS_OK);
}

static void task(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_irq_attach(CACTUS_IRQ_SOFTWARE, soft_isr, 0, "soft_isr"), CACTUS_OK);
    uint32_t t0 = cactus_now();

    cactus_irq_save(); /* taken only once the kernel idles */
    cactus_irq_raise_software();
    CHECK_EQ(cactus_sem_take(&sig, CACTUS_FOREVER), CACTUS_OK);
    CHECK_EQ(isr_runs, 1);
    CHECK(cactus_now() - t0 < 100); /* not a timeout: the handler ended the wait */

    cactus_irq_save();
    cactus_irq_raise_software();
    CHECK_EQ(cactus_sem_take(&sig, 500), CACTUS_OK);
    CHECK_EQ(isr_runs, 2);
    uint32_t t1 = cactus_now();
    CHECK(t1 - t0 < 100);

    CHECK_EQ(cactus_sleep(5), CACTUS_OK);
    CHECK_EQ(cactus_now() - t1, 5);
    CHECK_EQ(cactus_sem_take(&sig, 3), CACTUS_ETIMEOUT);
    CHECK_EQ(cactus_now() - t1, 8);
    CHECK_EQ(isr_runs, 2);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "task", .entry = task, .stack_size = 1024, .prio = 5 },
};

int main(void)
{
    cactus_sem_init(&sig, 0, 1);
    ktest_start(tasks, 1);
}
