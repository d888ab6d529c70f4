/* The logical-stack operations of stack.h for the strategies whose tasks address their stacks
 * physically (static, mtss, segmented and their configurations): included once by each such
 * strategy's file (one strategy is linked per library). No task pointer needs translating, and
 * no stack-window exception is ever raised (those kernels never turn the window on). */
#ifndef K_STACK_PHYSICAL_H
#define K_STACK_PHYSICAL_H

#include "stack.h"

void *stack_task_ptr(struct k_tcb *t, void *p, uint32_t n)
{
    (void)t, (void)n;
    return p;
}

int stack_grow(struct k_tcb *t, uintptr_t low)
{
    (void)t, (void)low;
    return -1;
}

#endif
