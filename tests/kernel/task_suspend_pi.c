/* Suspending a task that waits for a mutex takes it off the mutex's wait list, so the owner's
 * inherited priority drops at once; resumed, its lock returns CACTUS_ETIMEOUT, and a new lock
 * raises the owner again. A suspended owner keeps its mutex. */
#include "ktest.h"

const char ktest_name[] = "task_suspend_pi";

enum { CTL, HI, LO };

static cactus_mutex m;
static cactus_sem go;

static void hi(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_sleep(1), CACTUS_OK); /* lo locks first */
    CHECK_EQ(cactus_mutex_lock(&m, CACTUS_FOREVER), CACTUS_ETIMEOUT); /* suspended, resumed */
    CHECK_EQ(cactus_now(), 2);
    klog('T');
    CHECK_EQ(cactus_mutex_lock(&m, CACTUS_FOREVER), CACTUS_OK); /* lo unlocks */
    klog('H');
    CHECK_EQ(cactus_mutex_unlock(&m), CACTUS_OK);
}

static void lo(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_mutex_lock(&m, CACTUS_FOREVER), CACTUS_OK);
    /* Holds m while blocked; suspended and resumed meanwhile, so the take times out. */
    CHECK_EQ(cactus_sem_take(&go, CACTUS_FOREVER), CACTUS_ETIMEOUT);
    CHECK_EQ(cactus_sem_take(&go, CACTUS_NO_WAIT), CACTUS_OK); /* the give made meanwhile */
    klog('L');
    CHECK_EQ(cactus_mutex_unlock(&m), CACTUS_OK); /* hi takes it and runs at once */
    klog('l');
}

static void ctl(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_sleep(2), CACTUS_OK);
    CHECK_EQ(cactus_task_state(HI), CACTUS_TASK_BLOCKED);
    CHECK_EQ(cactus_task_prio(LO), 20); /* inherited from hi */
    CHECK_EQ(cactus_task_suspend(HI), CACTUS_OK);
    CHECK_EQ(cactus_task_prio(LO), 3);  /* hi left the wait list */
    CHECK_EQ(cactus_task_resume(HI), CACTUS_OK); /* its lock returns; it locks again */
    CHECK_EQ(cactus_task_prio(LO), 20);
    CHECK_EQ(cactus_task_suspend(LO), CACTUS_OK); /* an owner keeps its mutex */
    CHECK_EQ(cactus_task_prio(LO), 20);
    CHECK_EQ(cactus_sem_give(&go), CACTUS_OK); /* lo is on no wait list: the count goes up */
    CHECK_EQ(cactus_task_state(HI), CACTUS_TASK_BLOCKED);
    /* lo (inherited 20) runs at once, unlocks: hi runs, then we do (lo is back at 3). */
    CHECK_EQ(cactus_task_resume(LO), CACTUS_OK);
    klog('c');
    KLOG_EXPECT("TLHc");
    CHECK_EQ(cactus_task_prio(LO), 3);
    CHECK_EQ(cactus_task_state(HI), CACTUS_TASK_EXITED);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "ctl", .entry = ctl, .stack_size = 1024, .prio = 10 },
    { .name = "hi", .entry = hi, .stack_size = 1024, .prio = 20 },
    { .name = "lo", .entry = lo, .stack_size = 1024, .prio = 3 },
};

int main(void)
{
    cactus_mutex_init(&m);
    cactus_sem_init(&go, 0, 1);
    ktest_start(tasks, 3);
}
