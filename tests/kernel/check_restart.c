/* A failed stack check under the restart policy: the task is restarted from its entry on a
 * fresh stack (same id) and, not asking for too much the second time, runs to completion. */
#include "check_sites.h"
#include "ktest.h"

const char ktest_name[] = "check_restart";

static cactus_fault seen;
static volatile int faults, runs;

static void hook(const cactus_fault *f)
{
    seen = *f;
    faults++;
}

static void worker(void *arg)
{
    (void)arg;
    runs++;
    klog('0' + runs);
    CHECK_EQ(ck_fill_256(runs), 256);
    if (runs == 1)
        ck_fill_2048(0x5A); /* fails: restarted */
    klog('e');
}

static void checker(void *arg)
{
    (void)arg;
    CHECK_EQ(faults, 1);
    CHECK_EQ(seen.reason, CACTUS_FAULT_STACK_REQUEST);
    CHECK_EQ(seen.action, CACTUS_ON_FAULT_RESTART);
    CHECK_EQ(seen.task, 0);
    CHECK_EQ(seen.pc, (uintptr_t)ck_fill_2048_site);
    CHECK_EQ(seen.requested, 2048 - 16);
    CHECK_EQ(runs, 2);
    CHECK_EQ(cactus_task_state(0), CACTUS_TASK_EXITED);
    KLOG_EXPECT("12e");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "worker", .entry = worker, .stack_size = 1024, .prio = 5,
      .on_fault = CACTUS_ON_FAULT_RESTART },
    { .name = "checker", .entry = checker, .stack_size = 1024, .prio = 2 },
};

int main(void)
{
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 1, .tasks = tasks, .ntasks = 2,
                                 .fault_hook = hook };
    ktest_start_cfg(&cfg);
}
