/* ft_fibheap.h: Fibonacci heap (Fredman-Tarjan) with intrusive nodes, for Prim's algorithm in
 * ft. Keys are uint32; ties are broken by vertex number so the extraction order is fully
 * determined. Guarantees: fib_extract_min returns a node of minimum (key, vertex) or NULL when
 * empty; amortised O(1) insert/decrease-key and O(log n) extract-min. */
#ifndef MTSS_FT_FIBHEAP_H
#define MTSS_FT_FIBHEAP_H

#include <stdint.h>

/** Largest node degree consolidation can handle (2^32 nodes would need about 46). */
#define FIB_MAX_DEGREE 32

/** A heap node, embedded in the caller's vertex record. */
typedef struct fib_node {
    uint32_t key, vertex, degree;
    uint8_t mark, in_heap;
    struct fib_node *parent, *child, *left, *right;
} fib_node_t;

/** A heap: its minimum root, and a count of internal faults (degree overflow), which a
 * correct heap keeps at 0. */
typedef struct {
    fib_node_t *min;
    uint32_t faults;
} fib_heap_t;

/** Inserts x (not in any heap) with key. */
void fib_insert(fib_heap_t *h, fib_node_t *x, uint32_t key);
/** Lowers x's key to key (key <= x->key): cut and cascading cut as needed. */
void fib_decrease_key(fib_heap_t *h, fib_node_t *x, uint32_t key);
/** Removes and returns the minimum node, or NULL if the heap is empty. */
fib_node_t *fib_extract_min(fib_heap_t *h);

#endif
