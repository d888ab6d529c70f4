/* Counting and binary semaphores. Waiters are served highest priority first. */
#include "k.h"

static K_SYSCALL(sys_take)
{
    cactus_sem *s = (cactus_sem *)a0;
    if (s->count) {
        s->count--;
        return CACTUS_OK;
    }
    if (a1 == CACTUS_NO_WAIT)
        return (uintptr_t)CACTUS_ETIMEOUT;
    return k_block(&s->w, (uint32_t)a1, CACTUS_TASK_BLOCKED, (uintptr_t)CACTUS_ETIMEOUT);
}

/* The measured hand-off (give_cycles, and isr_wake_cycles from a handler): the first waiter
 * leaves the wait list and becomes ready by the short wake, as a tail call. */
static K_SYSCALL(sys_give)
{
    cactus_sem *s = (cactus_sem *)a0;
    if (__builtin_expect(s->w.head != 0, 1))
        return k_wake_first(&s->w, CACTUS_OK);
    if (s->count >= s->max)
        return (uintptr_t)CACTUS_EFULL;
    s->count++;
    return CACTUS_OK;
}

int cactus_sem_init(cactus_sem *s, uint32_t initial, uint32_t max)
{
    if (!s || max == 0 || initial > max)
        return CACTUS_EINVAL;
    s->w.head = 0;
    s->w.kind = WAIT_SEM;
    s->count = initial;
    s->max = max;
    return CACTUS_OK;
}

int cactus_sem_take(cactus_sem *s, uint32_t timeout)
{
    return (int)SYSCALL(sys_take, s, timeout, K_NOARG("a2"), K_NOARG("a3"));
}

int cactus_sem_give(cactus_sem *s)
{
    return (int)SYSCALL(sys_give, s, K_NOARG("a1"), K_NOARG("a2"), K_NOARG("a3"));
}

uint32_t cactus_sem_count(const cactus_sem *s)
{
    k_fresh();
    return s->count;
}
