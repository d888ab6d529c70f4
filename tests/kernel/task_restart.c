/* cactus_task_restart: the task starts again from its entry, on a freshly painted stack,
 * keeping its id and base priority; restarting itself works; a dead task cannot restart. */
#include "ktest.h"

const char ktest_name[] = "task_restart";

static int runs;
static cactus_sem go;

static void worker(void *arg)
{
    (void)arg;
    runs++;
    klog('0' + runs);
    if (runs == 3) {
        cactus_task_restart(cactus_task_self()); /* fourth run, then returns */
        klog('!');
    }
    if (runs == 4)
        return;
    ktest_touch_stack(300);
    cactus_sem_take(&go, CACTUS_FOREVER);
    klog('x');
}

static void ctl(void *arg)
{
    (void)arg;
    cactus_stack_info s;
    CHECK_EQ(cactus_task_stack(1, &s), CACTUS_OK);
    CHECK(s.used >= 300);
    CHECK_EQ(cactus_task_restart(1), CACTUS_OK); /* it runs again at once (higher prio) */
    CHECK_EQ(cactus_task_restart(1), CACTUS_OK);
    CHECK_EQ(cactus_task_state(1), CACTUS_TASK_EXITED);
    CHECK_EQ(cactus_task_restart(1), CACTUS_ESRCH);
    CHECK_EQ(runs, 4);
    KLOG_EXPECT("1234");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "ctl", .entry = ctl, .stack_size = 1024, .prio = 3 },
    { .name = "worker", .entry = worker, .stack_size = 1024, .prio = 6 },
};

int main(void)
{
    cactus_sem_init(&go, 0, 1);
    ktest_start(tasks, 2);
}
