/* The hardware stack bound (cactus-sim's `mstackbound` extension, docs/simulator-design.md;
 * docs/segmented.md "The hardware stack bound"), for the assembly paths that move between a
 * task and the kernel. A kernel built with CACTUS_STACK_BOUND=1 keeps the CSR equal to the
 * limit of the stack sp is on: every path that switches sp to the kernel stack first sets the
 * bound to the kernel's limit, and every path that resumes a task sets it to the task's limit
 * before it loads the task's sp. The hardware then traps (mcause 24) at the first instruction
 * that would move sp below the limit, so a stack check needs no instruction at all
 * (`cactus cc --stack-bound`). Without CACTUS_STACK_BOUND the macros expand to nothing and the
 * kernel runs on cores without the CSR. Assembly only. */
#ifndef CACTUS_BOUND_H
#define CACTUS_BOUND_H

#ifndef CACTUS_STACK_BOUND
#define CACTUS_STACK_BOUND 0
#endif

#define CSR_MSTACKBOUND 0x7C8
#define MCAUSE_STACK_BOUND 24

#ifdef __ASSEMBLER__
/* mstackbound = the limit word of the stack descriptor at \off(\base) (clobbers \r). The
 * descriptor of context c is at c + PORT_TP - 4 and the running code's at tp - 4. */
.macro STACK_BOUND_FROM r, off, base
.if CACTUS_STACK_BOUND
    lw \r, \off(\base)
    csrw CSR_MSTACKBOUND, \r
.endif
.endm

/* mstackbound = 0 (disarmed): a path that uses sp as a scratch register first (irq_direct.S),
 * since an armed bound refuses any write of sp below it. */
.macro STACK_BOUND_OFF
.if CACTUS_STACK_BOUND
    csrw CSR_MSTACKBOUND, zero
.endif
.endm
#endif

#endif
