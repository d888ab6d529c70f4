/* Event flags: tasks wait for any or all bits of a mask, optionally clearing them on wake-up.
 * A set wakes every waiter it satisfies (in priority order); bits are cleared after all waiters
 * have been evaluated. The waiter's mask and options are kept in its saved a1/a2 slots (unused
 * by a voluntary context), so event waiting costs no TCB space. */
#include "k.h"

static int satisfied(uint32_t bits, uint32_t mask, uint32_t opts)
{
    return (opts & CACTUS_EVENT_ALL) ? (bits & mask) == mask : (bits & mask) != 0;
}

static K_SYSCALL(sys_wait)
{
    cactus_event *e = (cactus_event *)a0;
    uint32_t mask = (uint32_t)a1, opts = (uint32_t)a2;
    if (!mask)
        return 0;
    if (satisfied(e->bits, mask, opts)) {
        uint32_t got = e->bits & mask;
        if (opts & CACTUS_EVENT_CLEAR)
            e->bits &= ~mask;
        return got;
    }
    if (a3 == CACTUS_NO_WAIT)
        return 0;
    struct k_tcb *cur = k_cur();
    cur->ctx.a1 = mask;
    cur->ctx.a2 = opts;
    return k_block(&e->w, (uint32_t)a3, CACTUS_TASK_BLOCKED, 0);
}

static K_SYSCALL(sys_set)
{
    cactus_event *e = (cactus_event *)a0;
    e->bits |= (uint32_t)a1;
    uint32_t clear = 0, n = 0;
    cactus_node *node = e->w.head;
    if (node)
        do
            n++;
        while ((node = node->next) != e->w.head);
    node = e->w.head;
    while (n--) {
        cactus_node *next = node->next; /* still queued: only `node` may leave the list */
        struct k_tcb *t = tcb_of_link(node);
        if (satisfied(e->bits, t->ctx.a1, t->ctx.a2)) {
            if (t->ctx.a2 & CACTUS_EVENT_CLEAR)
                clear |= t->ctx.a1;
            k_wake(t, e->bits & t->ctx.a1);
        }
        node = next;
    }
    e->bits &= ~clear;
    k_reschedule();
    return CACTUS_OK;
}

int cactus_event_init(cactus_event *e)
{
    if (!e)
        return CACTUS_EINVAL;
    e->w.head = 0;
    e->w.kind = WAIT_EVENT;
    e->bits = 0;
    return CACTUS_OK;
}

uint32_t cactus_event_wait(cactus_event *e, uint32_t mask, uint32_t opts, uint32_t timeout)
{
    return (uint32_t)SYSCALL(sys_wait, e, mask, opts, timeout);
}

int cactus_event_set(cactus_event *e, uint32_t bits)
{
    return (int)SYSCALL(sys_set, e, bits, 0, 0);
}

int cactus_event_clear(cactus_event *e, uint32_t bits)
{
    uint32_t irq = port_irq_save();
    e->bits &= ~bits;
    port_irq_restore(irq);
    return CACTUS_OK;
}

uint32_t cactus_event_get(const cactus_event *e)
{
    k_fresh();
    return e->bits;
}
