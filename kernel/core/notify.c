/* Direct-to-task notifications: a 32-bit value and a pending flag per task, the cheapest wake
 * the kernel has (no object, no wait list: the waiter is found by its id). Linked only into a
 * firmware that calls a cactus_notify* function; the per-task state lives here, indexed by task
 * id, so the TCB does not grow and firmware without notifications pays nothing for them.
 *
 * A task waiting for a notification is blocked on no object (state BLOCKED, wait_on NULL; a
 * sleeper is SLEEPING, every other wait has an object). What it waits for is in its context's
 * a1/a2 slots, which a blocked voluntary context does not use: a1 = the bits to clear on exit
 * (wait) or the clear flag (take), a2 = the mode. The notifier completes the wait itself (value
 * handed over, bits cleared, pending flag cleared) before it wakes the waiter, so the waiter's
 * call only has to return. */
#include "k.h"

enum { MODE_WAIT = 1, MODE_TAKE = 2 };

/* 8 bytes, so a task's slot is one shift from its id. */
struct k_notify {
    uint32_t value;
    uint32_t pending;
};

static struct k_notify k_notes[CACTUS_MAX_TASKS];
/* The value a completed wait handed over (read by the waiter's wrapper), per task: apart, so
 * the slot above stays a power of two. */
static uint32_t k_notes_got[CACTUS_MAX_TASKS];

void k_notify_reset(struct k_tcb *t)
{
    struct k_notify *n = &k_notes[k_id(t)];
    n->value = 0;
    n->pending = 0;
}

/* Keeps p in a register: without it the compiler recomputes `k_tasks + id` (a multiply) at
 * every use on the measured path. */
#define PIN(p) __asm__("" : "+r"(p))

/* The measured path (notify_cycles): range, the action, the waiter test (a task blocked on no
 * object is alive), the completion of its wait and the short wake as a tail call, with no
 * stack frame. */
static K_SYSCALL(sys_notify)
{
    uint32_t id = (uint32_t)a0;
    if (id >= CACTUS_MAX_TASKS)
        return (uintptr_t)CACTUS_ESRCH;
    struct k_tcb *t = k_task_ptr[id];
    struct k_notify *n = &k_notes[id];
    PIN(t);
    PIN(n);
    uint32_t v = n->value;
    if (__builtin_expect(a2 == CACTUS_NOTIFY_INCREMENT, 1)) /* the give-like use, measured */
        v++;
    else if (a2 == CACTUS_NOTIFY_SET_BITS)
        v |= (uint32_t)a1;
    else if (a2 == CACTUS_NOTIFY_OVERWRITE)
        v = (uint32_t)a1;
    else if (a2 == CACTUS_NOTIFY_SET_IF_NONE)
        v = n->pending ? v : (uint32_t)a1;
    else if (a2 != CACTUS_NOTIFY_SIGNAL)
        return (uintptr_t)CACTUS_EINVAL;
    if (__builtin_expect(t->state == CACTUS_TASK_BLOCKED && !t->wait_on, 1)) {
        uintptr_t result;
        if (__builtin_expect(t->ctx.a2 == MODE_TAKE, 1)) { /* the counting take, measured */
            if (!v)
                goto pend; /* a take waits for a non-zero value */
            result = v;
            /* clear ? 0 : v - 1, without a branch */
            v = (v - 1) & ((uint32_t)(t->ctx.a1 != 0) - 1u);
        } else {
            k_notes_got[id] = v;
            v &= ~t->ctx.a1;
            result = CACTUS_OK;
        }
        n->value = v;
        n->pending = 0;
        if (__builtin_expect(t->in_timer, 0)) {
            timerq_remove(&k_timers, &t->timer);
            t->in_timer = 0;
        }
        t->ctx.a0 = (uint32_t)result;
        return k_ready_preempt(t);
    }
    if (!k_alive(t))
        return (uintptr_t)CACTUS_ESRCH;
pend:
    if (a2 == CACTUS_NOTIFY_SET_IF_NONE && n->pending)
        return (uintptr_t)CACTUS_EFULL;
    n->value = v;
    n->pending = 1;
    return CACTUS_OK;
}

/* a0 = clear on entry, a1 = clear on exit, a2 = timeout. */
static K_SYSCALL(sys_notify_wait)
{
    struct k_tcb *cur = k_cur();
    struct k_notify *n = &k_notes[k_id(cur)];
    if (n->pending) {
        k_notes_got[k_id(cur)] = n->value;
        n->value &= ~(uint32_t)a1;
        n->pending = 0;
        return CACTUS_OK;
    }
    n->value &= ~(uint32_t)a0;
    if (a2 == CACTUS_NO_WAIT)
        return (uintptr_t)CACTUS_ETIMEOUT;
    cur->ctx.a1 = (uint32_t)a1;
    cur->ctx.a2 = MODE_WAIT;
    return k_block(0, (uint32_t)a2, CACTUS_TASK_BLOCKED, (uintptr_t)CACTUS_ETIMEOUT);
}

/* a0 = clear, a1 = timeout. */
static K_SYSCALL(sys_notify_take)
{
    struct k_tcb *cur = k_cur();
    struct k_notify *n = &k_notes[k_id(cur)];
    uint32_t v = n->value;
    if (v) {
        n->value = a0 ? 0 : v - 1;
        n->pending = 0;
        return v;
    }
    if (a1 == CACTUS_NO_WAIT)
        return 0;
    cur->ctx.a1 = (uint32_t)a0;
    cur->ctx.a2 = MODE_TAKE;
    return k_block(0, (uint32_t)a1, CACTUS_TASK_BLOCKED, 0);
}

int cactus_notify(int id, uint32_t value, uint32_t action)
{
    return (int)SYSCALL(sys_notify, id, value, action, K_NOARG("a3"));
}

int cactus_notify_wait(uint32_t clear_on_entry, uint32_t clear_on_exit, uint32_t *value,
                       uint32_t timeout)
{
    int r = (int)SYSCALL(sys_notify_wait, clear_on_entry, clear_on_exit, timeout, 0);
    /* `got` is written only by a completed wait of this task, and the task is running: no
     * other wait of it can complete before it reads it. */
    if (r == CACTUS_OK && value) {
        uint32_t irq = port_irq_save();
        uint32_t *p = port_window_task_ptr(value); /* a task's pointer (window.h) */
        if (p)
            *p = k_notes_got[cactus_task_self()];
        port_irq_restore(irq);
    }
    return r;
}

uint32_t cactus_notify_take(uint32_t clear, uint32_t timeout)
{
    return (uint32_t)SYSCALL(sys_notify_take, clear, timeout, K_NOARG("a2"), K_NOARG("a3"));
}
