/* The timer queue: entries sorted by deadline (32-bit ticks, wrap-around safe), FIFO among equal
 * deadlines. Insert and remove are O(n), expiry O(1) per entry. Pure code, host-tested. */
#ifndef K_TIMERQ_H
#define K_TIMERQ_H

#include <stdint.h>

struct timer_node {
    struct timer_node *next;
    uint32_t deadline;
};

struct timerq {
    struct timer_node *head;
};

/* a is at or before b, modulo 2^32 (deadlines less than 2^31 ticks apart). */
static inline int tick_before_eq(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) <= 0;
}

void timerq_init(struct timerq *q);
void timerq_insert(struct timerq *q, struct timer_node *n, uint32_t deadline);
/* Removes n if present; returns 1 if it was queued. */
int timerq_remove(struct timerq *q, struct timer_node *n);
/* Pops and returns the first entry whose deadline is <= now, or NULL. */
struct timer_node *timerq_pop_expired(struct timerq *q, uint32_t now);
static inline struct timer_node *timerq_first(const struct timerq *q)
{
    return q->head;
}

#endif
