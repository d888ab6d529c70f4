/* An illegal instruction: the runtime reports the function, the pc and the cause and exits
 * with code 3, on both machines (scripts/baremetal-check). */
#include <stdio.h>

__attribute__((noinline)) static void broken(void)
{
    __asm__ volatile("unimp");
}

int main(void)
{
    puts("fault: running an illegal instruction");
    broken();
    puts("fault: not reached");
    return 0;
}
