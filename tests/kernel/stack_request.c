/* The out-of-stack entry for instrumented code: with the static strategy a request that fits
 * above the limit continues, one that does not applies the task's fault policy (kill). */
#include "ktest.h"

const char ktest_name[] = "stack_request";

static cactus_fault seen;

static void hook(const cactus_fault *f)
{
    seen = *f;
}

static void asker(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_stack_overflow(64), CACTUS_OK);
    klog('a');
    cactus_stack_overflow(4096); /* does not fit in 1 KiB: killed here */
    klog('!');
}

static void checker(void *arg)
{
    (void)arg;
    CHECK_EQ(seen.reason, CACTUS_FAULT_STACK_REQUEST);
    CHECK_EQ(seen.requested, 4096);
    CHECK_EQ(seen.action, CACTUS_ON_FAULT_KILL);
    CHECK_EQ(cactus_task_state(0), CACTUS_TASK_FAULTED);
    KLOG_EXPECT("a");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "asker", .entry = asker, .stack_size = 1024, .prio = 5 },
    { .name = "checker", .entry = checker, .stack_size = 1024, .prio = 2 },
};

int main(void)
{
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 1, .tasks = tasks, .ntasks = 2,
                                 .fault_hook = hook };
    ktest_start_cfg(&cfg);
}
