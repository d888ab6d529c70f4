/* SenSmart's binary-tree "sense-and-send" scenario (paper 003, section V-D, Figures 7 and 8;
 * docs/sensmart.md "The binary-tree scenario"): one feeding task builds six random binary
 * search trees on the heap (a static node array: Cactus has no sbrk), then the search tasks
 * recurse into randomly chosen trees after random keys and report what they find.
 *
 * - feed_main (task 0, the highest priority): draws TREE_NODES keys per tree from a seeded
 *   xorshift generator and inserts them (iteratively: the feeder's stack stays flat), then
 *   waits until every search task has reported, checks each report against an iterative
 *   replay of the same searches, prints one line and exits 0 (1 on any mismatch).
 * - search_main (tasks 1..FW_NTASKS-1, arg = its index, one priority: round robin): SEARCHES
 *   searches, each a recursion of one frame per level (search()), whose frame holds a small
 *   packet (TRAIL words) it fills from the node and folds its child's packet into, through a
 *   pointer to the parent's packet (an address of a local: under `relocate` with the software
 *   window these accesses are translated). Its report is a checksum of every packet and
 *   value it found, and how many keys it found.
 *
 * Everything is deterministic: the trees and each task's keys depend only on the seeds, so
 * the output is the same under every stack strategy and any interleaving. A search task that
 * cannot get stack ends in its fault policy (the bench's manifests say `halt`: the run exits
 * 3 and does not count).
 *
 * Markers for `cactus bench sensmart --parts trees` (crates/bench/src/sensmart/trees.rs):
 * 1 = keys found, 2 = checksum, 3 = deepest search (levels), 4 = mean search depth x 100,
 * 5 = search tasks. */
#include "cactus_firmware.h"

/* The kernel's marker (kernel/trace/ktrace.h): the trace device's MARKER event on cactus-sim,
 * a no-op in firmware built for QEMU (trace_none), so this firmware runs on both. */
void ktrace_marker(uint32_t id, uint32_t value);

#ifndef TREE_NODES
#define TREE_NODES 256 /* nodes per tree */
#endif
#ifndef SEARCHES
#define SEARCHES 32 /* searches per search task */
#endif
#ifndef TREES
#define TREES 6 /* the paper's six trees */
#endif
#define TRAIL 6              /* words of a level's packet */
#define KEYS (4u * TREE_NODES) /* keys are drawn from [0, KEYS): about a quarter are found */
#define MAX_DEPTH 128        /* deeper than any random tree here; the replay refuses more */
#define SEARCHERS (FW_NTASKS - 1)

struct node {
    uint32_t key, value;
    struct node *left, *right;
};

static struct node heap[TREES * TREE_NODES]; /* "the heap" the feeder stores the trees on */
static struct node *roots[TREES];
static uint32_t sums[FW_NTASKS], hits[FW_NTASKS];
static volatile uint32_t reported;

