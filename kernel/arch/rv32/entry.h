/* The two steps every way into the kernel shares, for the assembly (trap.S, tick.S, switch.S,
 * split.S). Include after port.h and bound.h. Assembly only. */
#ifndef CACTUS_ENTRY_H
#define CACTUS_ENTRY_H

#ifdef __ASSEMBLER__
/* Stores what C code may clobber into the context at \base, except t0, t1 and t6, which each
 * entry uses as scratch and saves itself: ra, sp, t2, a0-a7, t3-t5 (15 stores). */
.macro SAVE_C_CLOBBERED base
    sw ra, CTX_RA(\base)
    sw sp, CTX_SP(\base)
    sw t2, CTX_X(7)(\base)
    sw a0, CTX_X(10)(\base)
    sw a1, CTX_X(11)(\base)
    sw a2, CTX_X(12)(\base)
    sw a3, CTX_X(13)(\base)
    sw a4, CTX_X(14)(\base)
    sw a5, CTX_X(15)(\base)
    sw a6, CTX_X(16)(\base)
    sw a7, CTX_X(17)(\base)
    sw t3, CTX_X(28)(\base)
    sw t4, CTX_X(29)(\base)
    sw t5, CTX_X(30)(\base)
.endm

/* Moves onto the kernel stack so kernel C code can run: tp = the kernel's descriptor (kernel
 * code checks against the kernel stack), the hardware bound (bound.h) set to its limit before
 * sp changes, sp = its top. Clobbers \r. */
.macro ENTER_KERNEL_STACK r
    la tp, port_kernel + PORT_TP
    STACK_BOUND_FROM \r, -4, tp
    la sp, port_kstack_top
.endm
#endif

#endif
