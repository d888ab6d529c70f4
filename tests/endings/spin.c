/* The firmware of spin.toml and idle.toml. */
#include "cactus_firmware.h"

static volatile uint32_t turns;

/* Never blocks: only the tick preempts it. */
void spin_task(void *arg)
{
    (void)arg;
    for (;;)
        turns++;
}

/* A periodic job that never ends the run: the kernel idles between its releases. */
void tick_job(void)
{
    turns++;
}
