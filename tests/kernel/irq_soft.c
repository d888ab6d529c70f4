/* Software interrupts with ISR-safe kernel calls: a handler gives two semaphores, waking two
 * tasks that outrank the interrupted one; neither runs until the handler returns, then the
 * higher runs first, with one switch for the whole handler (three per round: to it, to the
 * other woken task, back to the interrupted one). A non-blocking take from the handler works. */
#include "ktest.h"

const char ktest_name[] = "irq_soft";

static cactus_sem s_hi, s_mid, s_none;
static volatile uint32_t isr_runs;

static void soft_isr(uint32_t source)
{
    CHECK_EQ(source, CACTUS_IRQ_SOFTWARE);
    CHECK(cactus_in_isr());
    klog('I');
    CHECK_EQ(cactus_sem_give(&s_mid), CACTUS_OK);
    CHECK_EQ(cactus_sem_give(&s_hi), CACTUS_OK);
    CHECK_EQ(cactus_sem_take(&s_none, CACTUS_NO_WAIT), CACTUS_ETIMEOUT);
    CHECK_EQ(cactus_task_state(0), CACTUS_TASK_READY); /* woken, not yet running */
    klog('i');
    isr_runs++;
}

static void hi(void *arg)
{
    (void)arg;
    for (;;) {
        CHECK_EQ(cactus_sem_take(&s_hi, CACTUS_FOREVER), CACTUS_OK);
        CHECK(!cactus_in_isr());
        klog('H');
    }
}

static void mid(void *arg)
{
    (void)arg;
    for (;;) {
        CHECK_EQ(cactus_sem_take(&s_mid, CACTUS_FOREVER), CACTUS_OK);
        klog('M');
    }
}

static void low(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_irq_attach(CACTUS_IRQ_SOFTWARE, soft_isr, 0, "soft_isr"), CACTUS_OK);
    CHECK_EQ(cactus_irq_attach(CACTUS_IRQ_SOFTWARE, soft_isr, 1, "bad"), CACTUS_EINVAL);
    CHECK_EQ(cactus_irq_attach(10, soft_isr, 0, "bad"), CACTUS_EINVAL);
    CHECK_EQ(cactus_irq_attach(10, soft_isr, 8, "bad"), CACTUS_EINVAL);
    CHECK_EQ(cactus_irq_attach(32, soft_isr, 1, "bad"), CACTUS_EINVAL);
    CHECK_EQ(cactus_irq_attach(10, 0, 1, "bad"), CACTUS_EINVAL);
    CHECK(!cactus_in_isr());
    for (uint32_t round = 0; round < 3; round++) {
        cactus_stats before, after;
        cactus_get_stats(&before);
        klog('L');
        cactus_irq_raise_software();
        while (isr_runs == round) /* QEMU may take it a few instructions later */
            ;
        klog('l');
        cactus_get_stats(&after);
        CHECK_EQ(after.switches - before.switches, 3);
    }
    KLOG_EXPECT("LIiHMlLIiHMlLIiHMl");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "hi", .entry = hi, .stack_size = 1024, .prio = 5 },
    { .name = "mid", .entry = mid, .stack_size = 1024, .prio = 3 },
    { .name = "low", .entry = low, .stack_size = 1024, .prio = 1 },
};

int main(void)
{
    cactus_sem_init(&s_hi, 0, 1);
    cactus_sem_init(&s_mid, 0, 1);
    cactus_sem_init(&s_none, 0, 1);
    ktest_start(tasks, 3);
}
