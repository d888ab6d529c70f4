/* Kernel-internal trace API. Two link-time implementations: trace_sim.c reports to the
 * simulator's trace device (cactus/trace.h, docs/trace-device.md); trace_none.c does nothing
 * (QEMU builds, where the device is not decoded). Task ids are k_tasks indices;
 * KTRACE_NOBODY means idle / no owner. */
#ifndef K_TRACE_H
#define K_TRACE_H

#include <stdint.h>

#define KTRACE_NOBODY 0xFFFFFFFFu

void ktrace_task_create(uint32_t id, uint32_t prio, const char *name);
struct k_tcb;
/* The task now running (NULL: idle). Takes the TCB so the no-trace build pays no id math. */
void ktrace_task_switch(const struct k_tcb *t);
void ktrace_task_exit(uint32_t id, uint32_t reason); /* 0 returned, 1 killed, 2 faulted */
void ktrace_region_assign(uintptr_t base, uint32_t size, uint32_t owner);
void ktrace_region_release(uintptr_t base, uint32_t size);
/* Moves [base, base+size), now the lender's, to the borrower (a loan; given back by assign). */
void ktrace_region_lend(uintptr_t base, uint32_t size, uint32_t lender, uint32_t borrower);
void ktrace_stack_hwm(uint32_t id, uint32_t used, uint32_t budget);
/* A STACK_HWM of every live task (the ones that ended reported theirs when their stack was
 * freed): called on every way the kernel ends a run, so each task's high water is measured. */
void ktrace_stacks(void);
/* action: 0 killed, 1 restarted, 2 halted, 3 grown */
void ktrace_overflow(uint32_t id, uintptr_t sp, uint32_t requested, uint32_t action);
void ktrace_marker(uint32_t id, uint32_t value);
/* Bracket kernel stores into memory the running task does not own (another task's stack). */
void ktrace_kernel_enter(void);
void ktrace_kernel_leave(void);
/* Bracket an interrupt handler (its stores are checked; it owns no stack byte). */
void ktrace_isr_enter(uint32_t source);
void ktrace_isr_leave(void);
/* Oracle violation count; returns -1 when there is no trace device. */
int ktrace_violations(uint32_t *out);

#endif
