/* dijkstra.c: single-source shortest paths with Dijkstra's algorithm over a weighted
 * adjacency matrix (MiBench dijkstra's input shape: 100 nodes, about half the pairs
 * connected), with the priority queue kept as a sorted linked list of pooled entries (the
 * original mallocs its queue items). Each round takes the next source/destination pair,
 * computes all distances, checks them against an independent O(n^2) array implementation,
 * and records the distance and the path to the destination. */
#include "dijkstra.h"

#include "wl_checksum.h"
#include "wl_pool.h"
#include "wl_prng.h"

#define MAX_NODES 100
#define NONE 0xffffffffu

typedef struct qitem {
    uint32_t node, dist;
    struct qitem *next;
} qitem_t;

static struct {
    uint16_t adj[MAX_NODES][MAX_NODES]; /* 0 = no edge */
    uint32_t nodes;
    _Alignas(8) uint8_t pool_mem[WL_POOL_BYTES(MAX_NODES * MAX_NODES / 2, sizeof(qitem_t))];
    wl_pool_t pool;
    wl_freelist_t items;
    qitem_t *head;
    uint32_t rounds;
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

static int enqueue(uint32_t node, uint32_t dist)
{
    qitem_t *q = wl_freelist_alloc(&st.items);
    if (!q)
        return 0;
    q->node = node;
    q->dist = dist;
    qitem_t **p = &st.head;
    while (*p && (*p)->dist <= dist)
        p = &(*p)->next;
    q->next = *p;
    *p = q;
    return 1;
}

static qitem_t *dequeue(void)
{
    qitem_t *q = st.head;
    if (q)
        st.head = q->next;
    return q;
}

static void dijkstra_queue(uint32_t src, uint32_t *dist, uint8_t *prev)
{
    uint8_t done[MAX_NODES];
    for (uint32_t i = 0; i < st.nodes; i++) {
        dist[i] = NONE;
        prev[i] = 0xff;
        done[i] = 0;
    }
    dist[src] = 0;
    if (!enqueue(src, 0))
        st.failures++;
    qitem_t *q;
    while ((q = dequeue()) != NULL) {
        uint32_t u = q->node, du = q->dist;
        wl_freelist_free(&st.items, q);
        if (done[u])
            continue; /* stale entry: a shorter one was already taken */
        done[u] = 1;
        for (uint32_t v = 0; v < st.nodes; v++) {
            uint32_t w = st.adj[u][v];
            if (w && !done[v] && (dist[v] == NONE || du + w < dist[v])) {
                dist[v] = du + w;
                prev[v] = (uint8_t)u;
                if (!enqueue(v, dist[v]))
                    st.failures++;
            }
        }
    }
}

static void dijkstra_array(uint32_t src, uint32_t *dist)
{
    uint8_t done[MAX_NODES];
    for (uint32_t i = 0; i < st.nodes; i++) {
        dist[i] = NONE;
        done[i] = 0;
    }
    dist[src] = 0;
    for (;;) {
        uint32_t u = NONE, best = NONE;
        for (uint32_t i = 0; i < st.nodes; i++)
            if (!done[i] && dist[i] < best) {
                best = dist[i];
                u = i;
            }
        if (u == NONE)
            return;
        done[u] = 1;
        for (uint32_t v = 0; v < st.nodes; v++) {
            uint32_t w = st.adj[u][v];
            if (w && dist[u] + w < dist[v])
                dist[v] = dist[u] + w;
        }
    }
}

void dijkstra_init(uint32_t size_class)
{
    st.nodes = size_class ? MAX_NODES : 40u;
    wl_prng_seed(&st.rng, 0xd1257u);
    for (uint32_t i = 0; i < st.nodes; i++)
        for (uint32_t j = 0; j < st.nodes; j++)
            st.adj[i][j] = (i != j && wl_prng_below(&st.rng, 2) == 0)
                               ? (uint16_t)(1 + wl_prng_below(&st.rng, 999))
                               : 0;
    wl_pool_init(&st.pool, st.pool_mem, sizeof st.pool_mem);
    wl_freelist_init(&st.items, &st.pool, sizeof(qitem_t));
    st.head = NULL;
    st.rounds = size_class ? 300u : 3u;
    st.failures = 0;
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

int dijkstra_round(void)
{
    uint32_t dist[MAX_NODES], ref[MAX_NODES];
    uint8_t prev[MAX_NODES];
    uint32_t src = (st.res.rounds_done * 7u) % st.nodes;
    uint32_t dst = (st.res.rounds_done * 13u + st.nodes / 2u) % st.nodes;
    dijkstra_queue(src, dist, prev);
    dijkstra_array(src, ref);
    for (uint32_t i = 0; i < st.nodes; i++)
        if (dist[i] != ref[i])
            st.failures++;
    st.res.checksum = wl_mix32(st.res.checksum, dist[dst]);
    /* Walk the path back from the destination; each hop must be an edge on a shortest path. */
    uint32_t hops = 0;
    for (uint32_t v = dst; v != src && dist[v] != NONE && hops < st.nodes; hops++) {
        uint32_t u = prev[v];
        if (u >= st.nodes || dist[u] + st.adj[u][v] != dist[v]) {
            st.failures++;
            break;
        }
        st.res.checksum = wl_mix32(st.res.checksum, u);
        v = u;
    }
    st.res.rounds_done++;
    return st.res.rounds_done < st.rounds;
}

uint32_t dijkstra_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t dijkstra_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xe2b71b54u, 0xb6300313u};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t dijkstra_program = {"dijkstra", dijkstra_init, dijkstra_round,
                                       dijkstra_checksum, dijkstra_expected};
