/* The hardware stack window (cactus-sim's stack-window extension, docs/simulator-design.md
 * "Stack-window extension"; docs/sensmart.md), the translation backend of the `relocate`
 * strategy's hardware variant. Every task sees its stack in the same logical window that ends
 * at PORT_WINDOW_TOP; the CSR mswbound holds the running task's logical bound (its stack
 * limit, also its descriptor's limit word) and mswdisp the displacement from its logical to
 * its physical stack. A data access in the aperture at or above the bound goes to
 * address + displacement; one below it traps (mcause 25, mtval = the address) so the kernel can
 * relocate. Addresses outside the aperture are never translated, so kernel code keeps its
 * physical view while the window still holds the task it runs for.
 *
 * Which window is in force: the kernel never changes it on the way in (a trap, a kernel call,
 * an interrupt): kernel code dereferencing the running task's pointers reaches that task's
 * stack. Every path that resumes a task writes the task's window (STACK_WINDOW_FROM, right
 * where the hardware stack bound is written, bound.h) before it loads the task's sp. A kernel
 * built without CACTUS_STACK_WINDOW has no trace of it (cores without the CSRs). */
#ifndef CACTUS_WINDOW_HW_H
#define CACTUS_WINDOW_HW_H

#define CSR_MSWBOUND 0x7C9
#define CSR_MSWDISP 0x7CA
#define MCAUSE_STACK_WINDOW 25
/* The aperture [PORT_WINDOW_BASE, PORT_WINDOW_TOP): a task's logical stack top is the end. */
#define PORT_WINDOW_BASE 0x60000000u
#define PORT_WINDOW_TOP 0x70000000u

#ifdef __ASSEMBLER__
/* The window of the context whose stack descriptor is at \off(\base) (the arguments of
 * STACK_BOUND_FROM): mswbound = its limit, mswdisp = the word PORT_STACK_DISP - PORT_STACK_DESC
 * bytes after the descriptor (clobbers \r). */
.macro STACK_WINDOW_FROM r, off, base
.if CACTUS_STACK_WINDOW
    lw \r, \off(\base)
    csrw CSR_MSWBOUND, \r
    lw \r, \off + PORT_STACK_DISP - PORT_STACK_DESC(\base)
    csrw CSR_MSWDISP, \r
.endif
.endm
#else
#include <stdint.h>
/* Writes the window registers (the running task's window after a relocation, or none: 0). */
static inline void port_window_set(uint32_t bound, uint32_t disp)
{
    __asm__ volatile("csrw 0x7C9, %0\n\tcsrw 0x7CA, %1" ::"r"(bound), "r"(disp) : "memory");
}
/* Tasks' sp is logical: the descriptor's limit is the logical bound, a saved sp is logical. */
#define PORT_WINDOW_SOFTWARE 0
#define PORT_WINDOW_LIMIT(bound, disp) (bound)
#define PORT_WINDOW_BOUND(limit, disp) (limit)
#define PORT_WINDOW_SP(logical, disp) (logical)
#define PORT_WINDOW_SP_LOGICAL(sp, disp) (sp)
/* Nothing to prepare at start-up. */
#define port_window_init() ((void)0)
/* A moved task needs nothing: its registers hold logical addresses only. */
#define port_window_moved(ctx, delta, lo, hi) ((void)(ctx), (void)(delta), (void)(lo), (void)(hi))
/* Kernel code running for the task (its window in force) uses the task's pointer as is. */
#define port_window_task_ptr(p) (p)
/* Whether a pointer port_window_task_ptr gave may be used here: always (it is the task's own). */
#define port_window_ptr_usable(p) 1
#endif

#endif
