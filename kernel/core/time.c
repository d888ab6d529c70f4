/* Time: the periodic CLINT tick while tasks run, tickless idle (one timer interrupt per sleep,
 * programmed at the next deadline), the timer queue of sleeping and timing-out tasks, and the
 * round-robin time slice. Tick n starts at mtime epoch + n * period, so time never drifts. */
#include "k.h"

uint32_t k_tick;
uint32_t k_ticks_idled;
struct timerq k_timers;
/* mtime of tick k_tick + 1, in halves: the tick fast path (arch tick.S) advances the low word
 * and carries into the high one. */
uint32_t k_next_tick_lo, k_next_tick_hi;
uint32_t k_tick_period; /* mtime units per tick */
_Static_assert(offsetof(struct timer_node, deadline) == PORT_TIMER_DEADLINE,
               "the tick fast path reads deadlines at PORT_TIMER_DEADLINE");
_Static_assert(offsetof(struct timerq, head) == 0, "the tick fast path reads k_timers' head");

static uint64_t next_tick(void)
{
    return (uint64_t)k_next_tick_hi << 32 | k_next_tick_lo;
}

static void set_next_tick(uint64_t when)
{
    k_next_tick_lo = (uint32_t)when;
    k_next_tick_hi = (uint32_t)(when >> 32);
}

void k_time_start(void)
{
    k_tick_period = PORT_TIMER_HZ / k_cfg->tick_hz;
    k_tick = 0;
    set_next_tick(port_time() + k_tick_period);
    port_timer_set(next_tick());
    port_timer_enable();
}

static void expire(void)
{
    struct timer_node *n;
    while ((n = timerq_pop_expired(&k_timers, k_tick))) {
        if (n == &k_srp_clock)
            k_srp_clock_fired();
        else
            k_timeout_expired(tcb_of_timer(n));
    }
}

/* The end of a tick: the running level rotates when the slice is used up, then the highest
 * ready task runs. Out of line (three callers, none of them the preemption path). */
static __attribute__((noinline)) void tick_end(void)
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

/* The ticks the port's fast path leaves to C (it counted the tick and programmed the next
 * one). A due deadline: the preemption path (the one deadline due is a sleeper, which outranks
 * the running task) calls nothing but k_preempt, as a tail call, so it needs no stack frame:
 * pop, ready insert as the top, switch. */
void k_tick_due(void)
{
    struct timer_node *n = timerq_first(&k_timers); /* due: the port checked */
    struct k_tcb *t = tcb_of_timer(n);
    struct timer_node *after = n->next;
    if (n == &k_srp_clock || t->wait_on || (after && tick_before_eq(after->deadline, k_tick))) {
        tick_expire_all();
        return;
    }
    k_timers.head = after; /* == timerq_pop_expired for the one due sleeper */
    n->next = 0;
    t->in_timer = 0;
    /* A sleeper that outranks the running task is alone at the new top level (a higher ready
     * task would be running): it is inserted as the top with no look at its level and runs
     * with no ready-queue lookup (the short wake, as k_ready_preempt's), and the slice
     * restarts with it. */
    struct k_tcb *cur = k_cur();
    if (__builtin_expect(t->prio > cur->prio, 1)) {
        t->state = CACTUS_TASK_READY;
        readyq_insert_top(&k_ready, &t->link, t->prio);
        k_preempt_from_to(cur, t);
        return;
    }
    k_make_ready(t);
    tick_end();
}

void k_tick_slice_end(void)
{
    tick_end();
}

void k_tick_catch_up(void)
{
    uint64_t now = port_time(), next = next_tick();
    if (now >= next) {
        int rotate = 0;
        do {
            k_tick++;
            next += k_tick_period;
            set_next_tick(next);
            expire();
            if (++k_slice_used >= k_slice_ticks) {
                k_slice_used = 0;
                rotate = 1;
            }
        } while (now >= next);
        port_timer_set(next); /* clears the pending timer interrupt */
        int top = readyq_top(&k_ready);
        if (rotate && top >= 0)
            readyq_rotate(&k_ready, (unsigned)top);
    }
    k_preempt();
}

/* Tickless idle: nothing is ready, so time jumps to the earliest deadline. The steps are
 * shared with the interrupt-aware idle of irq.c, which replaces k_idle when handlers exist. */

uint64_t k_idle_deadline(const struct timer_node *n)
{
    uint32_t ahead = n->deadline - k_tick; /* >= 1: expired entries never stay queued */
    return next_tick() + (uint64_t)(ahead - 1) * k_tick_period;
}

void k_idle_reached(const struct timer_node *n, uint64_t when)
{
    k_stats.idle_wakeups++;
    k_ticks_idled += n->deadline - k_tick;
    k_tick = n->deadline;
    set_next_tick(when + k_tick_period);
    port_timer_set(next_tick());
    expire();
}

void k_idle_woken(uint64_t now)
{
    uint32_t passed = 0;
    uint64_t next = next_tick();
    if (now >= next) {
        uint64_t d = now - next;
        while (d >> 32) { /* idled for more than 2^32 mtime units (429 s at 10 MHz) */
            d -= (uint64_t)k_tick_period << 16;
            passed += 1u << 16;
        }
        passed += (uint32_t)d / k_tick_period + 1;
        next += (uint64_t)passed * k_tick_period;
    }
    k_stats.idle_wakeups++;
    k_ticks_idled += passed;
    k_tick += passed;
    set_next_tick(next);
    port_timer_set(next);
    expire();
}

/* What a live task that is not ready waits for, in words (the deadlock report). */
static const char *waits_for(const struct k_tcb *t)
{
    if (t->state == CACTUS_TASK_SUSPENDED)
        return "a resume";
    if (!t->wait_on)
        return "a notification";
    switch (t->wait_on->kind) {
    case WAIT_SEM: return "a semaphore";
    case WAIT_MUTEX: return "a mutex";
    case WAIT_QUEUE: return "a queue";
    case WAIT_EVENT: return "event flags";
    case WAIT_STACK: return "stack memory";
    case WAIT_TIMERS: return "a timer command";
    case WAIT_POOL: return "a pool block";
    case WAIT_SRP: return "a job release";
    default: return "an object";
    }
}

void k_idle_forever(void)
{
    int live = 0;
    for (int i = 0; i < CACTUS_MAX_TASKS; i++)
        live += k_alive(&k_tasks[i]);
    if (!live)
        k_stop(CACTUS_EXIT_IDLE, "STOPPED: every task has terminated");
    k_report("cactus: DEADLOCK: no task can ever run again:\n");
    for (int i = 0; i < CACTUS_MAX_TASKS; i++)
        if (k_alive(&k_tasks[i]))
            k_report("cactus:   task %d '%s' waits for %s\n", i, cactus_task_name(i),
                    waits_for(&k_tasks[i]));
    k_stop(CACTUS_EXIT_IDLE, "DEADLOCK");
}

__attribute__((weak)) void k_idle(void)
{
    struct timer_node *n = timerq_first(&k_timers);
    if (!n)
        k_idle_forever();
    uint64_t when = k_idle_deadline(n);
    port_timer_set(when);
    while (port_time() < when)
        port_wait_for_interrupt();
    k_idle_reached(n, when);
}

uint32_t cactus_now(void)
{
    k_fresh();
    return k_tick;
}
