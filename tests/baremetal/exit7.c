/* main's return value is the run's exit code on both machines (scripts/baremetal-check). */
#include <stdio.h>

int main(void)
{
    puts("exit7: returning 7");
    return 7;
}
