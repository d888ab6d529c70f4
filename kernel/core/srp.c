/* The SRP scheduling mode (cactus/srp.h, docs/srp.md): jobs nested in LIFO order on the one
 * shared stack of the dispatcher task, started only above the system ceiling.
 *
 * Linked only into SRP firmware (the firmware build lists this file with arch/rv32/srp.S;
 * from the kernel libraries only a call to cactus_srp_main pulls it in). Its hooks into the
 * rest of the kernel are weak references there: the release clock (k_srp_clock, a timer node
 * of no task, expired by time.c) and the wait kind of the idle dispatcher (WAIT_SRP).
 *
 * Where a released job starts:
 * - from a job (cactus_srp_release, cactus_srp_unlock): dispatch() is called right there, on
 *   the caller's stack, so the new job runs nested in the caller and returns into it;
 * - from a trap (the release clock at a tick, an interrupt handler's cactus_srp_release, a
 *   kernel call on the kernel stack) that interrupted a job or
 *   the dispatcher: preempt_in_trap() pushes the interrupted registers (all but s0-s11, which
 *   C code preserves and the trap exit leaves live) onto the shared stack below the interrupted
 *   sp and points the context at port_srp_preempt (arch/rv32/srp.S), so the trap's mret enters
 *   it with interrupts enabled; it calls k_srp_preempted() (dispatch) and then restores the
 *   interrupted registers from the frame with its own mret;
 * - when the dispatcher waits (nothing pending above the ceiling): it is woken like any task.
 * Every path calls dispatch() with interrupts masked; a job runs with them enabled. */
#include "k.h"
#include "cactus/srp.h"
#include "../trace/ktrace.h"

/* The release clock: one timer node at the earliest next periodic release. time.c expires it
 * by calling k_srp_clock_fired() (both are weak references there). */
struct timer_node k_srp_clock;

static const cactus_srp_config *cfg; /* set when the dispatcher first runs */
static struct k_tcb *base;           /* the dispatcher task: its stack is the shared stack */
static cactus_wait idle_wait = { 0, WAIT_SRP };
static int32_t ceiling = -1; /* the system ceiling: -1 outside any job */
static int32_t running = -1; /* the running job */
static uint32_t running_deadline; /* EDF: the running job's absolute deadline (tick) */
static uint32_t dispatches, preemptions;
static uint32_t shared_top; /* the dispatcher's sp in cactus_srp_main: the shared stack's top */
uint32_t cactus_srp_spill;

/* Words of the frame preempt_in_trap pushes: ra, t0-t2, a0-a7, t3-t6, pc (17), then the
 * interrupted sp (the trampoline's mret returns there; it is the frame's end unless the job ran
 * off the shared stack), padded to 16 bytes. arch/rv32/srp.S reads it in this order. */
#define FRAME_BYTES 80
#define FRAME_WORDS 18
_Static_assert(FRAME_BYTES == PORT_SRP_FRAME, "port_srp_preempt's frame size");

/* The job to start next, or -1: fixed priority, the highest-level job with a pending release
 * above the ceiling (table order within a level); EDF (edf_pending), the earliest absolute
 * deadline among those that also beat the running job's. */
static int edf_pending(void);
static int top_pending(void)
{
    if (cfg->edf)
        return edf_pending();
    for (uint32_t k = 0; k < cfg->njobs; k++) {
        int j = cfg->order[k];
        if ((int32_t)cfg->jobs[j].level <= ceiling)
            return -1;
        if (cfg->state[j].pending)
            return j;
    }
    return -1;
}

static int edf_pending(void)
{
    int best = -1;
    uint32_t best_deadline = 0;
    for (uint32_t k = 0; k < cfg->njobs; k++) {
        int j = cfg->order[k];
        if ((int32_t)cfg->jobs[j].level <= ceiling)
            break;
        if (!cfg->state[j].pending)
            continue;
        uint32_t d = cfg->state[j].release_tick + cfg->jobs[j].deadline;
        if (running >= 0 && !((int32_t)(d - running_deadline) < 0))
            continue;
        if (best < 0 || (int32_t)(d - best_deadline) < 0) {
            best = j;
            best_deadline = d;
        }
    }
    return best;
}

