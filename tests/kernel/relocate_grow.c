/* The `relocate` strategy (docs/sensmart.md) with the hardware stack window, in a 12 KiB pool:
 * `deep` (a 512-byte stack) recurses about 6 KiB deep while `a` and `b` (4 KiB each) hold a
 * pattern in a local array and wait on semaphores. Every growth moves regions: the first take
 * the free tail (moving a's and b's stacks up, with their live frames), the later ones half of
 * a's or b's surplus. Each frame of the recursion keeps a value it checks on the way back, a
 * and b check their arrays after the moves, then pass a stack-resident message through a queue
 * to a blocked receiver (the kernel copies into the other task's logical buffer). Nothing may
 * be lost, no growth refused, and the oracle (which follows every move) sees no violation. */
#include "ktest.h"
#include "cactus/relocate.h"

const char ktest_name[] = "relocate_grow";

#define DEPTH 96
#define WORDS 256

static cactus_sem go_a, go_b, done;
static cactus_queue q;
static uint32_t qbuf[4 * 4];

/* About 64 bytes per level: a local array the level fills and checks after its callee. */
static uint32_t __attribute__((noinline)) recurse(uint32_t level)
{
    volatile uint32_t mine[8];
    for (int i = 0; i < 8; i++)
        mine[i] = level * 8u + (uint32_t)i;
    uint32_t below = level ? recurse(level - 1) : 0;
    uint32_t sum = 0;
    for (int i = 0; i < 8; i++) {
        CHECK_EQ(mine[i], level * 8u + (uint32_t)i);
        sum += mine[i];
    }
    return below + sum;
}

static void deep(void *arg)
{
    (void)arg;
    uint32_t want = 0;
    for (uint32_t l = 0; l <= DEPTH; l++)
        for (uint32_t i = 0; i < 8; i++)
            want += l * 8u + i;
    CHECK_EQ(recurse(DEPTH), want);
    cactus_relocate_counts c;
    cactus_relocate_stats(&c);
    CHECK(c.relocations >= 3);
    CHECK(c.bytes_moved > 0);
    CHECK_EQ(c.refusals, 0);
    /* Twice more: the stack is big enough now, nothing moves. */
    CHECK_EQ(recurse(DEPTH), want);
    cactus_relocate_counts again;
    cactus_relocate_stats(&again);
    CHECK_EQ(again.relocations, c.relocations);
    klog('D');
    cactus_sem_give(&go_a);
    cactus_sem_give(&go_b);
    CHECK_EQ(cactus_sem_take(&done, CACTUS_FOREVER), CACTUS_OK);
    CHECK_EQ(cactus_sem_take(&done, CACTUS_FOREVER), CACTUS_OK);
    KLOG_EXPECT("DabRS");
    ktest_pass();
}

/* Word i of a held array: distinct per word and per seed, so a word moved to the wrong place
 * or lost in a move is caught. */
static uint32_t pattern(uint32_t seed, uint32_t i)
{
    return seed ^ (i * 2654435761u);
}

static void fill(volatile uint32_t *w, uint32_t seed)
{
    for (uint32_t i = 0; i < WORDS; i++)
        w[i] = pattern(seed, i);
}

static void check(const volatile uint32_t *w, uint32_t seed)
{
    for (uint32_t i = 0; i < WORDS; i++)
        CHECK_EQ(w[i], pattern(seed, i));
}

/* a: holds its array across the moves, then receives a message into a stack buffer. */
static void task_a(void *arg)
{
    (void)arg;
    volatile uint32_t hold[WORDS];
    fill(hold, 0xA5A50000u);
    CHECK_EQ(cactus_sem_take(&go_a, CACTUS_FOREVER), CACTUS_OK);
    check(hold, 0xA5A50000u);
    klog('a');
    uint32_t msg[4] = { 0 };
    CHECK_EQ(cactus_queue_recv(&q, msg, CACTUS_FOREVER), CACTUS_OK); /* blocks: b sends */
    klog('R');
    CHECK_EQ(msg[0], 0x11u);
    CHECK_EQ(msg[3], 0x44u);
    check(hold, 0xA5A50000u);
    cactus_sem_give(&done);
}

/* b: the same with another pattern, then sends from its own stack to the waiting a. */
static void task_b(void *arg)
{
    (void)arg;
    volatile uint32_t hold[WORDS];
    fill(hold, 0x5A5A0000u);
    CHECK_EQ(cactus_sem_take(&go_b, CACTUS_FOREVER), CACTUS_OK);
    check(hold, 0x5A5A0000u);
    klog('b');
    uint32_t msg[4] = { 0x11, 0x22, 0x33, 0x44 };
    CHECK_EQ(cactus_queue_send(&q, msg, CACTUS_FOREVER), CACTUS_OK);
    klog('S');
    check(hold, 0x5A5A0000u);
    cactus_sem_give(&done);
}

static const cactus_task_desc tasks[] = {
    { .name = "deep", .entry = deep, .stack_size = 512, .prio = 2 },
    { .name = "a", .entry = task_a, .stack_size = 4096, .prio = 5 },
    { .name = "b", .entry = task_b, .stack_size = 4096, .prio = 4 },
};

int main(void)
{
    cactus_sem_init(&go_a, 0, 1);
    cactus_sem_init(&go_b, 0, 1);
    cactus_sem_init(&done, 0, 2);
    cactus_queue_init(&q, qbuf, 4 * sizeof(uint32_t), 4);
    ktest_start(tasks, 3);
}
