/* Mutex ownership rules: lock/unlock, EPERM for a non-owner unlock, EDEADLK for a relock,
 * NO_WAIT and timed failure on a held mutex, hand-over to the waiter on unlock. */
#include "ktest.h"

const char ktest_name[] = "mutex_basic";

static cactus_mutex m;

static void other(void *arg)
{
    (void)arg;
    cactus_sleep(1); /* let the owner lock first */
    CHECK_EQ(cactus_mutex_unlock(&m), CACTUS_EPERM);
    CHECK_EQ(cactus_mutex_lock(&m, CACTUS_NO_WAIT), CACTUS_ETIMEOUT);
    uint32_t t0 = cactus_now();
    CHECK_EQ(cactus_mutex_lock(&m, 4), CACTUS_ETIMEOUT);
    CHECK_EQ(cactus_now(), t0 + 4);
    klog('O');
    CHECK_EQ(cactus_mutex_lock(&m, CACTUS_FOREVER), CACTUS_OK); /* handed over by owner */
    klog('G');
    CHECK_EQ(cactus_mutex_unlock(&m), CACTUS_OK);
}

static void owner(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_mutex_lock(&m, CACTUS_FOREVER), CACTUS_OK);
    CHECK_EQ(cactus_mutex_lock(&m, CACTUS_FOREVER), CACTUS_EDEADLK);
    cactus_sleep(1); /* other runs: EPERM, NO_WAIT, then waits 4 ticks */
    cactus_sleep(10);
    klog('U');
    CHECK_EQ(cactus_mutex_unlock(&m), CACTUS_OK); /* other (higher) takes it and runs */
    klog('E');
    CHECK_EQ(cactus_mutex_unlock(&m), CACTUS_EPERM);
    CHECK_EQ(cactus_mutex_lock(&m, CACTUS_NO_WAIT), CACTUS_OK);
    CHECK_EQ(cactus_mutex_unlock(&m), CACTUS_OK);
    KLOG_EXPECT("OUGE");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "owner", .entry = owner, .stack_size = 1024, .prio = 4 },
    { .name = "other", .entry = other, .stack_size = 1024, .prio = 6 },
};

int main(void)
{
    cactus_mutex_init(&m);
    ktest_start(tasks, 2);
}
