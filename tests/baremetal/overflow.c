/* Recursion deeper than the runtime's stack (linked with a 2 KiB stack by
 * scripts/baremetal-check): under `cactus cc --checks detect` the check before the frame that
 * does not fit traps, and the runtime reports the overflow, the function and the fix, then
 * exits with code 3, on cactus-sim and QEMU. */
#include <stdio.h>

static volatile unsigned sink;

__attribute__((noinline)) static unsigned descend(unsigned depth)
{
    volatile unsigned frame[16];
    frame[depth % 16] = depth;
    if (depth == 0)
        return frame[0];
    return descend(depth - 1) + frame[depth % 16];
}

int main(void)
{
    sink = descend(1000);
    puts("overflow: not reached");
    return 0;
}
