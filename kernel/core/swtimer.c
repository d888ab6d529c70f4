/* Software timers: one-shot and periodic, their callbacks run in the timer task (the firmware
 * creates it with entry cactus_timer_task). Linked only into a firmware that uses a
 * cactus_timer_* function.
 *
 * The active timers form one list sorted by deadline (FIFO among equal deadlines), changed
 * only inside kernel calls (interrupts masked). The timer task takes the expired timers off it
 * one kernel call at a time (sys_timer_next); when none has expired it blocks on `idle_wait`,
 * with a timeout that ends at the earliest deadline, so the tick wakes it exactly then. A start
 * or period change that makes a new earliest deadline wakes it early, so it waits again with
 * the new timeout; a stop needs no wake-up (at the old deadline the task finds nothing due).
 * A periodic timer is re-armed at deadline + period before its callback runs, so its expiries
 * never drift, whatever the callbacks cost. */
#include "k.h"

static cactus_timer *active;                     /* sorted by deadline */
static cactus_wait idle_wait = { 0, WAIT_TIMERS }; /* the timer task while nothing is due */

static void unlink_timer(cactus_timer *t)
{
    for (cactus_timer **at = &active; *at; at = &(*at)->next)
        if (*at == t) {
            *at = t->next;
            break;
        }
    t->next = 0;
    t->active = 0;
}

/* Inserts t (not active) with `deadline`; wakes the timer task if t is the new earliest. */
static void arm(cactus_timer *t, uint32_t deadline)
{
    cactus_timer **at = &active;
    while (*at && tick_before_eq((*at)->deadline, deadline))
        at = &(*at)->next;
    t->deadline = deadline;
    t->next = *at;
    t->active = 1;
    *at = t;
    struct k_tcb *task = k_wait_first(&idle_wait);
    if (at == &active && task)
        k_wake(task, 0);
}

/* a0 = timer, a1 = new period (0: keep). */
static K_SYSCALL(sys_timer_start)
{
    cactus_timer *t = (cactus_timer *)a0;
    if (t->active)
        unlink_timer(t);
    if (a1)
        t->period = (uint32_t)a1;
    arm(t, k_tick + t->period);
    k_reschedule();
    return CACTUS_OK;
}

static K_SYSCALL(sys_timer_stop)
{
    cactus_timer *t = (cactus_timer *)a0;
    if (t->active)
        unlink_timer(t);
    return CACTUS_OK;
}

/* The timer task's step: the earliest timer if it is due (re-armed first if periodic, else
 * stopped), or 0 after waiting until the earliest deadline or a new earliest timer. */
static K_SYSCALL(sys_timer_next)
{
    cactus_timer *t = active;
    if (t && tick_before_eq(t->deadline, k_tick)) {
        active = t->next;
        t->next = 0;
        t->active = 0;
        if (t->periodic)
            arm(t, t->deadline + t->period);
        return (uintptr_t)t;
    }
    uint32_t timeout = t ? t->deadline - k_tick : CACTUS_FOREVER;
    return k_block(&idle_wait, timeout, CACTUS_TASK_BLOCKED, 0);
}

/* a0 = the timers to start, a1 = how many. */
static K_SYSCALL(sys_timer_start_all)
{
    cactus_timer *const *timers = (cactus_timer *const *)a0;
    for (uint32_t i = 0; i < (uint32_t)a1; i++) {
        cactus_timer *t = timers[i];
        if (t->active)
            unlink_timer(t);
        arm(t, k_tick + t->period);
    }
    return CACTUS_OK;
}

int cactus_timer_init(cactus_timer *t, const char *name, uint32_t period, int periodic,
                      void (*callback)(cactus_timer *t), void *arg)
{
    if (!t || period == 0 || period >= 0x80000000u || !callback)
        return CACTUS_EINVAL;
    t->next = 0;
    t->deadline = 0;
    t->period = period;
    t->callback = callback;
    t->arg = arg;
    t->name = name;
    t->periodic = periodic != 0;
    t->active = 0;
    return CACTUS_OK;
}

int cactus_timer_start(cactus_timer *t)
{
    if (!t || !t->callback)
        return CACTUS_EINVAL;
    return (int)SYSCALL(sys_timer_start, t, 0, 0, 0);
}

int cactus_timer_stop(cactus_timer *t)
{
    if (!t || !t->callback)
        return CACTUS_EINVAL;
    return (int)SYSCALL(sys_timer_stop, t, 0, 0, 0);
}

int cactus_timer_change_period(cactus_timer *t, uint32_t period)
{
    if (!t || !t->callback || period == 0 || period >= 0x80000000u)
        return CACTUS_EINVAL;
    return (int)SYSCALL(sys_timer_start, t, period, 0, 0);
}

int cactus_timer_active(const cactus_timer *t)
{
    k_fresh();
    return t->active;
}

void *cactus_timer_arg(const cactus_timer *t)
{
    return t->arg;
}

void cactus_timer_task(void *arg)
{
    const cactus_timer_table *table = arg;
    if (table)
        SYSCALL(sys_timer_start_all, table->timers, table->n, 0, 0);
    for (;;) {
        cactus_timer *t = (cactus_timer *)SYSCALL(sys_timer_next, 0, 0, 0, 0);
        if (t)
            t->callback(t);
    }
}
