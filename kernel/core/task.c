/* Tasks: creation (from the start-up table or at run time), exit, kill, restart and queries. */
#include "k.h"
#include "list.h"
#include "../stack/stack.h"
#include "../trace/ktrace.h"

struct k_tcb k_tasks[CACTUS_MAX_TASKS];
struct k_tcb *k_task_ptr[CACTUS_MAX_TASKS];
static int started;

/* The task table's layout for debuggers: cactus-gdb shows every live task as a gdb thread by
 * reading k_tasks and port_current from guest memory with these numbers (as OpenOCD reads
 * Zephyr's _kernel_thread_info_offsets). They go to a non-allocated ELF section, so they are in
 * the file and cost the firmware no memory; the function itself is never called (the linker
 * drops its code). Version 2: the magic "TASK", the version, the task slots, the TCB's size,
 * the offsets in a TCB of the context, state, priority, base priority and creation parameters,
 * the offset of the name in those parameters, the context's pc slot, PORT_TP and the offset of
 * wait_on (the wait list a blocked task is on; cactus-sim's task probe reads it). A context
 * holds x1 at 0, x2 at 4, xn at (n - 3) * 4 for n = 5..31 (port.h); its pc slot is 0 in a
 * voluntary context, which resumes at ra. */
__attribute__((used)) static void k_debug_layout(void)
{
    __asm__ volatile(".pushsection .cactus.tasks,\"\",@progbits\n"
                     ".balign 4\n"
                     ".word 0x4b534154, 2, %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10\n"
                     ".popsection"
                     :
                     : "i"(CACTUS_MAX_TASKS), "i"(sizeof(struct k_tcb)),
                       "i"(offsetof(struct k_tcb, ctx)), "i"(offsetof(struct k_tcb, state)),
                       "i"(offsetof(struct k_tcb, prio)), "i"(offsetof(struct k_tcb, base_prio)),
                       "i"(offsetof(struct k_tcb, desc)), "i"(offsetof(cactus_task_desc, name)),
                       "i"(CTX_PC), "i"(PORT_TP), "i"(offsetof(struct k_tcb, wait_on)));
}

/* Mutexes are a link-time option: core/mutex.c, linked only into a firmware that calls a
 * cactus_mutex_* function, defines the real k_pi_update and k_mutex_release_all, which override
 * these. Without it no mutex was ever locked, so no task holds one or waits on one: there is
 * nothing to hand over and no priority to inherit. (Saves priority inheritance, about 500
 * bytes, in firmware without mutexes; docs/kernel.md "Footprint".) */
__attribute__((weak)) void k_pi_update(struct k_tcb *t)
{
    (void)t;
}

__attribute__((weak)) void k_mutex_release_all(struct k_tcb *t)
{
    (void)t;
}

/* Suspension and notifications are link-time options too: core/suspend.c and core/notify.c,
 * linked only into a firmware that calls their functions, override these two. Without
 * suspend.c no task can be resumed, so none is created suspended; without notify.c no task
 * has a notification state to clear. */
__attribute__((weak)) void k_task_start(struct k_tcb *t)
{
    k_make_ready(t);
}

__attribute__((weak)) void k_notify_reset(struct k_tcb *t)
{
    (void)t;
}

struct k_tcb *k_task(int id)
{
    if (id < 0 || id >= CACTUS_MAX_TASKS || !k_alive(&k_tasks[id]))
        return 0;
    return &k_tasks[id];
}

static int setup(struct k_tcb *t, const cactus_task_desc *d)
{
    t->desc = d;
    t->prio = t->base_prio = d->prio;
    t->wait_on = 0;
    t->held = 0;
    t->in_timer = 0;
    uintptr_t sp = stack_alloc(t, d->stack_size);
    if (!sp) {
        t->state = CACTUS_TASK_FREE;
        return CACTUS_ENOMEM;
    }
    port_context_init(&t->ctx, d->entry, d->arg, sp, cactus_task_exit);
    ktrace_task_create((uint32_t)k_id(t), d->prio, d->name);
    k_notify_reset(t);
    k_task_start(t);
    return k_id(t);
}

static int create(const cactus_task_desc *d)
{
    if (!d || !d->entry || d->prio >= CACTUS_PRIO_LEVELS || d->on_fault > CACTUS_ON_FAULT_HALT)
        return CACTUS_EINVAL;
    struct k_tcb *slot = 0;
    for (int i = 0; i < CACTUS_MAX_TASKS && !slot; i++)
        if (k_tasks[i].state == CACTUS_TASK_FREE)
            slot = &k_tasks[i];
    for (int i = 0; i < CACTUS_MAX_TASKS && !slot; i++)
        if (!k_alive(&k_tasks[i]))
            slot = &k_tasks[i];
    if (!slot)
        return CACTUS_ENOMEM;
    return setup(slot, d);
}

