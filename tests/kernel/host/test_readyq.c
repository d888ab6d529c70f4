/* Ready queue: O(1) pick of the highest priority, FIFO within a level, rotation. */
#include "htest.h"
#include "readyq.h"

static cactus_node nodes[64];

void test_readyq_empty(void)
{
    struct readyq q;
    readyq_init(&q);
    HT_CHECK(readyq_top(&q) == -1);
    HT_CHECK(readyq_first(&q) == NULL);
}

void test_readyq_priority_order(void)
{
    struct readyq q;
    readyq_init(&q);
    readyq_insert(&q, &nodes[0], 3);
    readyq_insert(&q, &nodes[1], 17);
    readyq_insert(&q, &nodes[2], 0);
    HT_CHECK(readyq_top(&q) == 17);
    HT_CHECK(readyq_first(&q) == &nodes[1]);
    readyq_remove(&q, &nodes[1], 17);
    HT_CHECK(readyq_top(&q) == 3);
    readyq_remove(&q, &nodes[0], 3);
    HT_CHECK(readyq_top(&q) == 0);
    HT_CHECK(readyq_first(&q) == &nodes[2]);
}

void test_readyq_fifo_and_rotate(void)
{
    struct readyq q;
    readyq_init(&q);
    for (int i = 0; i < 3; i++)
        readyq_insert(&q, &nodes[i], 9);
    HT_CHECK(readyq_first(&q) == &nodes[0]);
    readyq_rotate(&q, 9);
    HT_CHECK(readyq_first(&q) == &nodes[1]);
    readyq_rotate(&q, 9);
    HT_CHECK(readyq_first(&q) == &nodes[2]);
    readyq_rotate(&q, 9);
    HT_CHECK(readyq_first(&q) == &nodes[0]);
    readyq_rotate(&q, 4); /* empty level: no effect */
    HT_CHECK(readyq_top(&q) == 9);
}

void test_readyq_remove(void)
{
    struct readyq q;
    readyq_init(&q);
    for (int i = 0; i < 4; i++)
        readyq_insert(&q, &nodes[i], 5);
    readyq_remove(&q, &nodes[0], 5); /* head */
    HT_CHECK(readyq_first(&q) == &nodes[1]);
    readyq_remove(&q, &nodes[2], 5); /* middle */
    HT_CHECK(readyq_first(&q)->next == &nodes[3]);
    HT_CHECK(nodes[3].next == &nodes[1]);
    readyq_remove(&q, &nodes[1], 5);
    readyq_remove(&q, &nodes[3], 5);
    HT_CHECK(readyq_top(&q) == -1);
}

/* readyq_unlink is readyq_remove without clearing the node's links: the queue ends the same,
 * the node keeps its old neighbours. */
void test_readyq_unlink(void)
{
    struct readyq q;
    readyq_init(&q);
    for (int i = 0; i < 3; i++)
        readyq_insert(&q, &nodes[i], 12);
    readyq_insert(&q, &nodes[3], 4);
    readyq_unlink(&q, &nodes[1], 12); /* middle */
    HT_CHECK(nodes[1].next == &nodes[2] && nodes[1].prev == &nodes[0]);
    HT_CHECK(nodes[0].next == &nodes[2] && nodes[2].prev == &nodes[0]);
    readyq_unlink(&q, &nodes[0], 12); /* head */
    HT_CHECK(readyq_first(&q) == &nodes[2] && nodes[2].next == &nodes[2]);
    readyq_unlink(&q, &nodes[2], 12); /* last of the top level: the top drops to 4 */
    HT_CHECK(readyq_top(&q) == 4 && readyq_first(&q) == &nodes[3]);
    HT_CHECK(q.bitmap == (0x80000000u >> 4));
    readyq_insert(&q, &nodes[1], 12); /* a stale node inserts like a fresh one */
    HT_CHECK(readyq_top(&q) == 12 && nodes[1].next == &nodes[1] && nodes[1].prev == &nodes[1]);
}

void test_readyq_all_levels(void)
{
    struct readyq q;
    readyq_init(&q);
    for (int p = 0; p < READYQ_LEVELS; p++)
        readyq_insert(&q, &nodes[p], (unsigned)((p * 7) % READYQ_LEVELS));
    for (int want = READYQ_LEVELS - 1; want >= 0; want--) {
        HT_CHECK(readyq_top(&q) == want);
        cactus_node *n = readyq_first(&q);
        readyq_remove(&q, n, (unsigned)want);
    }
    HT_CHECK(readyq_top(&q) == -1);
}

/* The cached top level always equals a scan of the bitmap, through inserts and removes in a
 * scrambled order (including removes below, at and above the top). */
void test_readyq_top_cache(void)
{
    struct readyq q;
    readyq_init(&q);
    unsigned prio[READYQ_LEVELS];
    for (int i = 0; i < READYQ_LEVELS; i++) {
        prio[i] = (unsigned)((i * 13 + 5) % READYQ_LEVELS);
        readyq_insert(&q, &nodes[i], prio[i]);
        HT_CHECK(readyq_top(&q) == readyq_scan(q.bitmap));
    }
    for (int i = 0; i < READYQ_LEVELS; i++) {
        int k = (i * 11 + 3) % READYQ_LEVELS;
        readyq_remove(&q, &nodes[k], prio[k]);
        HT_CHECK(readyq_top(&q) == readyq_scan(q.bitmap));
    }
    HT_CHECK(readyq_top(&q) == -1);
}

/* readyq_insert_top leaves the queue as readyq_insert would for a level above every non-empty
 * one: same first entry, bitmap and top, and a level that later inserts append to. */
void test_readyq_insert_top(void)
{
    struct readyq q, r;
    readyq_init(&q);
    readyq_init(&r);
    readyq_insert(&q, &nodes[0], 4);
    readyq_insert(&r, &nodes[1], 4);
    readyq_insert_top(&q, &nodes[2], 9);
    readyq_insert(&r, &nodes[3], 9);
    HT_CHECK(q.bitmap == r.bitmap && q.top == r.top && q.top == 9);
    HT_CHECK(readyq_first(&q) == &nodes[2] && readyq_first(&r) == &nodes[3]);
    readyq_insert(&q, &nodes[4], 9);
    HT_CHECK(readyq_first(&q) == &nodes[2] && nodes[2].next == &nodes[4] && nodes[4].next == &nodes[2]);
    readyq_remove(&q, &nodes[2], 9);
    readyq_remove(&q, &nodes[4], 9);
    HT_CHECK(readyq_top(&q) == 4 && readyq_first(&q) == &nodes[0]);
}
