/* The smallest firmware comparable to the FreeRTOS footprint anchor (its kernel text for two
 * tasks and vTaskDelay, GCC -O2), for the footprint figures of `cactus bench kernel`: two tasks
 * and a delay. Task `ticker` sleeps one tick at a time; task `ender` sleeps ten ticks, then
 * ends the run, with exit code 0 if the ticker woke at least nine times meanwhile. Its `size` is
 * the kernel plus this file; kernel/Makefile builds its kernel for two tasks (`minimal_KERNEL`,
 * `minimal_KSTACK`), as a manifest firmware's kernel is built for its task count. */
#include "cactus/cactus.h"

static volatile uint32_t wakeups;

static void ticker(void *arg)
{
    (void)arg;
    for (;;) {
        cactus_sleep(1);
        wakeups++;
    }
}

static void ender(void *arg)
{
    (void)arg;
    cactus_sleep(10);
    cactus_exit(wakeups >= 9 ? 0 : 1);
}

static const cactus_task_desc tasks[] = {
    { .name = "ticker", .entry = ticker, .stack_size = 256, .prio = 1 },
    { .name = "ender", .entry = ender, .stack_size = 256, .prio = 2 },
};

int main(void)
{
    static cactus_config cfg = { .tasks = tasks, .ntasks = 2 };
    cactus_start(&cfg);
}