void k_terminate(struct k_tcb *t, uint8_t state)
{
    k_unlink(t);
    k_mutex_release_all(t);
    uint32_t reason = state == CACTUS_TASK_KILLED ? 1 : state == CACTUS_TASK_FAULTED ? 2 : 0;
    ktrace_task_exit((uint32_t)k_id(t), reason);
    stack_free(t);
    t->state = state;
    t->ctx.pc = 1; /* not a voluntary context any more (what the kernel call that ended it
                    * stores into it at its exit is never read) */
}

int k_task_reinit(struct k_tcb *t)
{
    k_terminate(t, CACTUS_TASK_KILLED);
    return setup(t, t->desc);
}

static K_SYSCALL(sys_create)
{
    int id = create((const cactus_task_desc *)a0);
    if (id >= 0)
        k_reschedule();
    return (uintptr_t)id;
}

static K_SYSCALL(sys_kill)
{
    struct k_tcb *t = k_task((int)a0);
    if (!t)
        return (uintptr_t)CACTUS_ESRCH;
    k_terminate(t, CACTUS_TASK_KILLED);
    k_reschedule();
    return CACTUS_OK;
}

static K_SYSCALL(sys_restart)
{
    struct k_tcb *t = k_task((int)a0);
    if (!t)
        return (uintptr_t)CACTUS_ESRCH;
    int r = k_task_reinit(t);
    k_reschedule();
    return (uintptr_t)(r < 0 ? r : CACTUS_OK);
}

int cactus_task_create(const cactus_task_desc *d)
{
    if (!started)
        return create(d);
    return (int)SYSCALL(sys_create, d, 0, 0, 0);
}

int cactus_task_kill(int id)
{
    return (int)SYSCALL(sys_kill, id, 0, 0, 0);
}

int cactus_task_restart(int id)
{
    return (int)SYSCALL(sys_restart, id, 0, 0, 0);
}

int cactus_task_self(void)
{
    k_fresh();
    return k_id(k_cur());
}

int cactus_task_state(int id)
{
    k_fresh();
    if (id < 0 || id >= CACTUS_MAX_TASKS)
        return CACTUS_ESRCH;
    const struct k_tcb *t = &k_tasks[id];
    if (started && t == k_cur() && k_alive(t))
        return CACTUS_TASK_RUNNING;
    return t->state;
}

int cactus_task_prio(int id)
{
    k_fresh();
    struct k_tcb *t = k_task(id);
    return t ? t->prio : CACTUS_ESRCH;
}

int cactus_task_stack(int id, cactus_stack_info *out)
{
    struct k_tcb *t = k_task(id);
    if (!t)
        return CACTUS_ESRCH;
    uint32_t irq = port_irq_save();
    cactus_stack_info *p = port_window_task_ptr(out); /* a task's pointer (window.h) */
    if (p)
        stack_usage(t, p);
    port_irq_restore(irq);
    return CACTUS_OK;
}

const char *cactus_task_name(int id)
{
    if (id < 0 || id >= CACTUS_MAX_TASKS || !k_tasks[id].desc)
        return "?";
    return k_tasks[id].desc->name;
}

/* Not inlined into the application's main: its code is the kernel's in the footprint figures
 * (`cactus bench kernel` counts the kernel apart from the application's symbols). */
__attribute__((noinline)) void cactus_start(const cactus_config *cfg)
{
    static cactus_config c;
    port_irq_save();
    c = *cfg;
    if (!c.tick_hz)
        c.tick_hz = 1000;
    if (!c.slice_ticks)
        c.slice_ticks = 1;
    k_cfg = &c;
    for (int i = 0; i < CACTUS_MAX_TASKS; i++)
        k_task_ptr[i] = &k_tasks[i];
    readyq_init(&k_ready);
    timerq_init(&k_timers);
    stack_init();
    for (uint32_t i = 0; i < c.ntasks; i++) {
        int id = create(&c.tasks[i]);
        if (id < 0) {
            k_report("cactus: cannot create task '%s': error %d\n", c.tasks[i].name, id);
            k_panic("start-up task table");
        }
    }
    cactus_node *first = readyq_first(&k_ready);
    if (!first)
        k_stop(CACTUS_EXIT_IDLE, "no task to run");
    started = 1;
    k_time_start();
    struct k_tcb *t = tcb_of_link(first);
    ktrace_task_switch(t);
    if (CACTUS_ISOLATE)
        k_isolate_switch(t);
    port_current = &t->ctx;
    k_slice_ticks = c.slice_ticks;
    k_slice_used = 0;
    port_start();
}