static uint32_t next(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

/* The word i of the packet a level fills from node n at depth d. */
static uint32_t word(const struct node *n, uint32_t d, uint32_t i)
{
    uint32_t h = n->key * 0x9E3779B1u + n->value + (d << 8) + i;
    h ^= h >> 15;
    h *= 0x85EBCA77u;
    return h ^ (h >> 13);
}

/* One level: fills its packet, recurses one level down (unless n holds the key), folds the
 * child's packet and the value into its own, and its own into the parent's `up`. Returns the
 * value found (0: none). */
static uint32_t __attribute__((noinline)) search(const struct node *n, uint32_t key, uint32_t d,
                                                 uint32_t *up)
{
    if (!n)
        return 0;
    uint32_t trail[TRAIL];
    for (uint32_t i = 0; i < TRAIL; i++)
        trail[i] = word(n, d, i);
    uint32_t r;
    if (key == n->key)
        r = n->value;
    else
        r = search(key < n->key ? n->left : n->right, key, d + 1, trail);
    for (uint32_t i = 0; i < TRAIL; i++)
        up[i] ^= trail[i] + r;
    return r;
}

static uint32_t seed_of(uint32_t task)
{
    return 0x2545F491u * (task + 1u) + 0x1234567u;
}

static uint32_t fold(uint32_t sum, uint32_t r, const uint32_t *packet)
{
    for (uint32_t i = 0; i < TRAIL; i++)
        sum = (sum ^ packet[i]) * 0x01000193u;
    return (sum ^ r) * 0x01000193u;
}

void search_main(void *arg)
{
    uint32_t me = (uint32_t)(uintptr_t)arg, s = seed_of(me), sum = 0x811C9DC5u, found = 0;
    for (uint32_t k = 0; k < SEARCHES; k++) {
        uint32_t t = next(&s) % TREES, key = next(&s) % KEYS;
        uint32_t packet[TRAIL] = { 0 };
        uint32_t r = search(roots[t], key, 0, packet);
        found += r != 0;
        sum = fold(sum, r, packet);
    }
    sums[me] = sum;
    hits[me] = found;
    uint32_t irq = cactus_irq_save();
    reported++;
    cactus_irq_restore(irq);
}

/* The same search without recursion: the path first, then the packets folded bottom-up
 * exactly as search() folds them. Returns the value found; -1u (and *depth = MAX_DEPTH) when
 * a path is too deep to replay. */
static uint32_t replay(const struct node *n, uint32_t key, uint32_t *packet, uint32_t *depth)
{
    static const struct node *path[MAX_DEPTH];
    uint32_t len = 0, r = 0;
    while (n) {
        if (len == MAX_DEPTH) {
            *depth = MAX_DEPTH;
            return ~0u;
        }
        path[len++] = n;
        if (key == n->key) {
            r = n->value;
            break;
        }
        n = key < n->key ? n->left : n->right;
    }
    *depth = len ? len - 1 : 0;
    uint32_t below[TRAIL] = { 0 };
    for (uint32_t l = len; l-- > 0;) {
        uint32_t t[TRAIL];
        for (uint32_t i = 0; i < TRAIL; i++)
            t[i] = word(path[l], l, i) ^ below[i];
        for (uint32_t i = 0; i < TRAIL; i++)
            below[i] = t[i] + r;
    }
    for (uint32_t i = 0; i < TRAIL; i++)
        packet[i] ^= len ? below[i] : 0;
    return r;
}

static void build(void)
{
    uint32_t s = 0xC0FFEEu, used = 0;
    for (uint32_t t = 0; t < TREES; t++) {
        for (uint32_t k = 0; k < TREE_NODES; k++) {
            struct node *n = &heap[used++];
            n->key = next(&s) % KEYS;
            n->value = (next(&s) | 1u); /* never 0: 0 means "not found" */
            n->left = n->right = 0;
            struct node **at = &roots[t];
            while (*at)
                at = n->key < (*at)->key ? &(*at)->left : &(*at)->right;
            *at = n;
        }
    }
}

void feed_main(void *arg)
{
    (void)arg;
    build();
    while (reported < SEARCHERS)
        cactus_sleep(1);
    uint32_t total = 0, checksum = 0, deepest = 0, bad = 0;
    uint64_t depth_sum = 0;
    for (uint32_t me = 1; me <= SEARCHERS; me++) {
        uint32_t s = seed_of(me), sum = 0x811C9DC5u, found = 0;
        for (uint32_t k = 0; k < SEARCHES; k++) {
            uint32_t t = next(&s) % TREES, key = next(&s) % KEYS, depth = 0;
            uint32_t packet[TRAIL] = { 0 };
            uint32_t r = replay(roots[t], key, packet, &depth);
            if (depth >= MAX_DEPTH)
                bad++;
            found += r != 0;
            sum = fold(sum, r, packet);
            depth_sum += depth;
            deepest = depth > deepest ? depth : deepest;
        }
        if (sum != sums[me] || found != hits[me]) {
            kprintf("FAIL trees: search task %u reported %08x/%u, the replay gives %08x/%u\n",
                    me, sums[me], hits[me], sum, found);
            bad++;
        }
        total += found;
        checksum = (checksum ^ sum) * 0x01000193u;
    }
    uint32_t mean100 = (uint32_t)(depth_sum * 100u / ((uint64_t)SEARCHERS * SEARCHES));
    ktrace_marker(1, total);
    ktrace_marker(2, checksum);
    ktrace_marker(3, deepest);
    ktrace_marker(4, mean100);
    ktrace_marker(5, SEARCHERS);
    kprintf("trees: %u search tasks, %u nodes per tree, %u searches each: found %u, depth "
            "mean %u.%02u max %u, checksum %08x\n",
            SEARCHERS, TREE_NODES, SEARCHES, total, mean100 / 100, mean100 % 100, deepest,
            checksum);
    kprintf("%s trees\n", bad ? "FAIL" : "PASS");
    cactus_exit(bad ? 1 : 0);
}
