/* sim-speed benchmark: naive recursive Fibonacci, fib(18..21) in turn, ITERS
 * rounds. Exercises calls and returns (jal/jalr), stack loads/stores of
 * saved registers, and compare-and-branch: the call/return path. */
#include "bench.h"

#ifndef ITERS
#define ITERS 4200
#endif

static uint32_t __attribute__((noinline)) fib(uint32_t n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/* volatile so the compiler cannot hoist or fold the calls */
static volatile uint32_t base_n = 18;

int main(void)
{
    uint32_t sum = 0;
    for (uint32_t it = 0; it < ITERS; it++)
        sum = sum * 3u + fib(base_n + (it & 3));
    return bench_finish("fib", ITERS, sum);
}
