/* Fixed-block pool with waiting: an alloc that times out returns NULL exactly at its deadline
 * tick; a free hands the block straight to the highest-priority waiter (not the one waiting
 * longest), leaves no stale timeout behind, and serves equal priorities in arrival order; a
 * waiter that got its block keeps the high water at the pool's size (1). */
#include "ktest.h"

const char ktest_name[] = "pool_block";

static uint32_t buf[4]; /* one block of 16 bytes */
static cactus_pool pool;
static void *only;

static void owner(void *arg) /* prio 7: takes the only block, frees it at tick 20 */
{
    (void)arg;
    only = cactus_pool_alloc(&pool, CACTUS_NO_WAIT);
    CHECK(only == buf);
    CHECK(cactus_pool_alloc(&pool, CACTUS_NO_WAIT) == 0);
    cactus_sleep(20);
    CHECK_EQ(cactus_pool_free(&pool, only), CACTUS_OK); /* hi is woken with it; we go on */
    klog('O');
    CHECK(cactus_pool_alloc(&pool, CACTUS_NO_WAIT) == 0); /* it went to hi, not to the list */
}

static void hi(void *arg) /* prio 6: waits from tick 2, served first at tick 20 */
{
    (void)arg;
    cactus_sleep(2);
    void *b = cactus_pool_alloc(&pool, 100);
    CHECK(b == only);
    CHECK_EQ(cactus_now(), 20);
    klog('H');
    /* the alloc's timeout (tick 102) must not cut this sleep short */
    CHECK_EQ(cactus_sleep(200), CACTUS_OK);
    CHECK_EQ(cactus_now(), 220);
    CHECK_EQ(cactus_pool_free(&pool, b), CACTUS_OK); /* lo is woken with it */
}

static void tmo(void *arg) /* prio 5: times out at tick 10 */
{
    (void)arg;
    CHECK(cactus_pool_alloc(&pool, 10) == 0);
    CHECK_EQ(cactus_now(), 10);
    klog('T');
}

static void lo(void *arg) /* prio 4: waits from tick 1, longest, but served after hi */
{
    (void)arg;
    cactus_sleep(1);
    void *b = cactus_pool_alloc(&pool, CACTUS_FOREVER);
    CHECK(b == only);
    CHECK_EQ(cactus_now(), 220);
    klog('L');
    CHECK_EQ(cactus_pool_high_water(&pool), 1);
    cactus_sleep(100); /* e1 then e2 queue up meanwhile */
    CHECK_EQ(cactus_pool_free(&pool, b), CACTUS_OK);
}

static void equal(void *arg) /* prio 3, twice: e1 waits from tick 300, e2 from 301 */
{
    int me = (int)(uintptr_t)arg;
    cactus_sleep(300 + (uint32_t)me - 1);
    void *b = cactus_pool_alloc(&pool, CACTUS_FOREVER);
    CHECK(b == only);
    CHECK_EQ(cactus_now(), 320);
    klog('0' + me);
    CHECK_EQ(cactus_pool_free(&pool, b), CACTUS_OK);
    if (me == 2) {
        KLOG_EXPECT("TOHL12");
        CHECK_EQ(cactus_pool_high_water(&pool), 1);
        ktest_pass();
    }
}

static const cactus_task_desc tasks[] = {
    { .name = "owner", .entry = owner, .stack_size = 1024, .prio = 7 },
    { .name = "hi", .entry = hi, .stack_size = 1024, .prio = 6 },
    { .name = "tmo", .entry = tmo, .stack_size = 1024, .prio = 5 },
    { .name = "lo", .entry = lo, .stack_size = 1024, .prio = 4 },
    { .name = "e1", .entry = equal, .arg = (void *)1, .stack_size = 1024, .prio = 3 },
    { .name = "e2", .entry = equal, .arg = (void *)2, .stack_size = 1024, .prio = 3 },
};

int main(void)
{
    cactus_pool_init(&pool, buf, sizeof(buf), 1);
    ktest_start(tasks, 6);
}
