/* Cactus kernel public API. Blocking calls take a timeout in ticks (CACTUS_NO_WAIT or
 * CACTUS_FOREVER allowed) and must be called from task context with interrupts enabled.
 * Interrupt handlers (cactus_irq_attach) may make any call that does not block: semaphore
 * give, queue send/receive and event set with CACTUS_NO_WAIT, ...; a task they wake runs when
 * the outermost handler returns. A handler's blocking call is a kernel panic naming it. */
#ifndef CACTUS_H
#define CACTUS_H

#include <stdint.h>
#include "cactus/types.h"

/* System */
/* Creates cfg->tasks, starts the tick and runs the highest-priority task; never returns. */
void cactus_start(const cactus_config *cfg) __attribute__((noreturn));
/* Ends the whole run through the finisher (0 = success). */
void cactus_exit(uint32_t code) __attribute__((noreturn));
void cactus_get_stats(cactus_stats *out);
/* Critical sections, inline (no call, no stack frame): cactus_irq_save masks interrupts
 * (mstatus.MIE) and returns the previous state, which only cactus_irq_restore may use: it
 * re-enables interrupts if and only if they were enabled at the matching save. Sections nest.
 * One `csrrci` + `andi` to enter, one `csrs` to leave; both are compiler barriers. */
#define CACTUS_MSTATUS_MIE 8u
static inline uint32_t cactus_irq_save(void)
{
    uint32_t old;
    __asm__ volatile("csrrci %0, mstatus, 8" : "=r"(old)::"memory");
    return old & CACTUS_MSTATUS_MIE;
}
static inline void cactus_irq_restore(uint32_t state)
{
    __asm__ volatile("csrs mstatus, %0" ::"r"(state) : "memory");
}

/* Interrupts (docs/interrupts.md). A handler runs on the kernel's interrupt stack with
 * interrupts enabled: a PLIC source of higher priority may nest; the timer and software
 * interrupts wait until the outermost handler returns. */
/* Attaches handler to PLIC `source` (1..31) at `priority` (1..7), or to the machine software
 * interrupt (source CACTUS_IRQ_SOFTWARE, priority 0), and enables it. `name` names it in
 * reports. CACTUS_EINVAL for a bad source, priority or NULL handler. */
int cactus_irq_attach(uint32_t source, cactus_isr handler, uint32_t priority, const char *name);
/* Raises the machine software interrupt (its handler runs once, even if raised again first). */
void cactus_irq_raise_software(void);
/* Non-zero while an interrupt handler runs (in it or in what it calls). */
int cactus_in_isr(void);
/* Direct handler of the machine software interrupt (docs/interrupts.md, "Direct handlers"):
 * bound at link time to the interrupt's own vector entry, which saves no register for it, so
 * it starts within a few cycles of the interrupt. It is an interrupt function (it saves what
 * it writes and returns with mret: GCC's interrupt attribute), takes no argument, runs on the
 * kernel's interrupt stack with interrupts masked (nothing nests into it) and may make the
 * same calls as any handler; a task it wakes runs when it returns. Define it with
 *     CACTUS_DIRECT_ISR_SOFTWARE(my_isr) { ... }
 * (one per firmware) and attach it with cactus_irq_attach_direct_software("my_isr"). */
