/* Timer queue (see timerq.h). */
#include "timerq.h"

void timerq_init(struct timerq *q)
{
    q->head = 0;
}

void timerq_insert(struct timerq *q, struct timer_node *n, uint32_t deadline)
{
    struct timer_node **at = &q->head;
    n->deadline = deadline;
    while (*at && tick_before_eq((*at)->deadline, deadline))
        at = &(*at)->next;
    n->next = *at;
    *at = n;
}

int timerq_remove(struct timerq *q, struct timer_node *n)
{
    for (struct timer_node **at = &q->head; *at; at = &(*at)->next) {
        if (*at == n) {
            *at = n->next;
            n->next = 0;
            return 1;
        }
    }
    return 0;
}

struct timer_node *timerq_pop_expired(struct timerq *q, uint32_t now)
{
    struct timer_node *n = q->head;
    if (!n || !tick_before_eq(n->deadline, now))
        return 0;
    q->head = n->next;
    n->next = 0;
    return n;
}
