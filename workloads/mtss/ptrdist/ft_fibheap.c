/* ft_fibheap.c: Fibonacci heap (see ft_fibheap.h). Root and child lists are circular doubly
 * linked lists; extract-min consolidates roots by degree through a local array. */
#include "ft_fibheap.h"

#include <stddef.h>

/* Heap order: by key, ties by vertex number. */
static int less(const fib_node_t *a, const fib_node_t *b)
{
    return a->key < b->key || (a->key == b->key && a->vertex < b->vertex);
}

static void list_insert(fib_node_t *anchor, fib_node_t *x) /* x into anchor's circular list */
{
    x->left = anchor;
    x->right = anchor->right;
    anchor->right->left = x;
    anchor->right = x;
}

static void list_remove(fib_node_t *x)
{
    x->left->right = x->right;
    x->right->left = x->left;
    x->left = x->right = x;
}

void fib_insert(fib_heap_t *h, fib_node_t *x, uint32_t key)
{
    x->key = key;
    x->degree = 0;
    x->mark = 0;
    x->in_heap = 1;
    x->parent = x->child = NULL;
    x->left = x->right = x;
    if (!h->min) {
        h->min = x;
    } else {
        list_insert(h->min, x);
        if (less(x, h->min))
            h->min = x;
    }
}

static void cut(fib_heap_t *h, fib_node_t *x, fib_node_t *p)
{
    if (p->child == x)
        p->child = x->right != x ? x->right : NULL;
    list_remove(x);
    p->degree--;
    x->parent = NULL;
    x->mark = 0;
    list_insert(h->min, x);
}

static void cascading_cut(fib_heap_t *h, fib_node_t *y)
{
    fib_node_t *z = y->parent;
    if (!z)
        return;
    if (!y->mark) {
        y->mark = 1;
    } else {
        cut(h, y, z);
        cascading_cut(h, z);
    }
}

void fib_decrease_key(fib_heap_t *h, fib_node_t *x, uint32_t key)
{
    x->key = key;
    fib_node_t *p = x->parent;
    if (p && less(x, p)) {
        cut(h, x, p);
        cascading_cut(h, p);
    }
    if (less(x, h->min))
        h->min = x;
}

static void link(fib_node_t *y, fib_node_t *x) /* y becomes a child of x */
{
    list_remove(y);
    y->parent = x;
    if (!x->child)
        x->child = y;
    else
        list_insert(x->child, y);
    x->degree++;
    y->mark = 0;
}

fib_node_t *fib_extract_min(fib_heap_t *h)
{
    fib_node_t *z = h->min;
    if (!z)
        return NULL;
    while (z->child) { /* children to the root list */
        fib_node_t *c = z->child;
        z->child = c->right != c ? c->right : NULL;
        list_remove(c);
        c->parent = NULL;
        list_insert(z, c);
    }
    if (z->right == z) {
        h->min = NULL;
    } else {
        h->min = z->right;
        list_remove(z);
        fib_node_t *by_degree[FIB_MAX_DEGREE] = {NULL};
        /* Consolidate: detach roots one by one and merge equal degrees. */
        fib_node_t *roots = h->min;
        h->min = NULL;
        while (roots) {
            fib_node_t *x = roots;
            roots = x->right != x ? x->right : NULL;
            list_remove(x);
            uint32_t d = x->degree;
            while (d < FIB_MAX_DEGREE && by_degree[d]) {
                fib_node_t *y = by_degree[d];
                if (less(y, x)) {
                    fib_node_t *t = x;
                    x = y;
                    y = t;
                }
                link(y, x);
                by_degree[d] = NULL;
                d++;
            }
            if (d >= FIB_MAX_DEGREE) {
                h->faults++;
                d = FIB_MAX_DEGREE - 1;
            }
            by_degree[d] = x;
        }
        for (uint32_t d = 0; d < FIB_MAX_DEGREE; d++) {
            fib_node_t *x = by_degree[d];
            if (!x)
                continue;
            x->left = x->right = x;
            if (!h->min) {
                h->min = x;
            } else {
                list_insert(h->min, x);
                if (less(x, h->min))
                    h->min = x;
            }
        }
    }
    z->in_heap = 0;
    z->left = z->right = z;
    return z;
}
