/* Mutexes with priority inheritance. A blocked waiter raises its owner's priority, transitively
 * along chains of owners blocked on further mutexes; an owner's priority is recomputed (base
 * priority or its highest waiter) whenever it releases a mutex or loses a waiter. Mutexes held
 * by a terminating task are handed to their next waiter. */
#include "k.h"

static void give_to(cactus_mutex *m, struct k_tcb *t)
{
    m->owner = t;
    m->next_held = t->held;
    t->held = m;
}

static void unlink_held(struct k_tcb *t, cactus_mutex *m)
{
    for (cactus_mutex **at = &t->held; *at; at = &(*at)->next_held) {
        if (*at == m) {
            *at = m->next_held;
            m->next_held = 0;
            return;
        }
    }
}

static struct k_tcb *blocking_owner(const struct k_tcb *t)
{
    if (t->state != CACTUS_TASK_BLOCKED || !t->wait_on || t->wait_on->kind != WAIT_MUTEX)
        return 0;
    return (struct k_tcb *)((cactus_mutex *)t->wait_on)->owner;
}

void k_pi_update(struct k_tcb *t)
{
    while (t) {
        uint8_t p = t->base_prio;
        for (cactus_mutex *m = t->held; m; m = m->next_held) {
            struct k_tcb *w = k_wait_first(&m->w);
            if (w && w->prio > p)
                p = w->prio;
        }
        if (p == t->prio)
            return;
        k_set_prio(t, p);
        t = blocking_owner(t);
    }
}

/* The mutex goes to its highest-priority waiter, or becomes free. */
static void hand_over(cactus_mutex *m)
{
    m->owner = 0;
    struct k_tcb *n = k_wait_first(&m->w);
    if (!n)
        return;
    k_wake(n, CACTUS_OK);
    give_to(m, n);
    k_pi_update(n);
}

void k_mutex_release_all(struct k_tcb *t)
{
    while (t->held) {
        cactus_mutex *m = t->held;
        t->held = m->next_held;
        m->next_held = 0;
        hand_over(m);
    }
}

static K_SYSCALL(sys_lock)
{
    cactus_mutex *m = (cactus_mutex *)a0;
    struct k_tcb *cur = k_cur();
    struct k_tcb *owner = m->owner;
    if (!owner) {
        give_to(m, cur);
        return CACTUS_OK;
    }
    if (owner == cur)
        return (uintptr_t)CACTUS_EDEADLK;
    if (a1 == CACTUS_NO_WAIT)
        return (uintptr_t)CACTUS_ETIMEOUT;
    /* Inherit: raise the owner, and the owners it waits for, to our priority. */
    for (struct k_tcb *t = owner; t && t->prio < cur->prio; t = blocking_owner(t))
        k_set_prio(t, cur->prio);
    return k_block(&m->w, (uint32_t)a1, CACTUS_TASK_BLOCKED, (uintptr_t)CACTUS_ETIMEOUT);
}

static K_SYSCALL(sys_unlock)
{
    cactus_mutex *m = (cactus_mutex *)a0;
    struct k_tcb *cur = k_cur();
    if (m->owner != cur)
        return (uintptr_t)CACTUS_EPERM;
    unlink_held(cur, m);
    hand_over(m);
    k_pi_update(cur);
    k_reschedule();
    return CACTUS_OK;
}

int cactus_mutex_init(cactus_mutex *m)
{
    if (!m)
        return CACTUS_EINVAL;
    m->w.head = 0;
    m->w.kind = WAIT_MUTEX;
    m->owner = 0;
    m->next_held = 0;
    return CACTUS_OK;
}

int cactus_mutex_lock(cactus_mutex *m, uint32_t timeout)
{
    return (int)SYSCALL(sys_lock, m, timeout, 0, 0);
}

int cactus_mutex_unlock(cactus_mutex *m)
{
    return (int)SYSCALL(sys_unlock, m, 0, 0, 0);
}
