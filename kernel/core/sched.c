/* Scheduling: making tasks ready, blocking and waking them, priority changes, and the choice of
 * the next task (highest priority, FIFO within a level) with the switch-time stack check. */
#include "k.h"
#include "list.h"
#include "../stack/stack.h"
#include "../trace/ktrace.h"

struct readyq k_ready;
uint32_t k_slice_used;
uint32_t k_switches;
uint32_t k_isr_call;
uintptr_t k_isr_resched;

void k_make_ready(struct k_tcb *t)
{
    t->state = CACTUS_TASK_READY;
    readyq_insert(&k_ready, &t->link, t->prio);
}

static inline void wait_insert(cactus_wait *w, struct k_tcb *t)
{
    cactus_node *n = w->head;
    if (n) {
        do {
            if (tcb_of_link(n)->prio < t->prio) {
                list_insert_before(&w->head, n, &t->link);
                return;
            }
            n = n->next;
        } while (n != w->head);
    }
    list_insert_tail(&w->head, &t->link);
}

void k_wait_insert(cactus_wait *w, struct k_tcb *t)
{
    wait_insert(w, t);
}

/* Takes t off its wait list and timer; a mutex loses a waiter, so its owner's inherited
 * priority is recomputed. */
static void unwait(struct k_tcb *t)
{
    cactus_wait *w = t->wait_on;
    if (w) {
        list_remove(&w->head, &t->link);
        t->wait_on = 0;
        if (w->kind == WAIT_MUTEX && ((cactus_mutex *)w)->owner)
            k_pi_update((struct k_tcb *)((cactus_mutex *)w)->owner);
    }
    if (t->in_timer) {
        timerq_remove(&k_timers, &t->timer);
        t->in_timer = 0;
    }
}

void k_timeout_expired(struct k_tcb *t)
{
    t->in_timer = 0; /* its timer node was popped by the caller */
    if (t->wait_on)
        unwait(t);
    k_make_ready(t); /* a0 already holds the call's timeout result (set by k_block) */
}

void k_wake(struct k_tcb *t, uintptr_t result)
{
    unwait(t);
    t->ctx.a0 = (uint32_t)result;
    k_make_ready(t);
}

void k_wake_in_trap(struct k_tcb *t)
{
    unwait(t);
    k_make_ready(t);
}

void k_unlink(struct k_tcb *t)
{
    if (t->state == CACTUS_TASK_READY)
        readyq_remove(&k_ready, &t->link, t->prio);
    else
        unwait(t);
}

void k_set_prio(struct k_tcb *t, uint8_t prio)
{
    if (t->prio == prio)
        return;
    if (t->state == CACTUS_TASK_READY) {
        readyq_remove(&k_ready, &t->link, t->prio);
        t->prio = prio;
        readyq_insert(&k_ready, &t->link, prio);
    } else if (t->wait_on) {
        list_remove(&t->wait_on->head, &t->link);
        t->prio = prio;
        k_wait_insert(t->wait_on, t);
    } else {
        t->prio = prio;
    }
}

uint32_t k_slice_ticks;

static inline void switch_to(struct k_tcb *next)
{
    ktrace_task_switch(next);
    if (CACTUS_ISOLATE)
        k_isolate_switch(next);
    port_current = &next->ctx;
    if (CACTUS_SWITCH_STATS)
        k_switches++;
    k_slice_used = 0;
}

/* The switch-time stack check of the task being left; on failure its fault policy applies
 * (it is killed, restarted or the system halts). */
static __attribute__((noinline)) void stack_fault(struct k_tcb *cur, int verdict)
{
    cactus_fault f = { .reason = (uint8_t)verdict, .sp = cur->ctx.sp };
    k_fault(cur, &f);
}

/* The rare part of a reschedule: the left task failed its stack check, or nothing is ready
 * (idle until a deadline makes a task ready). Kept out of line so the common path stays short. */
static __attribute__((noinline)) void reschedule_slow(struct k_tcb *cur, int verdict)
{
    if (verdict != STACK_OK)
        stack_fault(cur, verdict);
    cactus_node *first = readyq_first(&k_ready);
    if (!first) {
        ktrace_task_switch(0);
        do
            k_idle();
        while (!(first = readyq_first(&k_ready)));
    }
    switch_to(tcb_of_link(first));
}

static inline void reschedule(struct k_tcb *cur, int alive)
{
    cactus_node *first = readyq_first(&k_ready);
    if (first == &cur->link)
        return;
    /* Laid out so that the preemption of a live task with a sound stack takes no branch. */
    if (__builtin_expect(alive, 1)) {
        int verdict = stack_check_switch(cur);
        if (__builtin_expect(verdict == STACK_OK && first != 0, 1)) {
            switch_to(tcb_of_link(first));
            return;
        }
        reschedule_slow(cur, verdict);
        return;
    }
    reschedule_slow(cur, STACK_OK);
}

/* The rare part of a block: the caller failed its stack check, or nothing else is ready (the
 * kernel idles inside the call, and a wake may end the wait before it returns, so the result
 * is read back from the context). Out of line so that k_block keeps no stack frame. */
static __attribute__((noinline)) uintptr_t block_slow(struct k_tcb *cur, int verdict)
{
    reschedule_slow(cur, verdict);
    return cur->ctx.a0;
}

