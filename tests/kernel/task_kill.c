/* Killing tasks in every state: a task blocked with a timeout leaves its wait list and timer
 * (a later give and its old deadline do nothing), a sleeping task, a ready one, a mutex owner
 * (the mutex passes to its waiter), and the caller itself. */
#include "ktest.h"

const char ktest_name[] = "task_kill";

static cactus_sem sem;
static cactus_mutex mtx;
enum { CTL, BLOCKED, SLEEPER, READY, OWNER, WAITER, SELF };

static void blocked(void *arg)
{
    (void)arg;
    cactus_sem_take(&sem, 5);
    klog('!'); /* never reached */
}

static void sleeper(void *arg)
{
    (void)arg;
    cactus_sleep(3);
    klog('!');
}

static void ready(void *arg)
{
    (void)arg;
    for (;;) {
    }
}

static void owner(void *arg)
{
    (void)arg;
    cactus_mutex_lock(&mtx, CACTUS_FOREVER);
    cactus_sleep(1000);
}

static void waiter(void *arg)
{
    (void)arg;
    cactus_sleep(1); /* the owner locks first */
    CHECK_EQ(cactus_mutex_lock(&mtx, CACTUS_FOREVER), CACTUS_OK);
    klog('W');
    cactus_mutex_unlock(&mtx);
}

static void self(void *arg)
{
    (void)arg;
    klog('S');
    cactus_task_kill(cactus_task_self());
    klog('!');
}

static void ctl(void *arg)
{
    (void)arg;
    cactus_sleep(2); /* everyone else has run and blocked */
    CHECK_EQ(cactus_task_state(BLOCKED), CACTUS_TASK_BLOCKED);
    CHECK_EQ(cactus_task_state(SLEEPER), CACTUS_TASK_SLEEPING);
    CHECK_EQ(cactus_task_state(READY), CACTUS_TASK_READY);
    CHECK_EQ(cactus_task_state(SELF), CACTUS_TASK_KILLED);
    CHECK_EQ(cactus_task_prio(OWNER), 6); /* inherited from the waiter */
    CHECK_EQ(cactus_task_kill(BLOCKED), CACTUS_OK);
    CHECK_EQ(cactus_task_kill(SLEEPER), CACTUS_OK);
    CHECK_EQ(cactus_task_kill(READY), CACTUS_OK);
    CHECK_EQ(cactus_task_kill(OWNER), CACTUS_OK); /* waiter (6) gets the mutex, runs later */
    CHECK_EQ(cactus_task_kill(BLOCKED), CACTUS_ESRCH);
    CHECK_EQ(cactus_task_kill(99), CACTUS_ESRCH);
    CHECK_EQ(cactus_sem_give(&sem), CACTUS_OK); /* no waiter left: counts */
    CHECK_EQ(cactus_sem_count(&sem), 1);
    cactus_sleep(10); /* past the killed tasks' deadlines */
    CHECK_EQ(cactus_task_state(BLOCKED), CACTUS_TASK_KILLED);
    CHECK_EQ(cactus_task_state(WAITER), CACTUS_TASK_EXITED);
    KLOG_EXPECT("SW");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    [CTL] = { .name = "ctl", .entry = ctl, .stack_size = 1024, .prio = 9 },
    [BLOCKED] = { .name = "blocked", .entry = blocked, .stack_size = 512, .prio = 5 },
    [SLEEPER] = { .name = "sleeper", .entry = sleeper, .stack_size = 512, .prio = 5 },
    [READY] = { .name = "ready", .entry = ready, .stack_size = 512, .prio = 1 },
    [OWNER] = { .name = "owner", .entry = owner, .stack_size = 512, .prio = 2 },
    [WAITER] = { .name = "waiter", .entry = waiter, .stack_size = 512, .prio = 6 },
    [SELF] = { .name = "self", .entry = self, .stack_size = 512, .prio = 5 },
};

int main(void)
{
    cactus_sem_init(&sem, 0, 5);
    cactus_mutex_init(&mtx);
    ktest_start(tasks, 7);
}
