/* The `relocate` strategy when no region can give (docs/sensmart.md): `hog` recurses without
 * end; its stack grows by relocation, taking half of the largest surplus each time, until no
 * region has what the next frame needs. Then its fault policy (kill) applies and its region
 * returns to the pool as free memory: `late` then recurses deeper than its own 1 KiB, growing
 * into that memory, and `keeper`'s array, moved by the hog's growths, is intact. */
#include "ktest.h"
#include "cactus/relocate.h"

const char ktest_name[] = "relocate_exhaust";

static volatile uint32_t sink;
static volatile uint32_t forever = 1; /* the recursion's end, never reached */
static int hog_id;

static uint32_t __attribute__((noinline)) bottomless(uint32_t level)
{
    volatile uint32_t pad[12];
    pad[0] = level;
    pad[11] = level;
    uint32_t r = forever ? bottomless(level + 1) : level;
    sink = pad[0] + pad[11];
    return r;
}

static uint32_t __attribute__((noinline)) recurse(uint32_t level)
{
    volatile uint32_t mine[8];
    for (int i = 0; i < 8; i++)
        mine[i] = level + (uint32_t)i;
    uint32_t below = level ? recurse(level - 1) : 0;
    for (int i = 0; i < 8; i++)
        CHECK_EQ(mine[i], level + (uint32_t)i);
    return below + 1;
}

static void hog(void *arg)
{
    (void)arg;
    hog_id = cactus_task_self();
    klog('h');
    sink = bottomless(0);
    CHECK(0); /* never returns: killed by its fault policy */
}

static void keeper(void *arg)
{
    (void)arg;
    volatile uint32_t hold[128];
    for (uint32_t i = 0; i < 128; i++)
        hold[i] = i * 7u + 3u;
    cactus_sleep(5); /* hog runs, grows and dies meanwhile */
    for (uint32_t i = 0; i < 128; i++)
        CHECK_EQ(hold[i], i * 7u + 3u);
    klog('k');
}

static void late(void *arg)
{
    (void)arg;
    cactus_sleep(50);
    CHECK_EQ(cactus_task_state(hog_id), CACTUS_TASK_FAULTED);
    cactus_relocate_counts c;
    cactus_relocate_stats(&c);
    CHECK(c.relocations >= 3);
    CHECK(c.refusals >= 1);
    CHECK_EQ(recurse(80), 81u); /* about 5 KiB: more than the pool had free before hog died */
    klog('l');
    KLOG_EXPECT("hkl");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "late", .entry = late, .stack_size = 1024, .prio = 6 },
    { .name = "keeper", .entry = keeper, .stack_size = 2048, .prio = 5 },
    { .name = "hog", .entry = hog, .stack_size = 1024, .prio = 2, .on_fault = CACTUS_ON_FAULT_KILL },
};

int main(void)
{
    ktest_start(tasks, 3);
}
