/* Kernel-internal definitions shared by the core files: the task control block, kernel state
 * and the scheduling primitives. Only port.h is seen from the architecture. */
#ifndef K_H
#define K_H

#include <stddef.h>
#include "cactus/cactus.h"
#include "port.h"
#include "window.h"
#include "readyq.h"
#include "timerq.h"

#include "limits.h"

enum wait_kind {
    WAIT_SEM = 1,
    WAIT_MUTEX,
    WAIT_QUEUE,
    WAIT_EVENT,
    WAIT_STACK,
    WAIT_TIMERS,
    WAIT_POOL,
    WAIT_SRP
};

/* Task control block: 160 bytes, the whole per-task kernel overhead; nothing on the task stack.
 * The context must stay first: port_current points at it. The stack descriptor follows it
 * (PORT_STACK_DESC): tp points just past it (limit at tp-4) while the task runs, instrumented code compares sp with its
 * limit, and a trap saves the task's registers at tp - PORT_TP (docs/stack-checks.md). */
struct k_tcb {
    struct port_context ctx;        /*   0: registers and branch counter (124 bytes) */
    struct cactus_stack_desc stack; /* 124: .limit = lowest valid sp (set by the strategy) */
    cactus_node link;               /* 128: ready list or wait list */
    struct timer_node timer;        /* 136: sleep / timeout deadline */
    const cactus_task_desc *desc;   /* 144: creation parameters (name, entry, arg, stack, policy) */
    cactus_wait *wait_on;           /* 148: object blocked on, or NULL */
    cactus_mutex *held;             /* 152: mutexes owned (for inheritance and release) */
    uint8_t prio;                   /* 156: effective priority */
    uint8_t base_prio;              /* 157: assigned priority */
    uint8_t state;                  /* 158: enum cactus_task_state (never RUNNING) */
    uint8_t in_timer;               /* 159: 1 while the timer node is queued */
#if CACTUS_STACK_WINDOW
    uint32_t stack_disp;            /* 160: physical - logical stack address (relocate) */
#endif
};
_Static_assert(offsetof(struct k_tcb, ctx) == 0, "context must be first");
_Static_assert(offsetof(struct k_tcb, stack) == PORT_STACK_DESC,
               "the stack descriptor must be where the port's resume paths point tp");
_Static_assert(offsetof(struct k_tcb, link) == PORT_LINK && offsetof(cactus_node, next) == 0,
               "the port's tick fast path reads the running task's level neighbour there");
_Static_assert(offsetof(struct k_tcb, prio) == PORT_PRIO && sizeof(((struct k_tcb *)0)->prio) == 1,
               "the yield's assembly path and the rmcs switch read the task's priority byte there");
_Static_assert(offsetof(struct readyq, head) == PORT_READY_HEAD,
               "the yield's assembly path rotates the running task's level there");
#if CACTUS_STACK_WINDOW
_Static_assert(offsetof(struct k_tcb, stack_disp) == PORT_STACK_DISP,
               "the resume paths read the stack-window displacement there (window.h)");
#endif
/* The relocate strategy's window builds carry the stack displacement beyond the budget. */
_Static_assert(sizeof(struct k_tcb) <= 160 + (CACTUS_STACK_WINDOW ? 4 : 0),
               "TCB exceeds the per-task overhead budget (160 bytes, 164 with the stack window)");

extern struct k_tcb k_tasks[CACTUS_MAX_TASKS];
/* k_task_ptr[id] = &k_tasks[id] (filled by cactus_start, before any kernel call): the kernel
 * calls that name a task by id on a measured path (resume, notify) find its TCB with one
 * gp-relative load (the table is small data) instead of a multiply by the TCB size. 4 bytes
 * per task slot. */
extern struct k_tcb *k_task_ptr[CACTUS_MAX_TASKS];
extern struct readyq k_ready;
extern struct timerq k_timers;
extern uint32_t k_tick;
extern uint32_t k_ticks_idled; /* ticks skipped by tickless idle: periodic tick interrupts taken
                                * = k_tick - k_ticks_idled (no counter on the tick path) */