/* Runs every pending job above the ceiling, highest level first, each to completion with
 * interrupts enabled, on the caller's stack. Interrupts masked on entry and on return. */
static void dispatch(void)
{
    int j;
    while ((j = top_pending()) >= 0) {
        cactus_srp_job_state *s = &cfg->state[j];
        const cactus_srp_job *d = &cfg->jobs[j];
        uint32_t release = s->release_tick;
        s->pending--;
        s->release_tick = d->period ? release + d->period : k_tick;
        int32_t saved_ceiling = ceiling, saved_running = running;
        uint32_t saved_deadline = running_deadline;
        preemptions += saved_running >= 0;
        dispatches++;
        ceiling = d->level;
        running = j;
        running_deadline = release + d->deadline;
        port_irq_restore(1);
        if (cfg->invoke)
            cfg->invoke(d, (uint32_t)j);
        else
            d->entry(d->arg);
        port_irq_save();
        if (d->deadline && k_tick - release >= d->deadline)
            s->misses++;
        ceiling = saved_ceiling;
        running = saved_running;
        running_deadline = saved_deadline;
    }
}

static void release(int j)
{
    cactus_srp_job_state *s = &cfg->state[j];
    s->releases++;
    if (s->pending++ == 0)
        s->release_tick = k_tick;
}

/* A release from a trap made job work above the ceiling: start it once the trap returns. */
static void preempt_in_trap(void)
{
    if (top_pending() < 0)
        return;
    if (base->wait_on == &idle_wait) {
        k_wake(base, 0); /* only idle can be interrupted now: it picks the dispatcher */
        return;
    }
    struct port_context *c = &base->ctx;
    /* Only a trap from the dispatcher's stack gets here (it is the only task), so c holds the
     * interrupted registers; once rewritten, the trampoline dispatches every later release. */
    if (port_current != c || c->pc == 0 || c->pc == (uint32_t)(uintptr_t)port_srp_preempt)
        return;
    /* A job an invoker runs off the shared stack (Carousel: on its own blocks) is not where the
     * nested jobs go: the frame goes below the shared stack's live part. */
    uint32_t top = c->sp;
    if (cactus_srp_spill && !cactus_srp_on_shared_stack(c->sp))
        top = cactus_srp_spill;
    uint32_t sp = top - FRAME_BYTES;
    if (sp < base->stack.limit) {
        cactus_fault f = { .reason = CACTUS_FAULT_STACK_REQUEST, .sp = top,
                           .requested = FRAME_BYTES };
        k_fault(base, &f);
        return;
    }
    uint32_t *frame = (uint32_t *)(uintptr_t)sp;
    const uint32_t saved[FRAME_WORDS] = { c->ra, c->t0, c->t1, c->t2, c->a0, c->a1,
                                          c->a2, c->a3, c->a4, c->a5, c->a6, c->a7,
                                          c->t3, c->t4, c->t5, c->t6, c->pc, c->sp };
    ktrace_kernel_enter(); /* the kernel writes the task's stack (also inside a handler) */
    for (int i = 0; i < FRAME_WORDS; i++)
        frame[i] = saved[i];
    ktrace_kernel_leave();
    c->sp = sp;
    c->pc = (uint32_t)(uintptr_t)port_srp_preempt;
}

void k_srp_clock_fired(void)
{
    uint32_t next = 0;
    int armed = 0;
    for (uint32_t j = 0; j < cfg->njobs; j++) {
        const cactus_srp_job *d = &cfg->jobs[j];
        cactus_srp_job_state *s = &cfg->state[j];
        if (!d->period)
            continue;
        while (tick_before_eq(s->next_release, k_tick)) {
            release((int)j);
            s->next_release += d->period;
        }
        if (!armed || tick_before_eq(s->next_release, next))
            next = s->next_release;
        armed = 1;
    }
    if (armed)
        timerq_insert(&k_timers, &k_srp_clock, next);
    preempt_in_trap();
}

