/* ft.c: minimum spanning tree by Prim's algorithm with a Fibonacci heap, as Ptrdist ft does:
 * insert, decrease-key (cut and recursive cascading cut) and extract-min (root-list
 * consolidation by degree through a local array). The graph is a random connected sparse
 * graph with adjacency lists from a static pool. Work is split into rounds of up to 64
 * extract-mins (the extracted vertices and their tree edges are buffered locally and folded
 * into the checksum); when a graph's tree is complete its weight is checked against Kruskal's
 * algorithm (bucket-sorted edges, union-find), and the next graph starts. */
#include "ft.h"

#include "ft_fibheap.h"
#include "wl_checksum.h"
#include "wl_pool.h"
#include "wl_prng.h"

#define MAX_V 2000
#define MAX_E (5 * MAX_V)
#define MAX_W 1024
#define BATCH 64

typedef struct edge {
    uint32_t to, w;
    struct edge *next;
} edge_t;

static struct {
    _Alignas(8) uint8_t pool_mem[WL_POOL_BYTES(2 * MAX_E, sizeof(edge_t))];
    wl_pool_t pool;
    edge_t *adj[MAX_V];
    uint32_t eu[MAX_E], ev[MAX_E], ew[MAX_E];
    fib_node_t node[MAX_V];
    uint32_t parent_of[MAX_V];
    uint8_t done[MAX_V];
    fib_heap_t heap;
    uint32_t nv, ne, extracted;
    uint64_t tree_weight;
    uint32_t graphs_left;
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

/* --- graph --- */

static void add_edge(uint32_t u, uint32_t v, uint32_t w)
{
    edge_t *a = wl_pool_alloc(&st.pool, sizeof *a), *b = wl_pool_alloc(&st.pool, sizeof *b);
    if (!a || !b || st.ne == MAX_E) {
        st.failures++;
        return;
    }
    a->to = v;
    a->w = w;
    a->next = st.adj[u];
    st.adj[u] = a;
    b->to = u;
    b->w = w;
    b->next = st.adj[v];
    st.adj[v] = b;
    st.eu[st.ne] = u;
    st.ev[st.ne] = v;
    st.ew[st.ne] = w;
    st.ne++;
}

static void start_graph(void)
{
    wl_pool_init(&st.pool, st.pool_mem, sizeof st.pool_mem);
    st.ne = 0;
    for (uint32_t i = 0; i < st.nv; i++) {
        st.adj[i] = NULL;
        st.done[i] = 0;
        st.node[i].vertex = i;
        st.node[i].in_heap = 0;
    }
    for (uint32_t v = 1; v < st.nv; v++) { /* random spanning tree keeps it connected */
        uint32_t u = wl_prng_below(&st.rng, v);
        uint32_t w = 1 + wl_prng_below(&st.rng, MAX_W - 1);
        add_edge(v, u, w);
    }
    for (uint32_t k = 0; k < 3 * st.nv; k++) {
        uint32_t u = wl_prng_below(&st.rng, st.nv), v = wl_prng_below(&st.rng, st.nv);
        uint32_t w = 1 + wl_prng_below(&st.rng, MAX_W - 1);
        if (u != v)
            add_edge(u, v, w);
    }
    st.heap.min = NULL;
    st.heap.faults = 0;
    fib_insert(&st.heap, &st.node[0], 0);
    st.parent_of[0] = 0;
    st.extracted = 0;
    st.tree_weight = 0;
}

/* Kruskal with bucket-sorted edges and union-find (path halving); returns the MST weight. */
static uint64_t kruskal(void)
{
    static uint32_t uf[MAX_V], bucket_head[MAX_W], next_in_bucket[MAX_E];
    for (uint32_t i = 0; i < st.nv; i++)
        uf[i] = i;
    for (uint32_t w = 0; w < MAX_W; w++)
        bucket_head[w] = 0xffffffffu;
    for (uint32_t e = st.ne; e-- > 0;) {
        next_in_bucket[e] = bucket_head[st.ew[e]];
        bucket_head[st.ew[e]] = e;
    }
    uint64_t total = 0;
    for (uint32_t w = 0; w < MAX_W; w++) {
        for (uint32_t e = bucket_head[w]; e != 0xffffffffu; e = next_in_bucket[e]) {
            uint32_t a = st.eu[e], b = st.ev[e];
            while (uf[a] != a)
                a = uf[a] = uf[uf[a]];
            while (uf[b] != b)
                b = uf[b] = uf[uf[b]];
            if (a != b) {
                uf[a] = b;
                total += w;
            }
        }
    }
    return total;
}

void ft_init(uint32_t size_class)
{
    st.nv = size_class ? MAX_V : 200u;
    st.graphs_left = size_class ? 3u : 1u;
    st.failures = 0;
    wl_prng_seed(&st.rng, 0xf7u);
    start_graph();
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

int ft_round(void)
{
    uint32_t batch_v[BATCH], batch_p[BATCH], batch_k[BATCH];
    uint32_t n = 0;
    while (n < BATCH) {
        fib_node_t *x = fib_extract_min(&st.heap);
        if (!x)
            break;
        uint32_t u = x->vertex;
        st.done[u] = 1;
        batch_v[n] = u;
        batch_p[n] = st.parent_of[u];
        batch_k[n] = x->key;
        n++;
        st.tree_weight += x->key;
        st.extracted++;
        for (edge_t *e = st.adj[u]; e; e = e->next) {
            fib_node_t *y = &st.node[e->to];
            if (st.done[e->to])
                continue;
            if (!y->in_heap) {
                st.parent_of[e->to] = u;
                fib_insert(&st.heap, y, e->w);
            } else if (e->w < y->key) {
                st.parent_of[e->to] = u;
                fib_decrease_key(&st.heap, y, e->w);
            }
        }
    }
    for (uint32_t i = 0; i < n; i++)
        st.res.checksum = wl_mix32(st.res.checksum, batch_v[i] << 16 ^ batch_p[i] ^ batch_k[i]);
    st.res.rounds_done++;
    if (st.heap.min)
        return 1;
    /* Tree complete: all vertices reached, weight equals Kruskal's. */
    if (st.extracted != st.nv || st.tree_weight != kruskal() || st.heap.faults)
        st.failures++;
    st.res.checksum = wl_mix32(st.res.checksum, (uint32_t)st.tree_weight);
    if (--st.graphs_left == 0)
        return 0;
    start_graph();
    return 1;
}

uint32_t ft_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t ft_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xf95c5b03u, 0x62b6c0edu};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t ft_program = {"ft", ft_init, ft_round, ft_checksum, ft_expected};
