/* Circular doubly-linked lists of cactus_node with a head pointer (NULL = empty).
 * Pure code: no kernel state, host-testable. */
#ifndef K_LIST_H
#define K_LIST_H

#include "cactus/types.h"

static inline void list_insert_tail(cactus_node **head, cactus_node *n)
{
    cactus_node *h = *head;
    if (!h) {
        n->next = n->prev = n;
        *head = n;
        return;
    }
    n->prev = h->prev;
    n->next = h;
    h->prev->next = n;
    h->prev = n;
}

/* Inserts n before `at` (which must be in the list); n becomes head if at was the head. */
static inline void list_insert_before(cactus_node **head, cactus_node *at, cactus_node *n)
{
    n->prev = at->prev;
    n->next = at;
    at->prev->next = n;
    at->prev = n;
    if (*head == at)
        *head = n;
}

/* Takes n out of its list and leaves n's own links as they were (stale): for a caller that
 * links n into a list again at once (the blocking path: ready queue to wait list). */
static inline void list_unlink(cactus_node **head, cactus_node *n)
{
    if (n->next == n) {
        *head = 0;
    } else {
        n->prev->next = n->next;
        n->next->prev = n->prev;
        if (*head == n)
            *head = n->next;
    }
}

/* list_unlink, then n's links cleared. */
static inline void list_remove(cactus_node **head, cactus_node *n)
{
    list_unlink(head, n);
    n->next = n->prev = 0;
}

#endif