extern const cactus_config *k_cfg;
extern cactus_stats k_stats;
extern uint32_t k_slice_used;  /* ticks the running task has had in its slice (0 at a switch) */
extern uint32_t k_slice_ticks; /* configured slice length */
extern uint32_t k_switches;    /* task switches (k_stats.switches, kept apart: one gp-relative
                                * increment on the switch paths) */
/* The switch counter is on unless the kernel is built with CACTUS_SWITCH_STATS=0 (the
 * `nostats` kernel variant: the FreeRTOS-equal configuration of docs/kernel.md "Switch cost",
 * which counts no switch; cactus_get_stats then reports 0 switches). A constant condition on
 * every switch path, C and assembly (arch/rv32/yield.S). */
#ifndef CACTUS_SWITCH_STATS
#define CACTUS_SWITCH_STATS 1
#endif
_Static_assert(CACTUS_SWITCH_STATS == 0 || CACTUS_SWITCH_STATS == 1, "CACTUS_SWITCH_STATS is 0 or 1");

/* Compiler barrier for the read-only queries tasks may poll in a loop (cactus_now, task state,
 * counts): kernel state changes under interrupts, so every call must read memory afresh even
 * when link-time optimisation inlines the query into the caller's loop. */
static inline void k_fresh(void)
{
    __asm__ volatile("" ::: "memory");
}

static inline struct k_tcb *k_cur(void)
{
    return (struct k_tcb *)port_current;
}
static inline struct k_tcb *tcb_of_link(cactus_node *n)
{
    return (struct k_tcb *)((char *)n - offsetof(struct k_tcb, link));
}
static inline struct k_tcb *tcb_of_timer(struct timer_node *n)
{
    return (struct k_tcb *)((char *)n - offsetof(struct k_tcb, timer));
}
static inline int k_id(const struct k_tcb *t)
{
    return (int)(t - k_tasks);
}
/* Live: ready (or running), blocked, sleeping or suspended; not free or terminated. */
static inline int k_alive(const struct k_tcb *t)
{
    return t->state >= CACTUS_TASK_READY && t->state <= CACTUS_TASK_SUSPENDED;
}
/* Live task with this id, or NULL. */
struct k_tcb *k_task(int id);

/* sched.c */
void k_make_ready(struct k_tcb *t);
/* Blocks the caller on w (NULL: plain sleep) until woken or `timeout` ticks; returns the result
 * given to k_wake, or timeout_result. */
uintptr_t k_block(cactus_wait *w, uint32_t timeout, uint8_t state, uintptr_t timeout_result);
/* Makes a blocked or sleeping task ready with `result` as its call's return value. */
void k_wake(struct k_tcb *t, uintptr_t result);
/* Blocks the running task on w until woken or `timeout` ticks, from a trap: its context (every
 * register, a0 included) is left as it is, so it resumes exactly where its ctx.pc says. */
void k_block_in_trap(cactus_wait *w, uint32_t timeout, uint8_t state);
/* Makes a task blocked by k_block_in_trap ready, its context untouched. */
void k_wake_in_trap(struct k_tcb *t);
/* Runs the highest-priority ready task (idling first if none); applies the switch-time stack
 * check to the task being left. */
void k_reschedule(void);
/* k_reschedule for a caller that knows the running task is alive (the tick interrupt). */
void k_preempt(void);
/* The ticks that fell due while the timer interrupt was masked, counted as the tick interrupt
 * counts them (deadlines, slice, rotation at the slice end), then k_preempt (core/time.c; the
 * preempt-traps entry, core/preempt.c). */
void k_tick_catch_up(void);
/* The preempt-traps period N (0 when no unit was built with the pass) and the number of
 * kernel entries through counted branches so far (core/preempt.c). */
