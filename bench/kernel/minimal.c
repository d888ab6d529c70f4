/* The smallest useful Cactus firmware, for the footprint figures of `cactus bench kernel`: one
 * task that sleeps once and ends the run. Its `size` is the kernel plus this file. */
#include "cactus/cactus.h"

static void only(void *arg)
{
    (void)arg;
    cactus_sleep(1);
    cactus_exit(0);
}

static const cactus_task_desc tasks[] = {
    { .name = "only", .entry = only, .stack_size = 256, .prio = 1 },
};

int main(void)
{
    static cactus_config cfg = { .tasks = tasks, .ntasks = 1 };
    cactus_start(&cfg);
}
