/* Kernel copies into stack buffers the `relocate` strategy must first grow into (docs/sensmart.md,
 * "Which window is in force", rule 4). `rx` (a 512-byte stack) receives 256-byte items into
 * frame buffers of 1, 7 and 9 KiB that it never writes before the kernel does, so each item
 * lands below its stack's bound:
 *   1. rx blocks on the empty queue; tx's send copies straight into rx's buffer: the kernel
 *      grows the stack of a task that is not running;
 *   2. tx fills the one-slot queue and blocks on a second item; rx's receive takes the queued
 *      item in its kernel call (a sender waits): the kernel grows the running task's stack;
 *   3. rx receives the item the last send left queued in task context, with no kernel call:
 *      the copy's store takes the stack-window exception.
 * Each case must grow rx's stack (the relocation count rises), every item arrives whole, and
 * the oracle sees no violation. */
#include "ktest.h"
#include "cactus/relocate.h"

const char ktest_name[] = "relocate_queue";

#define ITEM 256u
static uint8_t ring[ITEM];
static cactus_queue q;

static uint32_t relocations(void)
{
    cactus_relocate_counts c;
    cactus_relocate_stats(&c);
    return c.relocations;
}

static void fill(uint8_t *item, uint8_t seed)
{
    for (uint32_t i = 0; i < ITEM; i++)
        item[i] = (uint8_t)(seed + i * 7u);
}

static void check(const uint8_t *item, uint8_t seed)
{
    for (uint32_t i = 0; i < ITEM; i++)
        CHECK_EQ(item[i], (uint8_t)(seed + i * 7u));
}

/* Receives one item into the lowest bytes of a `size`-byte frame buffer never written before
 * (no call between the frame's allocation and the receive stores below it) and checks it. */
#define RECEIVER(name, size)                                                                       \
    static void __attribute__((noinline)) name(uint8_t seed)                                       \
    {                                                                                              \
        uint8_t buf[size];                                                                         \
        CHECK_EQ(cactus_queue_recv(&q, buf, CACTUS_FOREVER), CACTUS_OK);                           \
        check(buf, seed);                                                                          \
    }
RECEIVER(recv_1k, 1024)
RECEIVER(recv_7k, 7 * 1024)
RECEIVER(recv_9k, 9 * 1024)

static void rx(void *arg)
{
    (void)arg;
    uint32_t r0 = relocations();
    recv_1k(1); /* case 1: tx's send grows this blocked task's stack */
    uint32_t r1 = relocations();
    CHECK(r1 > r0);
    klog('1');
    cactus_sleep(2); /* tx queues item 2 and blocks sending item 3 */
    recv_7k(2);      /* case 2: grown in rx's own kernel call (tx waits) */
    uint32_t r2 = relocations();
    CHECK(r2 > r1);
    klog('2');
    recv_9k(3); /* case 3: item 3 queued, copied in task context */
    CHECK(relocations() > r2);
    klog('3');
    KLOG_EXPECT("S123");
    ktest_pass();
}

static void tx(void *arg)
{
    (void)arg;
    uint8_t item[ITEM];
    klog('S');
    for (uint8_t seed = 1; seed <= 3; seed++) {
        fill(item, seed);
        CHECK_EQ(cactus_queue_send(&q, item, CACTUS_FOREVER), CACTUS_OK);
    }
    cactus_sleep(100); /* rx ends the run */
}

static const cactus_task_desc tasks[] = {
    { .name = "rx", .entry = rx, .stack_size = 512, .prio = 5 },
    { .name = "tx", .entry = tx, .stack_size = 1024, .prio = 3 },
};

int main(void)
{
    cactus_queue_init(&q, ring, ITEM, 1);
    ktest_start(tasks, 2);
}
