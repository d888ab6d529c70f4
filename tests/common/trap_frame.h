/* Layout of the register frame the common trap entry (crt0.S) builds on the
 * trap stack. Shared by crt0.S and rt.h so the offsets are defined once.
 *
 * Frame: x0..x31 at 4*N (x0's slot holds 0, x2's slot holds the interrupted
 * sp), then mepc, mcause, mtval, mstatus. The handler may change any slot;
 * the entry restores x1..x31, mepc and mstatus from the frame before mret.
 */
#ifndef CACTUS_TESTS_TRAP_FRAME_H
#define CACTUS_TESTS_TRAP_FRAME_H

#define TF_REG(n)   ((n) * 4)
#define TF_MEPC     (32 * 4)
#define TF_MCAUSE   (33 * 4)
#define TF_MTVAL    (34 * 4)
#define TF_MSTATUS  (35 * 4)
#define TF_SIZE     (36 * 4) /* 144: a multiple of 16 keeps sp aligned */

/* The runtime's stack descriptors (struct rt_stack_desc in rt.h): word 0 is
 * the check limit (docs/stack-checks.md), word 1 a scratch word where the trap
 * entry parks t0 before it has a stack. */
#define RT_DESC_SCRATCH (-8)
#define RT_TP_OFFSET 8

#endif
