/* Time: the periodic CLINT tick while tasks run, tickless idle (one timer interrupt per sleep,
 * programmed at the next deadline), the timer queue of sleeping and timing-out tasks, and the
 * round-robin time slice. Tick n starts at mtime epoch + n * period, so time never drifts. */
#include "k.h"

uint32_t k_tick;
uint32_t k_ticks_idled;
struct timerq k_timers;
/* mtime of tick k_tick + 1; the tick advances the halves separately (one carry test). */
static union {
    uint64_t v;
    struct {
        uint32_t lo, hi; /* little-endian halves of v */
    } w;
} next_tick;
static uint32_t period;    /* mtime units per tick */

void k_time_start(void)
{
    period = PORT_TIMER_HZ / k_cfg->tick_hz;
    k_tick = 0;
    next_tick.v = port_time() + period;
    port_timer_set(next_tick.v);
    port_timer_enable();
}

static void expire(void)
{
    struct timer_node *n;
    while ((n = timerq_pop_expired(&k_timers, k_tick)))
        k_timeout_expired(tcb_of_timer(n));
}

/* The end of a tick: the running level rotates when the slice is used up, then the highest
 * ready task runs. */
static inline void tick_end(void)
{
    if (++k_slice_used >= k_slice_ticks) {
        k_slice_used = 0;
        int top = readyq_top(&k_ready);
        if (top >= 0)
            readyq_rotate(&k_ready, (unsigned)top);
    }
    k_preempt(); /* the interrupted task is alive: a tick never terminates a task */
}

/* A tick that expires more than one deadline, or a timeout (a task on a wait list). */
static __attribute__((noinline)) void tick_expire_all(void)
{
    expire();
    tick_end();
}

/* The periodic tick while tasks run. The preemption path (the one deadline due is a sleeper,
 * which outranks the running task) calls nothing but k_preempt, as a tail call, so it needs
 * no stack frame: count, one mtimecmp store, pop, ready insert, pick. */
void k_tick_interrupt(void)
{
    uint32_t now = ++k_tick;
    uint32_t lo = next_tick.w.lo + period;
    next_tick.w.lo = lo;
    if (__builtin_expect(lo < period, 0)) { /* carry into the high word */
        next_tick.w.hi++;
        port_timer_set(next_tick.v);
    } else {
        port_timer_set_low(lo);
    }
    struct timer_node *n = timerq_first(&k_timers);
    if (__builtin_expect(n && tick_before_eq(n->deadline, now), 1)) {
        struct k_tcb *t = tcb_of_timer(n);
        struct timer_node *after = n->next;
        if (t->wait_on || (after && tick_before_eq(after->deadline, now))) {
            tick_expire_all();
            return;
        }
        k_timers.head = after; /* == timerq_pop_expired for the one due sleeper */
        n->next = 0;
        t->in_timer = 0;
        k_make_ready(t);
    }
    tick_end();
}

void k_idle(void)
{
    struct timer_node *n = timerq_first(&k_timers);
    if (!n) {
        for (int i = 0; i < CACTUS_MAX_TASKS; i++)
            if (k_alive(&k_tasks[i]))
                k_stop(CACTUS_EXIT_IDLE, "idle forever: every live task is blocked without a timeout");
        k_stop(CACTUS_EXIT_IDLE, "idle forever: every task has terminated");
    }
    uint32_t ahead = n->deadline - k_tick; /* >= 1: expired entries never stay queued */
    uint64_t when = next_tick.v + (uint64_t)(ahead - 1) * period;
    port_timer_set(when);
    while (port_time() < when)
        port_wait_for_interrupt();
    k_stats.idle_wakeups++;
    k_ticks_idled += ahead;
    k_tick = n->deadline;
    next_tick.v = when + period;
    port_timer_set(next_tick.v);
    expire();
}

uint32_t cactus_now(void)
{
    k_fresh();
    return k_tick;
}
