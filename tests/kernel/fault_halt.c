/* Fault policy "halt": the kernel prints a report and calls the halt hook; no task runs after
 * the fault (the hook checks the report and ends the test). */
#include "ktest.h"

const char ktest_name[] = "fault_halt";

static void halt_hook(const cactus_fault *f)
{
    CHECK(f != 0);
    CHECK_EQ(f->reason, CACTUS_FAULT_EXCEPTION);
    CHECK_EQ(f->action, CACTUS_ON_FAULT_HALT);
    CHECK_EQ(f->task, 0);
    CHECK_EQ(f->cause, 3); /* breakpoint */
    KLOG_EXPECT("B");
    ktest_pass();
}

static void breaker(void *arg)
{
    (void)arg;
    klog('B');
    __asm__ volatile("ebreak");
    klog('!');
}

static void other(void *arg)
{
    (void)arg;
    klog('!');
}

static const cactus_task_desc tasks[] = {
    { .name = "breaker", .entry = breaker, .stack_size = 1024, .prio = 5,
      .on_fault = CACTUS_ON_FAULT_HALT },
    { .name = "other", .entry = other, .stack_size = 1024, .prio = 2 },
};

int main(void)
{
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 1, .tasks = tasks, .ntasks = 2,
                                 .halt_hook = halt_hook };
    ktest_start_cfg(&cfg);
}
