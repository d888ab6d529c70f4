/* patricia.c: a path-compressed binary (PATRICIA) trie of IPv4 routes, as routers use for
 * longest-prefix matching (MiBench patricia's task). Nodes come from a static pool through a
 * free list. Each round inserts new routes (splitting edges where prefixes diverge), deletes
 * some (merging nodes that become redundant), performs lookups and checks each against a
 * brute-force scan of the route table, then walks the trie recursively to check its invariants
 * (prefixes nest, every leaf holds a route, route count matches). */
#include "patricia.h"

#include "wl_checksum.h"
#include "wl_pool.h"
#include "wl_prng.h"

#define MAX_ROUTES 1024
#define LOOKUPS 64

typedef struct pnode {
    uint32_t prefix; /* significant bits only, rest zero */
    uint8_t plen;
    uint8_t has_route;
    uint32_t value;
    struct pnode *child[2];
} pnode_t;

typedef struct {
    uint32_t prefix, value;
    uint8_t plen;
} route_t;

static struct {
    _Alignas(8) uint8_t pool_mem[WL_POOL_BYTES(2 * MAX_ROUTES, sizeof(pnode_t))];
    wl_pool_t pool;
    wl_freelist_t nodes;
    pnode_t *root;
    route_t routes[MAX_ROUTES];
    uint32_t nroutes;
    uint32_t rounds;
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

static uint32_t mask(uint32_t plen)
{
    return plen == 0 ? 0u : 0xffffffffu << (32u - plen);
}

static uint32_t bit_at(uint32_t key, uint32_t i)
{
    return (key >> (31u - i)) & 1u;
}

/* Length of the common prefix of a and b, at most limit. */
static uint32_t common_len(uint32_t a, uint32_t b, uint32_t limit)
{
    uint32_t n = 0;
    while (n < limit && bit_at(a, n) == bit_at(b, n))
        n++;
    return n;
}

static pnode_t *new_node(uint32_t prefix, uint32_t plen)
{
    pnode_t *n = wl_freelist_alloc(&st.nodes);
    if (!n) {
        st.failures++;
        return NULL;
    }
    n->prefix = prefix & mask(plen);
    n->plen = (uint8_t)plen;
    return n;
}

/* Inserts or replaces prefix/plen -> value; returns 1 if it was new. */
static int trie_insert(uint32_t prefix, uint32_t plen, uint32_t value)
{
    prefix &= mask(plen);
    pnode_t **link = &st.root;
    for (;;) {
        pnode_t *n = *link;
        if (!n) {
            n = new_node(prefix, plen);
            if (!n)
                return 0;
            n->has_route = 1;
            n->value = value;
            *link = n;
            return 1;
        }
        uint32_t lim = n->plen < plen ? n->plen : plen;
        uint32_t c = common_len(n->prefix, prefix, lim);
        if (c == n->plen && c == plen) { /* same prefix */
            int fresh = !n->has_route;
            n->has_route = 1;
            n->value = value;
            return fresh;
        }
        if (c == n->plen) { /* n's prefix covers the new one: descend */
            link = &n->child[bit_at(prefix, c)];
            continue;
        }
        /* Diverge at bit c (< n->plen): new parent with prefix length c. */
        pnode_t *parent = new_node(prefix, c);
        if (!parent)
            return 0;
        parent->child[bit_at(n->prefix, c)] = n;
        if (c == plen) {
            parent->has_route = 1;
            parent->value = value;
        } else {
            pnode_t *leaf = new_node(prefix, plen);
            if (!leaf)
                return 0;
            leaf->has_route = 1;
            leaf->value = value;
            parent->child[bit_at(prefix, c)] = leaf;
        }
        *link = parent;
        return 1;
    }
}

/* Removes the route prefix/plen if present, merging redundant nodes; returns 1 if removed. */
static int trie_delete(pnode_t **link, uint32_t prefix, uint32_t plen)
{
    pnode_t *n = *link;
    if (!n || n->plen > plen || common_len(n->prefix, prefix, n->plen) < n->plen)
        return 0;
    int removed;
    if (n->plen == plen) {
        removed = n->has_route;
        n->has_route = 0;
    } else {
        removed = trie_delete(&n->child[bit_at(prefix, n->plen)], prefix, plen);
    }
    if (!n->has_route && (!n->child[0] || !n->child[1])) {
        *link = n->child[0] ? n->child[0] : n->child[1];
        wl_freelist_free(&st.nodes, n);
    }
    return removed;
}

/* Longest-prefix match: value of the longest route covering addr, or 0 if none. */
static uint32_t trie_lookup(uint32_t addr)
{
    uint32_t best = 0;
    for (pnode_t *n = st.root; n; n = n->child[bit_at(addr, n->plen)]) {
        if ((addr & mask(n->plen)) != n->prefix)
            break;
        if (n->has_route)
            best = n->value;
        if (n->plen == 32)
            break;
    }
    return best;
}

static uint32_t brute_lookup(uint32_t addr)
{
    int best_len = -1;
    uint32_t best = 0;
    for (uint32_t i = 0; i < st.nroutes; i++) {
        const route_t *r = &st.routes[i];
        if ((addr & mask(r->plen)) == r->prefix && (int)r->plen > best_len) {
            best_len = r->plen;
            best = r->value;
        }
    }
    return best;
}

/* Recursive invariant check; returns the number of routes below n. */
static uint32_t trie_walk(const pnode_t *n, uint32_t parent_plen, uint32_t parent_prefix)
{
    if (!n)
        return 0;
    if ((parent_plen > 0 && n->plen <= parent_plen) ||
        (n->prefix & mask(parent_plen)) != parent_prefix ||
        (!n->has_route && (!n->child[0] || !n->child[1])))
        st.failures++;
    st.res.checksum = wl_mix32(st.res.checksum, n->prefix ^ n->plen);
    return n->has_route + trie_walk(n->child[0], n->plen, n->prefix) +
           trie_walk(n->child[1], n->plen, n->prefix);
}

void patricia_init(uint32_t size_class)
{
    wl_pool_init(&st.pool, st.pool_mem, sizeof st.pool_mem);
    wl_freelist_init(&st.nodes, &st.pool, sizeof(pnode_t));
    st.root = NULL;
    st.nroutes = 0;
    st.rounds = size_class ? 150u : 3u;
    st.failures = 0;
    wl_prng_seed(&st.rng, 0x9a7u);
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

static void add_route(uint32_t prefix, uint32_t plen, uint32_t value)
{
    prefix &= mask(plen);
    for (uint32_t i = 0; i < st.nroutes; i++) {
        if (st.routes[i].prefix == prefix && st.routes[i].plen == plen) {
            st.routes[i].value = value;
            st.failures += trie_insert(prefix, plen, value) != 0;
            return;
        }
    }
    if (st.nroutes == MAX_ROUTES)
        return;
    st.routes[st.nroutes++] = (route_t){prefix, value, (uint8_t)plen};
    st.failures += trie_insert(prefix, plen, value) != 1;
}

int patricia_round(void)
{
    uint32_t addrs[LOOKUPS], found[LOOKUPS];
    /* Routes cluster in a few /8s, like a real table; lengths 8..32. */
    for (int i = 0; i < 24; i++) {
        uint32_t net = (10u + wl_prng_below(&st.rng, 6)) << 24;
        uint32_t addr = net | (wl_prng_next(&st.rng) & 0x00ffffffu);
        uint32_t plen = 8 + wl_prng_below(&st.rng, 25);
        add_route(addr, plen, wl_prng_next(&st.rng) | 1u);
    }
    for (int i = 0; i < 12 && st.nroutes > 0; i++) {
        uint32_t k = wl_prng_below(&st.rng, st.nroutes);
        route_t r = st.routes[k];
        st.routes[k] = st.routes[--st.nroutes];
        st.failures += trie_delete(&st.root, r.prefix, r.plen) != 1;
    }
    for (int i = 0; i < LOOKUPS; i++) {
        if (i % 2 == 0 && st.nroutes > 0) { /* near a known route */
            const route_t *r = &st.routes[wl_prng_below(&st.rng, st.nroutes)];
            addrs[i] = r->prefix | (wl_prng_next(&st.rng) & ~mask(r->plen));
        } else {
            uint32_t net = (10u + wl_prng_below(&st.rng, 6)) << 24;
            addrs[i] = net | (wl_prng_next(&st.rng) >> 8);
        }
        found[i] = trie_lookup(addrs[i]);
    }
    for (int i = 0; i < LOOKUPS; i++) {
        if (found[i] != brute_lookup(addrs[i]))
            st.failures++;
        st.res.checksum = wl_mix32(st.res.checksum, found[i]);
    }
    if (trie_walk(st.root, 0, 0) != st.nroutes)
        st.failures++;
    st.res.rounds_done++;
    return st.res.rounds_done < st.rounds;
}

uint32_t patricia_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t patricia_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xc4f945fcu, 0xd09294edu};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t patricia_program = {"patricia", patricia_init, patricia_round,
                                       patricia_checksum, patricia_expected};