#define CACTUS_DIRECT_ISR_SOFTWARE(fn)                                                            \
    __attribute__((interrupt("machine"))) void fn(void);                                          \
    void cactus_direct_isr_software(void) __attribute__((alias(#fn)));                            \
    __attribute__((interrupt("machine"))) void fn(void)
/* Makes the firmware's CACTUS_DIRECT_ISR_SOFTWARE handler the software interrupt's and enables
 * it; `name` names it in reports. */
int cactus_irq_attach_direct_software(const char *name);

/* Tasks */
int cactus_task_create(const cactus_task_desc *d); /* returns the id (>= 0) or a status */
void cactus_task_exit(void) __attribute__((noreturn));
int cactus_task_kill(int id);    /* id may be the caller (then it does not return) */
int cactus_task_restart(int id); /* back to its entry on a fresh stack */
int cactus_task_self(void);
int cactus_task_state(int id);   /* enum cactus_task_state, or CACTUS_ESRCH */
int cactus_task_prio(int id);    /* effective priority (with inheritance) */
int cactus_task_stack(int id, cactus_stack_info *out);
const char *cactus_task_name(int id);
void cactus_yield(void);
/* Takes task `id` (the caller included) off every queue: a ready task stops running; a blocked
 * or sleeping task's wait ends as if its timeout had expired (it leaves the object's wait list
 * and the timer queue), so when resumed its call returns its timeout result (CACTUS_ETIMEOUT,
 * 0 for event and notification takes, CACTUS_OK for sleeps). It keeps the mutexes it holds.
 * CACTUS_OK (also if already suspended; the caller returns from it only once resumed),
 * CACTUS_ESRCH if no such live task. */
int cactus_task_suspend(int id);
/* Makes suspended task `id` ready; if it outranks the caller it runs at once. CACTUS_OK,
 * CACTUS_EINVAL if it is live but not suspended (nothing changes), CACTUS_ESRCH if no such live
 * task. A restart (cactus_task_restart) also ends a suspension. */
int cactus_task_resume(int id);

/* Time (ticks since cactus_start) */
uint32_t cactus_now(void);
int cactus_sleep(uint32_t ticks);
/* Sleeps until *last_wake + period and advances *last_wake by period (drift-free); returns 0
 * after sleeping, 1 if that instant had already passed (no sleep). */
int cactus_sleep_until(uint32_t *last_wake, uint32_t period);

/* Semaphores: counting (max > 1) or binary (max == 1). */
int cactus_sem_init(cactus_sem *s, uint32_t initial, uint32_t max);
int cactus_sem_take(cactus_sem *s, uint32_t timeout);
int cactus_sem_give(cactus_sem *s); /* CACTUS_EFULL when already at max */
uint32_t cactus_sem_count(const cactus_sem *s);

/* Mutexes with priority inheritance (non-recursive; released if the owner terminates). */
int cactus_mutex_init(cactus_mutex *m);
int cactus_mutex_lock(cactus_mutex *m, uint32_t timeout);
int cactus_mutex_unlock(cactus_mutex *m);

/* Message queues: items of item_size bytes copied in and out of buf[item_size * capacity]. */
int cactus_queue_init(cactus_queue *q, void *buf, uint32_t item_size, uint32_t capacity);
int cactus_queue_send(cactus_queue *q, const void *item, uint32_t timeout);
int cactus_queue_recv(cactus_queue *q, void *item, uint32_t timeout);
uint32_t cactus_queue_count(const cactus_queue *q);

/* Fixed-block pools. Allocate and free are O(1) (no loop over blocks or waiters) and their
 * common case is inline below: a critical section that pops or pushes the free list, with no
 * call and no kernel entry (safe in any context: it only masks interrupts). The rest is
 * core/pool.c, linked only when a firmware uses a pool. A block is 4-byte aligned. */
/* Makes a pool of `count` blocks of `block_size` bytes from buf[block_size * count]: buf
 * 4-byte aligned, block_size a non-zero multiple of 4, count >= 1 (else CACTUS_EINVAL). */
int cactus_pool_init(cactus_pool *p, void *buf, uint32_t block_size, uint32_t count);
/* The most blocks that were ever in use at once (the pool's high water). */
uint32_t cactus_pool_high_water(const cactus_pool *p);
/* The out-of-line parts of cactus_pool_alloc and cactus_pool_free (core/pool.c): the first use
 * of a block, waiting for one, handing a freed block to a waiting task. Call those instead. */
void *cactus_pool_alloc_slow(cactus_pool *p, uint32_t timeout);
int cactus_pool_free_slow(cactus_pool *p, void *blk);
/* The free list's link: the first word of a free block, whatever the block held. */
typedef void *__attribute__((may_alias)) cactus_pool_link;
/* Whether blk is the start of one of p's blocks (one multiply: see core/pool.c). */
static inline int cactus_pool_is_block(const cactus_pool *p, const void *blk)
{
    uint32_t y = (uint32_t)((uintptr_t)blk - (uintptr_t)p->base) * p->inv;
    return (y & p->mask) == 0 && y < p->lim;
}

/* A free block, or NULL when none came within `timeout` ticks (CACTUS_NO_WAIT: at once).
 * Waiting tasks get freed blocks highest priority first, FIFO among equals. */
static inline void *cactus_pool_alloc(cactus_pool *p, uint32_t timeout)
{
    uint32_t irq = cactus_irq_save();
    void *b = p->free;
    if (__builtin_expect(b != 0, 1)) {
        p->free = *(cactus_pool_link *)b;
        cactus_irq_restore(irq);
        return b;
    }
    cactus_irq_restore(irq);
    return cactus_pool_alloc_slow(p, timeout);
}

/* Gives `blk` back (to the first waiting task, if any). CACTUS_EINVAL, and nothing changes,
 * when blk is not the start of one of p's blocks. Freeing a block twice is not detected. */
static inline int cactus_pool_free(cactus_pool *p, void *blk)
{
    if (__builtin_expect(!cactus_pool_is_block(p, blk), 0))
        return CACTUS_EINVAL;
    uint32_t irq = cactus_irq_save();
    if (__builtin_expect(p->w.head == 0, 1)) {
        *(cactus_pool_link *)blk = p->free;
        p->free = blk;
        cactus_irq_restore(irq);
        return CACTUS_OK;
    }
    cactus_irq_restore(irq);
    return cactus_pool_free_slow(p, blk);
}

/* Event flags. wait returns the bits that satisfied it (before clearing), or 0 on timeout. */
int cactus_event_init(cactus_event *e);
int cactus_event_set(cactus_event *e, uint32_t bits);
int cactus_event_clear(cactus_event *e, uint32_t bits);
uint32_t cactus_event_wait(cactus_event *e, uint32_t mask, uint32_t opts, uint32_t timeout);
uint32_t cactus_event_get(const cactus_event *e);

/* Direct-to-task notifications: every task has a 32-bit value and a pending flag, both clear
 * when it is created. cactus_notify updates task id's value by `action` (enum
 * cactus_notify_action) and marks a notification pending; if the task waits for one
 * (cactus_notify_wait, or cactus_notify_take with a non-zero value) it is woken, and runs at
 * once if it outranks the caller. CACTUS_OK, CACTUS_EFULL (SET_IF_NONE with one pending:
 * nothing changed), CACTUS_EINVAL (bad action), CACTUS_ESRCH (no such live task). */
int cactus_notify(int id, uint32_t value, uint32_t action);
/* Waits for a notification to the caller. If none is pending the bits clear_on_entry of its
 * value are cleared first. When one is (or arrives within `timeout` ticks): *value (if not
 * NULL) receives the value, then the bits clear_on_exit are cleared and the pending flag with
 * them; returns CACTUS_OK. Else CACTUS_ETIMEOUT (*value untouched, nothing cleared). */
int cactus_notify_wait(uint32_t clear_on_entry, uint32_t clear_on_exit, uint32_t *value,
                       uint32_t timeout);
/* The counting form: waits until the caller's value is non-zero (within `timeout` ticks),
 * then returns it and sets it to 0 (`clear` != 0) or decrements it, clearing the pending flag.
 * Returns 0 on timeout. */
uint32_t cactus_notify_take(uint32_t clear, uint32_t timeout);

/* Software timers (core/swtimer.c). Callbacks run in the timer task, a task the firmware
 * creates with entry cactus_timer_task (a manifest's [[timer]] or kernel.timer_task_prio makes
 * one); they may call any kernel call but should not block (they delay every later timer).
 * Expiry is tick-accurate: a timer started at tick s with period p fires at s + p (and, if
 * periodic, at s + 2p, ..., drift-free) when the timer task is the highest ready task then. */
/* Initialises a stopped timer (no kernel call: allowed before cactus_start); period >= 1,
 * callback not NULL, else CACTUS_EINVAL. */
int cactus_timer_init(cactus_timer *t, const char *name, uint32_t period, int periodic,
                      void (*callback)(cactus_timer *t), void *arg);
/* (Re)starts t: it expires `period` ticks from now. CACTUS_OK or CACTUS_EINVAL. */
int cactus_timer_start(cactus_timer *t);
/* Stops t (no more expiries until started again); CACTUS_OK even if it was stopped. */
int cactus_timer_stop(cactus_timer *t);
/* Sets t's period to `period` (>= 1) and (re)starts it from now, as FreeRTOS does. */
int cactus_timer_change_period(cactus_timer *t, uint32_t period);
/* 1 while t is started (a one-shot timer stops when it expires), else 0. */
int cactus_timer_active(const cactus_timer *t);
void *cactus_timer_arg(const cactus_timer *t);
/* The timer task's body: `arg` is a const cactus_timer_table * (timers it starts when it first
 * runs, from that tick: the autostart timers) or NULL. It runs each expired timer's callback,
 * in deadline order (FIFO among equal deadlines); it never returns. */
void cactus_timer_task(void *arg);

/* Stack: entry for instrumented code that needs `requested` more bytes than the stack has. */
int cactus_stack_overflow(uint32_t requested);

/* Trace (simulation builds report to the trace device; QEMU builds do nothing). */
void cactus_marker(uint32_t id, uint32_t value);
/* Stores the ownership oracle's violation count; returns 0, or -1 without a trace device. */
int cactus_oracle_violations(uint32_t *out);

/* Console */
/* printf to the UART: %d %u %x %X %s %c %p %%, optional 0 flag and width. Integer conversions
 * take any 32-bit argument (int or int32_t/uint32_t); no format checking, so keep to those. */
int kprintf(const char *fmt, ...);

#endif /* CACTUS_H */
