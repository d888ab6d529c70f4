/* Binary semaphore as a signal: a give to a waiting higher-priority task switches to it at
 * once; a give with no waiter is remembered once (a second one reports EFULL). */
#include "ktest.h"

const char ktest_name[] = "sem_binary";

static cactus_sem sig;

static void waiter(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(cactus_sem_take(&sig, CACTUS_FOREVER), CACTUS_OK);
        klog('W');
    }
}

static void signaller(void *arg)
{
    (void)arg;
    klog('1');
    CHECK_EQ(cactus_sem_give(&sig), CACTUS_OK); /* waiter runs before this returns */
    klog('2');
    CHECK_EQ(cactus_sem_give(&sig), CACTUS_OK);
    klog('3');
    CHECK_EQ(cactus_task_state(0), CACTUS_TASK_BLOCKED);
    KLOG_EXPECT("1W2W3");
    /* no waiter any more once it exits: the binary semaphore saturates at 1 */
    CHECK_EQ(cactus_sem_give(&sig), CACTUS_OK); /* third take */
    CHECK_EQ(cactus_task_state(0), CACTUS_TASK_EXITED);
    CHECK_EQ(cactus_sem_give(&sig), CACTUS_OK);
    CHECK_EQ(cactus_sem_give(&sig), CACTUS_EFULL);
    CHECK_EQ(cactus_sem_count(&sig), 1);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "waiter", .entry = waiter, .stack_size = 1024, .prio = 7 },
    { .name = "signaller", .entry = signaller, .stack_size = 1024, .prio = 2 },
};

int main(void)
{
    cactus_sem_init(&sig, 0, 1);
    ktest_start(tasks, 2);
}
