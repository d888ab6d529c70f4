/* treeadd.c: Olden treeadd, our own implementation: a complete binary tree is allocated
 * recursively (nodes from a static pool), then summed recursively. Round 0 builds the tree;
 * every later round updates each node's value recursively (value = level * round + 1) and sums
 * the tree, checking the sum against the closed form sum over levels of 2^l * (l * round + 1). */
#include "treeadd.h"

#include "wl_checksum.h"
#include "wl_pool.h"

#define MAX_LEVELS 16

typedef struct tnode {
    uint32_t value;
    struct tnode *left, *right;
} tnode_t;

static struct {
    _Alignas(8) uint8_t pool_mem[WL_POOL_BYTES(1u << MAX_LEVELS, sizeof(tnode_t))];
    wl_pool_t pool;
    tnode_t *root;
    uint32_t levels;
    uint32_t rounds;
    uint32_t failures;
    wl_result_t res;
} st;

static tnode_t *tree_alloc(uint32_t level)
{
    if (level == 0)
        return NULL;
    tnode_t *n = wl_pool_alloc(&st.pool, sizeof *n);
    if (!n) {
        st.failures++;
        return NULL;
    }
    n->value = 1;
    n->left = tree_alloc(level - 1);
    n->right = tree_alloc(level - 1);
    return n;
}

static uint32_t tree_add(const tnode_t *n)
{
    if (!n)
        return 0;
    return n->value + tree_add(n->left) + tree_add(n->right);
}

static void tree_update(tnode_t *n, uint32_t depth, uint32_t round)
{
    if (!n)
        return;
    n->value = depth * round + 1u;
    tree_update(n->left, depth + 1u, round);
    tree_update(n->right, depth + 1u, round);
}

void treeadd_init(uint32_t size_class)
{
    wl_pool_init(&st.pool, st.pool_mem, sizeof st.pool_mem);
    st.root = NULL;
    st.levels = size_class ? MAX_LEVELS : 10u;
    st.rounds = size_class ? 12u : 4u;
    st.failures = 0;
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

int treeadd_round(void)
{
    uint32_t round = st.res.rounds_done, want = 0;
    if (round == 0) {
        st.root = tree_alloc(st.levels);
        want = (1u << st.levels) - 1u;
    } else {
        tree_update(st.root, 0, round);
        for (uint32_t l = 0; l < st.levels; l++)
            want += (1u << l) * (l * round + 1u);
    }
    uint32_t sum = tree_add(st.root);
    if (sum != want)
        st.failures++;
    st.res.checksum = wl_mix32(st.res.checksum, sum);
    st.res.rounds_done++;
    return st.res.rounds_done < st.rounds;
}

uint32_t treeadd_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t treeadd_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x2847d340u, 0x42665bf4u};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t treeadd_program = {"treeadd", treeadd_init, treeadd_round, treeadd_checksum,
                                      treeadd_expected};
