/* A plain C program: no start-up code, no stack descriptor, no trap handler of its own.
 * `cactus cc` links its runtime, so it runs unchanged on cactus-sim and QEMU virt and exits 0
 * (scripts/baremetal-check, built with and without stack checks). */
#include <stdio.h>

static unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void)
{
    printf("hello from main: fib(20) = %u\n", fib(20));
    return fib(20) == 6765 ? 0 : 1;
}
