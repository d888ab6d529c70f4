/* The resume half of the request path: a check that fails in the code while its table entry
 * asks for bytes the strategy can grant (check_sites.S: ck_resume, E = 64) resumes at the
 * check's continuation with the full context: every argument register survives the trap, the
 * task is not faulted, and it can do so repeatedly, between switches and from two tasks; a task
 * inside a critical section (interrupts masked) is resumed with interrupts still masked. */
#include "check_sites.h"
#include "ktest.h"

const char ktest_name[] = "check_resume";

static volatile int faults;

static void hook(const cactus_fault *f)
{
    (void)f;
    faults++;
}

static void asker(void *arg)
{
    uint32_t base = (uint32_t)(uintptr_t)arg;
    for (uint32_t i = 0; i < 5; i++) {
        uint32_t got = ck_resume(base + i, 2, 3, 4, 5, 6, 7, 8 * i);
        CHECK_EQ(got, base + i + 27 + 8 * i);
        klog(base == 100 ? 'a' : 'b');
        cactus_yield();
    }
    uint32_t irq = cactus_irq_save();
    CHECK(irq != 0); /* interrupts were enabled */
    CHECK_EQ(ck_resume(1, 1, 1, 1, 1, 1, 1, 1), 8);
    CHECK_EQ(cactus_irq_save(), 0); /* still masked after the trap */
    cactus_irq_restore(irq);
}

static void checker(void *arg)
{
    (void)arg;
    CHECK_EQ(faults, 0);
    CHECK_EQ(cactus_task_state(0), CACTUS_TASK_EXITED);
    CHECK_EQ(cactus_task_state(1), CACTUS_TASK_EXITED);
    KLOG_EXPECT("ababababab");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "a", .entry = asker, .arg = (void *)100, .stack_size = 1024, .prio = 5 },
    { .name = "b", .entry = asker, .arg = (void *)200, .stack_size = 1024, .prio = 5 },
    { .name = "checker", .entry = checker, .stack_size = 1024, .prio = 2 },
};

int main(void)
{
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 1, .tasks = tasks, .ntasks = 3,
                                 .fault_hook = hook };
    ktest_start_cfg(&cfg);
}
