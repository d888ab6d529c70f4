/* The firmware of ended.toml: task "worker" prints a line and returns; task "waiter", below it,
 * would end the run with exit code 0 if the worker's end let it run. Under the exit_halt variant
 * the worker's return halts the system first. */
#include "cactus_firmware.h"

void worker_main(void *arg)
{
    (void)arg;
    kprintf("worker: done, returning\n");
}

void waiter_main(void *arg)
{
    (void)arg;
    kprintf("waiter: ran after the worker ended\n");
    cactus_fw_finish(0);
}
