/* Suspend and resume: a task created suspended runs only after a resume, and at once when it
 * outranks the resumer; a task suspends itself and is resumed by a lower one; a suspended
 * blocked task leaves the wait list and its timeout (a give meanwhile raises the count, and on
 * resume its take returns CACTUS_ETIMEOUT at the resume tick); a sleeper's deadline that passes
 * while it is suspended does not make it run; a suspended ready task gets no CPU; errors. */
#include "ktest.h"

const char ktest_name[] = "task_suspend";

enum { CTL, HI, WORKER };

static cactus_sem s;
static volatile uint32_t progress;
static volatile int wake_ctl;

static void hi(void *arg)
{
    (void)arg;
    klog('H');
    CHECK_EQ(cactus_task_suspend(cactus_task_self()), CACTUS_OK);
    klog('h');
    CHECK_EQ(cactus_sem_take(&s, 50), CACTUS_ETIMEOUT); /* suspended at tick 0, resumed at 5 */
    CHECK_EQ(cactus_now(), 5);
    klog('T');
    CHECK_EQ(cactus_sem_take(&s, CACTUS_NO_WAIT), CACTUS_OK); /* the give made while suspended */
    CHECK_EQ(cactus_sleep(10), CACTUS_OK); /* suspended at 5, resumed at 20 */
    CHECK_EQ(cactus_now(), 20);
    klog('e');
}

static void worker(void *arg)
{
    (void)arg;
    for (;;) {
        progress++;
        if (wake_ctl) {
            wake_ctl = 0;
            CHECK_EQ(cactus_task_resume(CTL), CACTUS_OK); /* ctl outranks us: it runs first */
            klog('w');
        }
    }
}

static void ctl(void *arg)
{
    (void)arg;
    klog('C');
    CHECK_EQ(cactus_task_state(HI), CACTUS_TASK_SUSPENDED);
    CHECK_EQ(cactus_task_resume(HI), CACTUS_OK); /* hi runs at once, then suspends itself */
    klog('c');
    CHECK_EQ(cactus_task_state(HI), CACTUS_TASK_SUSPENDED);
    CHECK_EQ(cactus_task_suspend(HI), CACTUS_OK); /* already suspended: no change */
    CHECK_EQ(cactus_task_resume(HI), CACTUS_OK);  /* hi returns from its suspend and blocks */
    CHECK_EQ(cactus_task_state(HI), CACTUS_TASK_BLOCKED);
    CHECK_EQ(cactus_task_resume(HI), CACTUS_EINVAL);
    CHECK_EQ(cactus_task_suspend(HI), CACTUS_OK);
    CHECK_EQ(cactus_task_state(HI), CACTUS_TASK_SUSPENDED);
    CHECK_EQ(cactus_sem_give(&s), CACTUS_OK); /* hi is on no wait list any more */
    CHECK_EQ(cactus_sem_count(&s), 1);

    CHECK_EQ(cactus_sleep(2), CACTUS_OK); /* the worker runs */
    CHECK(progress > 0);
    CHECK_EQ(cactus_task_suspend(WORKER), CACTUS_OK);
    CHECK_EQ(cactus_task_state(WORKER), CACTUS_TASK_SUSPENDED);
    uint32_t p = progress;
    CHECK_EQ(cactus_sleep(3), CACTUS_OK); /* nothing else is ready: idle */
    CHECK_EQ(progress, p);
    CHECK_EQ(cactus_now(), 5);

    CHECK_EQ(cactus_task_resume(HI), CACTUS_OK); /* its take returns ETIMEOUT now; it sleeps */
    klog('r');
    CHECK_EQ(cactus_task_state(HI), CACTUS_TASK_SLEEPING);
    CHECK_EQ(cactus_task_suspend(HI), CACTUS_OK);
    CHECK_EQ(cactus_sleep(15), CACTUS_OK); /* hi's deadline (15) passes while it is suspended */
    CHECK_EQ(cactus_task_state(HI), CACTUS_TASK_SUSPENDED);
    CHECK_EQ(cactus_task_resume(HI), CACTUS_OK); /* its sleep returns at 20; it exits */
    CHECK_EQ(cactus_task_state(HI), CACTUS_TASK_EXITED);
    CHECK_EQ(cactus_task_resume(HI), CACTUS_ESRCH);

    CHECK_EQ(cactus_task_resume(WORKER), CACTUS_OK);
    CHECK_EQ(cactus_sleep(1), CACTUS_OK);
    CHECK(progress > p);
    wake_ctl = 1;
    klog('s');
    CHECK_EQ(cactus_task_suspend(cactus_task_self()), CACTUS_OK); /* the worker resumes us */
    klog('S');
    CHECK_EQ(cactus_now(), 21);
    KLOG_EXPECT("CHchTresS");

    CHECK_EQ(cactus_task_suspend(WORKER), CACTUS_OK);
    CHECK_EQ(cactus_task_kill(WORKER), CACTUS_OK);
    CHECK_EQ(cactus_task_state(WORKER), CACTUS_TASK_KILLED);
    CHECK_EQ(cactus_task_suspend(WORKER), CACTUS_ESRCH);
    CHECK_EQ(cactus_task_suspend(99), CACTUS_ESRCH);
    CHECK_EQ(cactus_task_resume(-1), CACTUS_ESRCH);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "ctl", .entry = ctl, .stack_size = 1024, .prio = 10 },
    { .name = "hi", .entry = hi, .stack_size = 1024, .prio = 20, .start = CACTUS_START_SUSPENDED },
    { .name = "worker", .entry = worker, .stack_size = 1024, .prio = 5 },
};

int main(void)
{
    cactus_sem_init(&s, 0, 5);
    ktest_start(tasks, 3);
}