uint32_t k_preempt_period(void);
extern uint32_t k_preempt_traps;
/* The isolate pass (core/isolate.c, docs/sensmart.md "Memory isolation"): a kernel built with
 * CACTUS_ISOLATE=1 loads the next task's windows into cactus_iso_win at every switch; the pass's
 * slow path (arch/rv32/isolate.S) calls k_isolate_trap. Counters: allowed slow-path entries,
 * refused accesses. */
#ifndef CACTUS_ISOLATE
#define CACTUS_ISOLATE 0
#endif
void k_isolate_switch(struct k_tcb *t);
void k_isolate_trap(uint32_t addr, uint32_t kind);
extern uint32_t k_isolate_slow, k_isolate_violations;
/* k_preempt when the caller knows the task to run: t is ready and outranks every other ready
 * task and the running one, which is alive (the switch-time stack check still applies). */
void k_preempt_to(struct k_tcb *t);
/* k_preempt_to with the running task already at hand (cur == k_cur()). */
void k_preempt_from_to(struct k_tcb *cur, struct k_tcb *t);
void k_set_prio(struct k_tcb *t, uint8_t prio);
/* Makes t (on no queue: suspended, or its wait already ended) ready and runs it at once if it
 * outranks the running task, which must be the caller of a kernel call (alive, the highest
 * ready task). Returns CACTUS_OK, so a kernel call can end with it as a tail call. */
uintptr_t k_ready_preempt(struct k_tcb *t);
/* Takes t off the ready queue or its wait list and timer (before terminating it). */
void k_unlink(struct k_tcb *t);
/* Yields the running task `self` (see sched.c); returns the context to resume. */
struct port_context *k_yield(struct port_context *self);

/* Interrupt handlers (irq.c). k_isr_call: an interrupt handler is running (its source plus
 * one, set by irq.c's dispatch around every handler), so a kernel call it makes (irq.S,
 * port_syscall_isr) sees it: k_block refuses to block and k_reschedule only notes, in
 * k_isr_resched, that a task it made ready may outrank the interrupted one; the outermost
 * interrupt exit then reschedules once. k_isr_resched: 0 (no switch), K_ISR_RESCHED_LOOKUP
 * (pick the highest ready task), or the TCB of the one task a short wake (k_ready_preempt)
 * made ready above the interrupted one, nothing else having happened (the exit switches to it
 * with no ready-queue lookup: k_preempt_to). Both live in sched.c so
 * that the checks on the task paths cost no link of irq.c; the functions below are weak: they
 * exist only when irq.c is linked, which is the only way k_isr_call can be set. */
extern uint32_t k_isr_call;
extern uintptr_t k_isr_resched;
#define K_ISR_RESCHED_LOOKUP ((uintptr_t)1)
/* A handler made a blocking call: a kernel panic naming the handler (never returns). */
void k_isr_blocking_call(void) __attribute__((weak, noreturn));
/* A kernel call run by port_syscall on the kernel stack (a0..a3 as passed). */
#define K_SYSCALL(name)                                                                            \
    uintptr_t name(uintptr_t a0 __attribute__((unused)), uintptr_t a1 __attribute__((unused)),    \
                   uintptr_t a2 __attribute__((unused)), uintptr_t a3 __attribute__((unused)))
#define SYSCALL(fn, a, b, c, d)                                                                    \
    port_syscall((uintptr_t)(a), (uintptr_t)(b), (uintptr_t)(c), (uintptr_t)(d), fn)
/* An argument the kernel call does not read, in SYSCALL's argument `reg` ("a1", "a2" or "a3"):
 * the register keeps whatever it holds, so the wrapper spends no instruction zeroing it. */
#define K_NOARG(reg)                                                                               \
    __extension__({                                                                                \
        register uintptr_t k_noarg_ __asm__(reg);                                                  \
        __asm__ volatile("" : "=r"(k_noarg_));                                                     \
        k_noarg_;                                                                                  \
    })
