/* Ending a task: cactus_task_exit, which a task's entry also returns to (port_context_init).
 * Its own object, so that a firmware can link variants/exit_halt.c before the kernel instead
 * (a task that ends halts the system, as a FreeRTOS task that returns stops in
 * prvTaskExitError): then this file, and task termination with it when nothing kills or
 * restarts a task, is not linked. */
#include "k.h"

static K_SYSCALL(sys_exit)
{
    k_terminate(k_cur(), CACTUS_TASK_EXITED);
    k_reschedule();
    return 0;
}

void cactus_task_exit(void)
{
    SYSCALL(sys_exit, 0, 0, 0, 0);
    k_panic("terminated task resumed");
}
