/* Semaphore take with a timeout: expires exactly at the deadline tick with ETIMEOUT, or
 * returns OK at the tick a give arrives, leaving no stale timer behind. */
#include "ktest.h"

const char ktest_name[] = "sem_timeout";

static cactus_sem s;

static void taker(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_sem_take(&s, 10), CACTUS_ETIMEOUT);
    CHECK_EQ(cactus_now(), 10);
    CHECK_EQ(cactus_sem_take(&s, 10), CACTUS_OK); /* the giver gives at tick 15 */
    CHECK_EQ(cactus_now(), 15);
    /* the old timeout (tick 20) must not wake us from this sleep */
    CHECK_EQ(cactus_sleep(10), CACTUS_OK);
    CHECK_EQ(cactus_now(), 25);
    CHECK_EQ(cactus_sem_take(&s, CACTUS_NO_WAIT), CACTUS_ETIMEOUT);
    ktest_pass();
}

static void giver(void *arg)
{
    (void)arg;
    cactus_sleep(15);
    CHECK_EQ(cactus_sem_give(&s), CACTUS_OK);
}

static const cactus_task_desc tasks[] = {
    { .name = "taker", .entry = taker, .stack_size = 1024, .prio = 7 },
    { .name = "giver", .entry = giver, .stack_size = 1024, .prio = 3 },
};

int main(void)
{
    cactus_sem_init(&s, 0, 5);
    ktest_start(tasks, 2);
}