void k_srp_preempted(void)
{
    port_irq_save();
    dispatch();
}

static K_SYSCALL(sys_wait)
{
    if (top_pending() >= 0)
        return CACTUS_OK;
    return k_block(&idle_wait, CACTUS_FOREVER, CACTUS_TASK_BLOCKED, CACTUS_OK);
}

static K_SYSCALL(sys_start)
{
    cfg = (const cactus_srp_config *)a0;
    shared_top = (uint32_t)a1;
    base = k_cur();
    /* Jobs by falling level (insertion sort, stable: table order within a level). */
    for (uint32_t i = 0; i < cfg->njobs; i++) {
        uint32_t k = i;
        while (k > 0 && cfg->jobs[cfg->order[k - 1]].level < cfg->jobs[i].level) {
            cfg->order[k] = cfg->order[k - 1];
            k--;
        }
        cfg->order[k] = (uint8_t)i;
    }
    for (uint32_t j = 0; j < cfg->njobs; j++)
        cfg->state[j].next_release = k_tick + cfg->jobs[j].offset;
    k_srp_clock_fired(); /* the first releases due now, and the clock for the others */
    return CACTUS_OK;
}

int cactus_srp_on_shared_stack(uint32_t sp)
{
    return base && sp >= base->stack.limit && sp <= shared_top;
}

void cactus_srp_main(void *config)
{
    uint32_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    SYSCALL(sys_start, config, sp, 0, 0);
    for (;;) {
        port_irq_save();
        dispatch();
        port_irq_restore(1);
        SYSCALL(sys_wait, 0, 0, 0, 0);
    }
}

/* A release from an interrupt handler, as a kernel call on the kernel stack (port_syscall from
 * a handler): the trap path's preemption (and its fault on a full stack) never runs on, nor is
 * reachable from, a job's stack. */
static K_SYSCALL(sys_release_in_trap)
{
    release((int)a0);
    preempt_in_trap();
    return CACTUS_OK;
}

int cactus_srp_release(int job)
{
    k_fresh();
    if (!cfg || job < 0 || (uint32_t)job >= cfg->njobs)
        return CACTUS_EINVAL;
    if (port_in_kernel_code()) /* an interrupt handler: the job starts when the trap returns */
        return (int)SYSCALL(sys_release_in_trap, job, 0, 0, 0);
    uint32_t irq = port_irq_save();
    release(job);
    if (running >= 0)
        dispatch(); /* a job: a higher one runs nested here */
    port_irq_restore(irq);
    return CACTUS_OK;
}

void cactus_srp_lock(cactus_srp_resource *r)
{
    uint32_t irq = port_irq_save();
    r->saved = (uint8_t)(ceiling + 1); /* -1..31 kept as 0..32 */
    if ((int32_t)r->ceiling > ceiling)
        ceiling = r->ceiling;
    port_irq_restore(irq);
}

void cactus_srp_unlock(cactus_srp_resource *r)
{
    uint32_t irq = port_irq_save();
    ceiling = (int32_t)r->saved - 1;
    dispatch();
    port_irq_restore(irq);
}

int cactus_srp_job_self(void)
{
    k_fresh();
    return running;
}

int cactus_srp_ceiling(void)
{
    k_fresh();
    return ceiling;
}

uint32_t cactus_srp_releases(int job)
{
    k_fresh();
    return cfg && job >= 0 && (uint32_t)job < cfg->njobs ? cfg->state[job].releases : 0;
}

uint32_t cactus_srp_misses(int job)
{
    k_fresh();
    return cfg && job >= 0 && (uint32_t)job < cfg->njobs ? cfg->state[job].misses : 0;
}

uint32_t cactus_srp_dispatches(void)
{
    k_fresh();
    return dispatches;
}

uint32_t cactus_srp_preemptions(void)
{
    k_fresh();
    return preemptions;
}
