/* Task suspension: cactus_task_suspend / cactus_task_resume and tasks created suspended. Linked
 * only into a firmware that calls one of the two (the archive member is pulled in by them); its
 * k_task_start then replaces task.c's weak one, so descriptors with CACTUS_START_SUSPENDED are
 * honoured exactly when a task can be resumed at all.
 *
 * A suspended task is on no queue: not the ready queue, no wait list, not the timer queue.
 * Suspending a blocked or sleeping task therefore ends its wait the way a timeout does
 * (k_unlink; the call's timeout result is already in its context's a0, written by k_block), so
 * resuming it never has to re-establish a wait, and a wake-up, deadline or object state it
 * missed while suspended cannot strand it. A task blocked by a trap (waiting for stack memory,
 * context untouched) retries its stack check when resumed. */
#include "k.h"

void k_task_start(struct k_tcb *t)
{
    if (t->desc->start)
        t->state = CACTUS_TASK_SUSPENDED;
    else
        k_make_ready(t);
}

static K_SYSCALL(sys_suspend)
{
    struct k_tcb *t = k_task((int)a0);
    if (!t)
        return (uintptr_t)CACTUS_ESRCH;
    if (t->state != CACTUS_TASK_SUSPENDED) {
        k_unlink(t);
        t->state = CACTUS_TASK_SUSPENDED;
        /* The caller itself: another task (or idle) runs, and it returns once resumed. Another
         * task that waited for a mutex: the owner's inherited priority may have dropped. */
        k_reschedule();
    }
    return CACTUS_OK;
}

/* The measured path (resume_cycles): a range and a state test, then the short wake. */
static __attribute__((flatten)) K_SYSCALL(sys_resume)
{
    uint32_t id = (uint32_t)a0;
    if (__builtin_expect(id < CACTUS_MAX_TASKS, 1)) {
        struct k_tcb *t = k_task_ptr[id];
        if (__builtin_expect(t->state == CACTUS_TASK_SUSPENDED, 1))
            return k_ready_preempt(t);
    }
    return (uintptr_t)(k_task((int)id) ? CACTUS_EINVAL : CACTUS_ESRCH);
}

int cactus_task_suspend(int id)
{
    return (int)SYSCALL(sys_suspend, id, K_NOARG("a1"), K_NOARG("a2"), K_NOARG("a3"));
}

int cactus_task_resume(int id)
{
    return (int)SYSCALL(sys_resume, id, K_NOARG("a1"), K_NOARG("a2"), K_NOARG("a3"));
}