void k_wait_insert(cactus_wait *w, struct k_tcb *t);
static inline struct k_tcb *k_wait_first(const cactus_wait *w)
{
    return w->head ? tcb_of_link(w->head) : 0;
}
/* Ends the wait of the first task on w (non-empty, not a mutex's: no priority inheritance to
 * recompute) with `result` and makes it ready by the short wake (k_ready_preempt: it runs at
 * once if it outranks the caller; from a handler, at the outermost interrupt exit). Returns
 * CACTUS_OK, so a kernel call can end with it as a tail call. */
static inline uintptr_t k_wake_first(cactus_wait *w, uintptr_t result)
{
    cactus_node *n = w->head;
    struct k_tcb *t = tcb_of_link(n);
    if (__builtin_expect(n->next == n, 1)) { /* the only waiter */
        w->head = 0;
    } else {
        n->prev->next = n->next;
        n->next->prev = n->prev;
        w->head = n->next;
    }
    t->wait_on = 0;
    if (__builtin_expect(t->in_timer, 0)) {
        timerq_remove(&k_timers, &t->timer);
        t->in_timer = 0;
    }
    t->ctx.a0 = (uint32_t)result;
    return k_ready_preempt(t);
}

/* time.c */
void k_time_start(void);
/* Waits, with interrupts masked, until a task is ready or the earliest deadline makes one
 * ready (tickless idle); stops the system when no task can ever run again. Weak: irq.c
 * replaces it with one that also runs interrupt handlers. */
void k_idle(void);
/* The steps both idles share: the mtime of the tick at which deadline n falls; the time
 * reached it (ticks counted as idled, n's tasks made ready); a handler made a task ready at
 * mtime `now` before any deadline; no deadline and no handler (never returns). */
uint64_t k_idle_deadline(const struct timer_node *n);
void k_idle_reached(const struct timer_node *n, uint64_t when);
void k_idle_woken(uint64_t now);
void k_idle_forever(void) __attribute__((noreturn));
/* t's deadline passed (its timer node already popped): it leaves its wait list and becomes
 * ready with its call's timeout result. */
void k_timeout_expired(struct k_tcb *t);
/* The SRP mode's release clock (srp.c, linked only into SRP firmware): a timer node of no
 * task, expired by calling k_srp_clock_fired(). Weak: without srp.c its address is 0, which
 * no queued node has. */
extern struct timer_node k_srp_clock __attribute__((weak));
void k_srp_clock_fired(void) __attribute__((weak));

/* task.c */
void k_terminate(struct k_tcb *t, uint8_t state);
int k_task_reinit(struct k_tcb *t);
/* The last step of a task's creation (and restart): makes it ready. suspend.c replaces it (a
 * link-time override of a weak definition) with one that leaves a task whose descriptor says
 * CACTUS_START_SUSPENDED suspended. */
void k_task_start(struct k_tcb *t);
/* A task is created or restarted: its notification state is cleared (notify.c; a no-op
 * without it, when no task can have been notified). */
void k_notify_reset(struct k_tcb *t);

/* mutex.c */
void k_mutex_release_all(struct k_tcb *t);
void k_pi_update(struct k_tcb *t);

/* policy.c (or variants/fault_halt.c) */
void k_fault(struct k_tcb *t, cactus_fault *f);
/* stackfault.c: a stack strategy returned stack memory: every task waiting for it tries again. */
void k_stack_released(void);
/* The kernel's console reports (faults, stops, panics, deadlocks, refused stack requests): a
 * feature chosen at link time. arch/rv32/report.S makes k_report a weak tail jump to kprintf; a
 * firmware that links variants/quiet.c first prints none and keeps only their exit codes
 * (docs/kernel.md "Footprint"). Application output through kprintf is not affected. */
int k_report(const char *fmt, ...);
/* halt.c */
void k_halt(const cactus_fault *f, const char *why) __attribute__((noreturn));
void k_panic(const char *why) __attribute__((noreturn));
/* Prints why, calls the halt hook (with a NULL report) and exits with code. */
void k_stop(uint32_t code, const char *why) __attribute__((noreturn));

#endif
