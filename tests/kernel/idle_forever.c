/* When every live task is blocked with no timeout, nothing can ever run: the kernel reports it
 * and stops (halt hook with no fault report, then exit code CACTUS_EXIT_IDLE). */
#include "ktest.h"

const char ktest_name[] = "idle_forever";

static cactus_sem never;

static void halt_hook(const cactus_fault *f)
{
    CHECK(f == 0);
    KLOG_EXPECT("ab");
    ktest_pass();
}

static void waiter(void *arg)
{
    klog((int)(uintptr_t)arg);
    cactus_sem_take(&never, CACTUS_FOREVER);
    klog('!');
}

static const cactus_task_desc tasks[] = {
    { .name = "a", .entry = waiter, .arg = (void *)'a', .stack_size = 1024, .prio = 5 },
    { .name = "b", .entry = waiter, .arg = (void *)'b', .stack_size = 1024, .prio = 2 },
};

int main(void)
{
    cactus_sem_init(&never, 0, 1);
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 1, .tasks = tasks, .ntasks = 2,
                                 .halt_hook = halt_hook };
    ktest_start_cfg(&cfg);
}
