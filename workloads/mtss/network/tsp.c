/* tsp.c: Olden tsp, our own implementation: Karp-style divide and conquer for a travelling
 * salesman tour. Cities are generated into a k-d tree recursively (each node a city at the
 * median split of its rectangle, alternating x/y); tsp() recurses to subtrees of at most LEAF
 * cities, which conquer() solves by cheapest insertion, and merges the two child tours and the
 * subtree's root city by cheapest insertion plus the best 2-exchange splice. Tours are circular
 * doubly linked lists through the (pooled) city nodes. Integer coordinates and integer Euclidean
 * distances (wl_isqrt). Each round solves a fresh instance and checks that the tour visits
 * every city exactly once and that its length matches the incremental cost bookkeeping. */
#include "tsp.h"

#include "wl_checksum.h"
#include "wl_math.h"
#include "wl_pool.h"
#include "wl_prng.h"

#define MAX_CITIES 1024
#define LEAF 48

typedef struct city {
    int32_t x, y;
    uint32_t id;
    struct city *left, *right; /* k-d tree */
    struct city *next, *prev;  /* tour */
    uint32_t size;             /* cities in this subtree */
} city_t;

static struct {
    _Alignas(8) uint8_t pool_mem[WL_POOL_BYTES(MAX_CITIES, sizeof(city_t))];
    wl_pool_t pool;
    uint32_t ncities, next_id;
    int64_t cost; /* running tour cost bookkeeping */
    uint32_t rounds;
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

static uint32_t dist(const city_t *a, const city_t *b)
{
    int32_t dx = a->x - b->x, dy = a->y - b->y;
    return wl_isqrt((uint32_t)(dx * dx) + (uint32_t)(dy * dy));
}

/* Builds a subtree of n cities in the rectangle [x0,x1) x [y0,y1); splits on x if dir is 0. */
static city_t *build_tree(uint32_t n, int dir, int32_t x0, int32_t x1, int32_t y0, int32_t y1)
{
    if (n == 0)
        return NULL;
    city_t *c = wl_pool_alloc(&st.pool, sizeof *c);
    if (!c) {
        st.failures++;
        return NULL;
    }
    c->id = st.next_id++;
    c->size = n;
    uint32_t nl = (n - 1) / 2, nr = n - 1 - nl;
    if (dir == 0) {
        int32_t mid = x0 + (x1 - x0) / 2;
        c->x = mid;
        c->y = y0 + (int32_t)wl_prng_below(&st.rng, (uint32_t)(y1 - y0));
        c->left = build_tree(nl, 1, x0, mid, y0, y1);
        c->right = build_tree(nr, 1, mid, x1, y0, y1);
    } else {
        int32_t mid = y0 + (y1 - y0) / 2;
        c->y = mid;
        c->x = x0 + (int32_t)wl_prng_below(&st.rng, (uint32_t)(x1 - x0));
        c->left = build_tree(nl, 0, x0, x1, y0, mid);
        c->right = build_tree(nr, 0, x0, x1, mid, y1);
    }
    return c;
}

/* Inserts c into the tour containing t at the cheapest edge. */
static void insert_cheapest(city_t *tour, city_t *c)
{
    city_t *best = tour, *p = tour;
    int64_t best_cost = -1;
    do {
        int64_t d = (int64_t)dist(p, c) + dist(c, p->next) - dist(p, p->next);
        if (best_cost < 0 || d < best_cost) {
            best_cost = d;
            best = p;
        }
        p = p->next;
    } while (p != tour);
    c->prev = best;
    c->next = best->next;
    best->next->prev = c;
    best->next = c;
    st.cost += best_cost;
}

static void collect(city_t *t, city_t **list, uint32_t *n)
{
    if (!t)
        return;
    list[(*n)++] = t;
    collect(t->left, list, n);
    collect(t->right, list, n);
}

/* Tour through all cities of a small subtree by cheapest insertion. */
static city_t *conquer(city_t *t)
{
    city_t *list[LEAF];
    uint32_t n = 0;
    collect(t, list, &n);
    city_t *tour = list[0];
    tour->next = tour->prev = tour;
    for (uint32_t i = 1; i < n; i++)
        insert_cheapest(tour, list[i]);
    return tour;
}

/* Joins tour b into tour a by the best 2-exchange between edge (a, a->next) and an edge of b. */
static void splice(city_t *a, city_t *b)
{
    city_t *an = a->next, *best = b, *q = b;
    int64_t best_cost = -1;
    do {
        int64_t d = (int64_t)dist(a, q->next) + dist(q, an) - dist(a, an) - dist(q, q->next);
        if (best_cost < 0 || d < best_cost) {
            best_cost = d;
            best = q;
        }
        q = q->next;
    } while (q != b);
    city_t *qn = best->next;
    /* a -> qn ... (around b) ... best -> an */
    a->next = qn;
    qn->prev = a;
    best->next = an;
    an->prev = best;
    st.cost += best_cost;
}

static city_t *tsp(city_t *t)
{
    if (t->size <= LEAF)
        return conquer(t);
    city_t *left = t->left ? tsp(t->left) : NULL;
    city_t *right = t->right ? tsp(t->right) : NULL;
    t->next = t->prev = t;
    if (left)
        insert_cheapest(left, t);
    if (right)
        splice(t, right);
    return t;
}

void tsp_init(uint32_t size_class)
{
    st.ncities = size_class ? MAX_CITIES : 96u;
    st.rounds = size_class ? 6u : 2u;
    st.failures = 0;
    wl_prng_seed(&st.rng, 0x75bu);
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

int tsp_round(void)
{
    wl_pool_init(&st.pool, st.pool_mem, sizeof st.pool_mem);
    st.next_id = 0;
    st.cost = 0;
    city_t *root = build_tree(st.ncities, 0, 0, 32768, 0, 32768);
    if (root) {
        city_t *tour = tsp(root);
        uint8_t seen[MAX_CITIES] = {0};
        uint32_t count = 0;
        int64_t length = 0;
        city_t *p = tour;
        do {
            if (p->id >= st.ncities || seen[p->id] || p->next->prev != p)
                st.failures++;
            else
                seen[p->id] = 1;
            length += dist(p, p->next);
            if (count % 8u == 0)
                st.res.checksum = wl_mix32(st.res.checksum, p->id);
            count++;
            p = p->next;
        } while (p != tour && count <= st.ncities);
        if (count != st.ncities || length != st.cost)
            st.failures++;
        st.res.checksum = wl_mix32(st.res.checksum, (uint32_t)length);
    }
    st.res.rounds_done++;
    return st.res.rounds_done < st.rounds;
}

uint32_t tsp_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t tsp_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xec25a2eau, 0x4f1400d4u};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t tsp_program = {"tsp", tsp_init, tsp_round, tsp_checksum, tsp_expected};
