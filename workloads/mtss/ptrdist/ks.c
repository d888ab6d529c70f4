/* ks.c: Kernighan-Lin graph bipartitioning in the manner of Ptrdist ks: a netlist of modules
 * and nets (each net joins 2-4 modules; module-to-net lists are linked lists from a static
 * pool, as the original mallocs them) is turned into a weighted module graph (a net of k
 * modules adds weight to each of its k(k-1)/2 pairs). Each round is one KL pass: compute the
 * D values, greedily choose N/2 best swaps with locking, keep the best prefix of swaps. When a
 * pass gains nothing the graph is done and the next graph is generated. Checks: every pass's
 * claimed gain equals the recomputed change of the cut, cuts never grow, halves stay equal. */
#include "ks.h"

#include "wl_checksum.h"
#include "wl_pool.h"
#include "wl_prng.h"

#define MAX_N 128

typedef struct netref {
    uint32_t net;
    struct netref *next;
} netref_t;

static struct {
    uint8_t cost[MAX_N][MAX_N];
    uint8_t side[MAX_N];
    netref_t *nets_of[MAX_N];
    uint8_t net_mod[4 * MAX_N][4];
    uint8_t net_size[4 * MAX_N];
    _Alignas(8) uint8_t pool_mem[WL_POOL_BYTES(16 * MAX_N, sizeof(netref_t))];
    wl_pool_t pool;
    uint32_t n, nnets;
    int32_t cut;
    uint32_t graphs_left;
    uint32_t rounds; /* safety bound on passes */
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

static int32_t cut_cost(void)
{
    int32_t c = 0;
    for (uint32_t a = 0; a < st.n; a++)
        for (uint32_t b = a + 1; b < st.n; b++)
            if (st.side[a] != st.side[b])
                c += st.cost[a][b];
    return c;
}

static void make_graph(void)
{
    wl_pool_init(&st.pool, st.pool_mem, sizeof st.pool_mem);
    for (uint32_t i = 0; i < st.n; i++) {
        st.nets_of[i] = NULL;
        st.side[i] = (uint8_t)(i & 1u);
        for (uint32_t j = 0; j < st.n; j++)
            st.cost[i][j] = 0;
    }
    st.nnets = 3 * st.n;
    for (uint32_t k = 0; k < st.nnets; k++) {
        /* Mostly local nets (modules close in index), like placed logic. */
        uint32_t size = 2 + wl_prng_below(&st.rng, 3), base = wl_prng_below(&st.rng, st.n);
        st.net_size[k] = (uint8_t)size;
        for (uint32_t m = 0; m < size; m++) {
            uint32_t mod = (base + wl_prng_below(&st.rng, 8)) % st.n;
            st.net_mod[k][m] = (uint8_t)mod;
            netref_t *r = wl_pool_alloc(&st.pool, sizeof *r);
            if (!r) {
                st.failures++;
                continue;
            }
            r->net = k;
            r->next = st.nets_of[mod];
            st.nets_of[mod] = r;
        }
    }
    /* Module graph from the module -> net lists. */
    for (uint32_t a = 0; a < st.n; a++)
        for (netref_t *r = st.nets_of[a]; r; r = r->next)
            for (uint32_t m = 0; m < st.net_size[r->net]; m++) {
                uint32_t b = st.net_mod[r->net][m];
                if (b != a && st.cost[a][b] < 255)
                    st.cost[a][b]++;
            }
    for (uint32_t a = 0; a < st.n; a++) /* symmetrise */
        for (uint32_t b = a + 1; b < st.n; b++) {
            uint32_t c = st.cost[a][b] > st.cost[b][a] ? st.cost[a][b] : st.cost[b][a];
            st.cost[a][b] = st.cost[b][a] = (uint8_t)c;
        }
    st.cut = cut_cost();
}

/* One KL pass; returns the gain applied (0 if none). */
static int32_t kl_pass(void)
{
    int32_t d[MAX_N], gains[MAX_N / 2];
    uint8_t locked[MAX_N];
    uint32_t swap_a[MAX_N / 2], swap_b[MAX_N / 2];
    for (uint32_t a = 0; a < st.n; a++) {
        int32_t ext = 0, in = 0;
        for (uint32_t b = 0; b < st.n; b++) {
            if (st.side[a] != st.side[b])
                ext += st.cost[a][b];
            else
                in += st.cost[a][b];
        }
        d[a] = ext - in;
        locked[a] = 0;
    }
    uint32_t steps = st.n / 2;
    for (uint32_t s = 0; s < steps; s++) {
        int32_t best = -1000000;
        uint32_t ba = 0, bb = 0;
        for (uint32_t a = 0; a < st.n; a++) {
            if (locked[a] || st.side[a] != 0)
                continue;
            for (uint32_t b = 0; b < st.n; b++) {
                if (locked[b] || st.side[b] != 1)
                    continue;
                int32_t g = d[a] + d[b] - 2 * st.cost[a][b];
                if (g > best) {
                    best = g;
                    ba = a;
                    bb = b;
                }
            }
        }
        locked[ba] = locked[bb] = 1;
        swap_a[s] = ba;
        swap_b[s] = bb;
        gains[s] = best;
        /* D updates as if ba and bb had been swapped. */
        for (uint32_t x = 0; x < st.n; x++) {
            if (locked[x])
                continue;
            int32_t ca = st.cost[x][ba], cb = st.cost[x][bb];
            d[x] += st.side[x] == 0 ? 2 * ca - 2 * cb : 2 * cb - 2 * ca;
        }
    }
    int32_t sum = 0, best_sum = 0;
    uint32_t best_k = 0;
    for (uint32_t s = 0; s < steps; s++) {
        sum += gains[s];
        if (sum > best_sum) {
            best_sum = sum;
            best_k = s + 1;
        }
    }
    for (uint32_t s = 0; s < best_k; s++) {
        st.side[swap_a[s]] = 1;
        st.side[swap_b[s]] = 0;
    }
    return best_sum;
}

void ks_init(uint32_t size_class)
{
    st.n = size_class ? MAX_N : 32u;
    st.graphs_left = size_class ? 4u : 1u;
    st.rounds = 64u * st.graphs_left;
    st.failures = 0;
    wl_prng_seed(&st.rng, 0x6c5u);
    make_graph();
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

int ks_round(void)
{
    int32_t gain = kl_pass();
    int32_t cut = cut_cost();
    uint32_t ones = 0;
    for (uint32_t i = 0; i < st.n; i++)
        ones += st.side[i];
    if (gain < 0 || cut != st.cut - gain || ones != st.n / 2)
        st.failures++;
    st.cut = cut;
    st.res.checksum = wl_mix32(st.res.checksum, (uint32_t)cut);
    st.res.rounds_done++;
    if (gain == 0) { /* converged: record the partition, move to the next graph */
        st.res.checksum = wl_mix_bytes(st.res.checksum, st.side, st.n);
        if (--st.graphs_left == 0)
            return 0;
        make_graph();
    }
    if (st.res.rounds_done >= st.rounds) {
        st.failures++; /* KL must converge well within 64 passes per graph */
        return 0;
    }
    return 1;
}

uint32_t ks_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t ks_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xb6c4ba2du, 0xb842b6c1u};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t ks_program = {"ks", ks_init, ks_round, ks_checksum, ks_expected};
