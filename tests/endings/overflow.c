/* The firmware of overflow.toml: deep_task recurses 64 levels of a 64-byte frame (4 KiB) on a
 * 512-byte stack; main_task waits until it is gone and ends the run with exit code 0. */
#include "cactus_firmware.h"

static volatile uint32_t sink;

/* Not inlined and not a tail call: every level keeps a 64-byte frame on the stack. */
__attribute__((noinline)) static uint32_t descend(uint32_t depth)
{
    volatile uint32_t frame[12];
    frame[depth % 12] = depth;
    if (depth == 0)
        return frame[0];
    return descend(depth - 1) + frame[depth % 12];
}

void deep_task(void *arg)
{
    (void)arg;
    sink = descend(64);
    kprintf("deep: not reached\n");
}

void main_task(void *arg)
{
    (void)arg;
    while (cactus_task_state(1) != CACTUS_TASK_FAULTED)
        cactus_sleep(1);
    kprintf("main: task deep is gone; the firmware ends with exit code 0\n");
    cactus_fw_finish(0);
}
