/* The ready queue: one FIFO list per priority plus a bitmap of non-empty levels; O(1) insert,
 * remove, rotate and pick of the highest priority. The bitmap stores level p at bit 31-p, so
 * the highest priority is the lowest set bit, found with a de Bruijn multiply (lib/bits.h; no Zbb needed).
 * The highest non-empty level is also cached in `top`: insert raises it with one compare, and
 * only a remove that empties the top level rescans the bitmap, so picking the next task on the
 * switch paths is two loads. Pure code (inline, it sits on the switch path), host-tested. */
#ifndef K_READYQ_H
#define K_READYQ_H

#include "cactus/types.h"
#include "list.h"
#include "../lib/bits.h"

#define READYQ_LEVELS 32

struct readyq {
    uint32_t bitmap; /* bit (31 - prio) set <=> level prio non-empty */
    int32_t top;     /* highest non-empty level, -1 when empty (always equals the bitmap scan) */
    cactus_node *head[READYQ_LEVELS];
};

void readyq_init(struct readyq *q);

/* Highest level set in a bitmap, or -1 when it is 0. */
static inline int32_t readyq_scan(uint32_t b)
{
    if (!b)
        return -1;
    return 31 - (int32_t)bits_ctz(b);
}

/* Appends n at the tail of level prio. A level above the cached top is empty: n becomes its
 * only entry and the new top with no load of the level's list (the wake of a task that
 * outranks every ready one, the case the measured wake paths take). */
static inline void readyq_insert(struct readyq *q, cactus_node *n, unsigned prio)
{
    q->bitmap |= 0x80000000u >> prio;
    if (__builtin_expect((int32_t)prio > q->top, 1)) {
        n->next = n->prev = n;
        q->head[prio] = n;
        q->top = (int32_t)prio;
        return;
    }
    list_insert_tail(&q->head[prio], n);
}

/* readyq_insert for a level above every non-empty one (so empty): n becomes its only entry and
 * it becomes the top, with no load of the level's list (the short wake of a task that
 * outranks the running one). */
static inline void readyq_insert_top(struct readyq *q, cactus_node *n, unsigned prio)
{
    n->next = n->prev = n;
    q->head[prio] = n;
    q->bitmap |= 0x80000000u >> prio;
    q->top = (int32_t)prio;
}

/* Takes n off level prio and leaves n's links stale (list_unlink): for a caller that links n
 * into another list at once. */
static inline void readyq_unlink(struct readyq *q, cactus_node *n, unsigned prio)
{
    list_unlink(&q->head[prio], n);
    if (!q->head[prio]) {
        q->bitmap &= ~(0x80000000u >> prio);
        if ((int32_t)prio == q->top)
            q->top = readyq_scan(q->bitmap);
    }
}

/* readyq_unlink, then n's links cleared. */
static inline void readyq_remove(struct readyq *q, cactus_node *n, unsigned prio)
{
    readyq_unlink(q, n, prio);
    n->next = n->prev = 0;
}

/* Moves the head of level prio to its tail (round robin). */
static inline void readyq_rotate(struct readyq *q, unsigned prio)
{
    if (q->head[prio])
        q->head[prio] = q->head[prio]->next;
}

/* Highest non-empty priority, or -1 when empty. */
static inline int readyq_top(const struct readyq *q)
{
    return (int)q->top;
}

/* Head of the highest non-empty level, or NULL. */
static inline cactus_node *readyq_first(const struct readyq *q)
{
    int top = readyq_top(q);
    return top < 0 ? 0 : q->head[top];
}

#endif