uintptr_t k_block(cactus_wait *w, uint32_t timeout, uint8_t state, uintptr_t timeout_result)
{
    if (__builtin_expect(k_isr_call != 0, 0))
        k_isr_blocking_call();
    struct k_tcb *cur = k_cur();
    /* Its links stay stale until the wait-list insert below or the ready insert of its wake
     * (a task blocked on no object is on no list: nothing reads them). */
    readyq_unlink(&k_ready, &cur->link, cur->prio);
    /* The caller ran, so its level was the top: while that level still holds a task, its head
     * (which the unlink just wrote) is the first ready task, with no look at the top. */
    cactus_node *first = k_ready.head[cur->prio];
    cur->state = state;
    cur->wait_on = w;
    if (w)
        wait_insert(w, cur);
    if (timeout != CACTUS_FOREVER) {
        timerq_insert(&k_timers, &cur->timer, k_tick + timeout);
        cur->in_timer = 1;
    }
    cur->ctx.a0 = (uint32_t)timeout_result;
    /* reschedule(cur, 1), inline: no call and no stack frame on the blocking path. The caller
     * is off the ready queue, so the first ready task is another one. */
    if (__builtin_expect(!first, 0))
        first = readyq_first(&k_ready);
    int verdict = stack_check_switch(cur);
    if (__builtin_expect(verdict == STACK_OK && first != 0, 1)) {
        switch_to(tcb_of_link(first));
        return timeout_result; /* port_syscall stores it into the context it leaves */
    }
    return block_slow(cur, verdict);
}

void k_block_in_trap(cactus_wait *w, uint32_t timeout, uint8_t state)
{
    struct k_tcb *cur = k_cur();
    readyq_remove(&k_ready, &cur->link, cur->prio);
    cur->state = state;
    cur->wait_on = w;
    k_wait_insert(w, cur);
    if (timeout != CACTUS_FOREVER) {
        timerq_insert(&k_timers, &cur->timer, k_tick + timeout);
        cur->in_timer = 1;
    }
    k_reschedule();
}

void k_reschedule(void)
{
    if (__builtin_expect(k_isr_call != 0, 0)) {
        k_isr_resched = K_ISR_RESCHED_LOOKUP; /* the outermost interrupt exit reschedules */
        return;
    }
    struct k_tcb *cur = k_cur();
    reschedule(cur, k_alive(cur));
}

void k_preempt(void)
{
    reschedule(k_cur(), 1);
}

void k_preempt_to(struct k_tcb *t)
{
    k_preempt_from_to(k_cur(), t);
}

void k_preempt_from_to(struct k_tcb *cur, struct k_tcb *t)
{
    int verdict = stack_check_switch(cur);
    if (__builtin_expect(verdict == STACK_OK, 1))
        switch_to(t);
    else
        reschedule_slow(cur, verdict);
}

/* The rare part of a yield: the task being left failed its stack check. Its fault policy
 * applies, then the next task is chosen as after any kernel call. */
static __attribute__((noinline)) struct port_context *yield_fault(struct k_tcb *cur, int verdict)
{
    stack_fault(cur, verdict);
    k_reschedule();
    return port_current;
}

/* Called by port_yield (interrupts masked, on the kernel stack) with the caller's callee-saved
 * state already in its context `self`; returns the context to resume (port_current). With the
 * `static` strategy arch/rv32/yield.S does the common case itself, step for step (keep the two
 * in agreement), and calls this only when the switch-time check failed. The
 * running task is always the head of the highest non-empty level, so yielding rotates that
 * level and runs the next task in it, if any. Straight-line on the common path: it is half of
 * the measured yield (docs/kernel.md). */
struct port_context *k_yield(struct port_context *self)
{
    struct k_tcb *cur = (struct k_tcb *)self;
    cactus_node *next = cur->link.next;
    if (next == &cur->link)
        return self;
    k_ready.head[cur->prio] = next;
    int verdict = stack_check_switch(cur);
    if (verdict != STACK_OK)
        return yield_fault(cur, verdict);
    struct k_tcb *n = tcb_of_link(next);
    switch_to(n);
    return &n->ctx;
}

/* The short wake of resume and notify (their goals are measured: docs/kernel.md). The running
 * task is alive and the highest ready one, so a task that outranks it is alone at its level
 * once ready: it runs, with no ready-queue lookup. Called by an interrupt handler's kernel
 * call, it only makes t ready: the outermost interrupt exit reschedules. */
uintptr_t k_ready_preempt(struct k_tcb *t)
{
    if (__builtin_expect(k_isr_call != 0, 0)) {
        /* From an interrupt handler: the outermost exit switches (once). The first wake of
         * the level that outranks the interrupted task is noted as the task to switch to;
         * anything more makes the exit look the ready queue up. */
        int32_t top = k_ready.top;
        k_make_ready(t);
        uintptr_t r = k_isr_resched;
        if (__builtin_expect(r == 0, 1)) {
            /* Nothing noted yet: the interrupted task is still the highest ready one (the
             * top), so t outranks it exactly when it is above the top it found. */
            if ((int32_t)t->prio > top)
                k_isr_resched = (uintptr_t)t;
        } else {
            k_isr_resched = K_ISR_RESCHED_LOOKUP;
        }
        return CACTUS_OK;
    }
    struct k_tcb *cur = (struct k_tcb *)port_syscall_caller(); /* = k_cur(), one cycle less */
    t->state = CACTUS_TASK_READY;
    if (t->prio <= cur->prio) {
        readyq_insert(&k_ready, &t->link, t->prio);
        return CACTUS_OK;
    }
    readyq_insert_top(&k_ready, &t->link, t->prio);
    int verdict = stack_check_switch(cur);
    if (__builtin_expect(verdict == STACK_OK, 1))
        switch_to(t);
    else
        reschedule_slow(cur, verdict);
    return CACTUS_OK;
}
