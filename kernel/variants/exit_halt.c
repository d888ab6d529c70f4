/* Link-time variant: ending a task halts the system. A firmware that links this object before
 * the kernel library gets this cactus_task_exit (which a task's entry also returns to) instead
 * of core/exit.c's, so a task that returns or calls cactus_task_exit stops the run with
 * CACTUS_EXIT_HALT (its report: "a task ended"), as a FreeRTOS task that returns stops in
 * prvTaskExitError. Task termination (unlinking, the stack's return, the mutex release) is
 * then linked only if the firmware kills or restarts tasks or has a per-task fault policy. A
 * manifest selects it with `kernel.variants = ["exit_halt"]` (docs/manifest.md);
 * docs/kernel.md "Footprint" gives what it saves. */
#include "../core/k.h"

static K_SYSCALL(sys_exit_halt)
{
    k_stop(CACTUS_EXIT_HALT, "a task ended (variants/exit_halt.c: ending a task halts)");
}

void cactus_task_exit(void)
{
    SYSCALL(sys_exit_halt, 0, 0, 0, 0);
    for (;;) {
    }
}
