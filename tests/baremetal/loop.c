/* A plain C program with loops, built with `cactus cc --preempt-traps=16` and the runtime
 * (scripts/baremetal-check): every backward branch counts down the word at tp - 8 and every
 * 16th enters the runtime's bare entry (crates/cc/runtime/preempt.S), which reloads it. After
 * a thousand iterations the counter must still be within (0, 16]: a runtime that did not
 * reload it would leave it at or below zero. Built without the pass, the counter is 0 and
 * untouched. Exits 0 and prints the sum when all holds. */
#include <stdio.h>

static unsigned counter(void)
{
    unsigned c;
    __asm__ volatile("lw %0, -8(tp)" : "=r"(c));
    return c;
}

int main(void)
{
    volatile unsigned sum = 0;
    for (unsigned i = 0; i < 1000; i++)
        sum += i;
    unsigned c = counter();
    printf("loop: sum %u, counter %u\n", sum, c);
    return sum == 499500u && (int)c > 0 && c <= 16 ? 0 : 1;
}
