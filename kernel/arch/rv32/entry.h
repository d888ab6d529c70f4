/* The two steps every way into the kernel shares, for the assembly (trap.S, tick.S, switch.S,
 * split.S). Include after port.h, bound.h and window.h. Assembly only. */
#ifndef CACTUS_ENTRY_H
#define CACTUS_ENTRY_H

#ifdef __ASSEMBLER__
/* Unwind information goes where the C code's does: .debug_frame (link.ld discards .eh_frame). */
    .cfi_sections .debug_frame

/* ---- Call frame information through the kernel entries (docs/cli.md, "Backtraces through
 * the kernel"). Every way in from a task (trap entry, tick slow path, device interrupt, kernel
 * call) leaves mscratch = the context the entering code's registers were saved to, so a
 * debugger finds the entering frame there: DWARF register 4928 is mscratch (4096 + 0x340),
 * 4929 mepc. The expressions are DW_OP_bregx 4928 <offset> (0x92, ULEB 4928 = 0xc0 0x26,
 * SLEB offset); an offset of 64 or more is two SLEB bytes. */
#define CFI_SLEB2(n) ((n) & 0x7f) | 0x80, (n) >> 7

/* The entering code's frame is in the context at mscratch: CFA = its sp (*(mscratch + CTX_SP)),
 * ra saved at mscratch + CTX_RA, tp = mscratch + PORT_TP (its stack descriptor). s0-s11 keep
 * their values in every entry (lazy save), which is DWARF's default. */
.macro CFI_ENTERED_FROM_CONTEXT
    .cfi_escape 0x0f, 5, 0x92, 0xc0, 0x26, CTX_SP, 0x06
    .cfi_escape 0x10, 1, 4, 0x92, 0xc0, 0x26, CTX_RA
    .cfi_escape 0x16, 4, 5, 0x92, 0xc0, 0x26, CFI_SLEB2(PORT_TP)
.endm

/* At the first instruction of a trap entry: the interrupted code's pc is mepc (the return
 * column, 4929, holds its own value), its frame is the registers as they are, and the frame is
 * a signal frame (a debugger looks the interrupted function up at pc, not pc - 1). */
.macro CFI_TRAP_START
    .cfi_startproc
    .cfi_signal_frame
    .cfi_return_column 4929
    .cfi_same_value 4929
.endm

/* Once the trap entry has saved the interrupted registers and mepc into the context and set
 * mscratch: as CFI_ENTERED_FROM_CONTEXT, and the interrupted pc is saved at mscratch + CTX_PC. */
.macro CFI_TRAPPED_FROM_CONTEXT
    CFI_ENTERED_FROM_CONTEXT
    .cfi_escape 0x10, 0xc1, 0x26, 5, 0x92, 0xc0, 0x26, CFI_SLEB2(CTX_PC)
.endm

/* Stores what C code may clobber into the context at \base, except t0, t1 and t6, which each
 * entry uses as scratch and saves itself: ra, sp, t2, a0-a7, t3-t5 (15 stores). */
.macro SAVE_C_CLOBBERED base
    sw sp, CTX_SP(\base)
    SAVE_C_CLOBBERED_BUT_SP \base
.endm

/* The same without sp (14 stores): the direct handlers' exit (irq_direct.S) stored it on entry. */
.macro SAVE_C_CLOBBERED_BUT_SP base
    sw ra, CTX_RA(\base)
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

/* The vector table (mtvec = its address | 1, vectored mode): exceptions enter at the base,
 * interrupt n at base + 4n; the machine timer (7) goes straight to its fast path (tick.S), the
 * software interrupt (3) to \swi, the external one (11) to irq.S when a handler is attached,
 * everything else to the general entry (trap.S), which hands it to port_trap (any other
 * interrupt is a fault of the interrupted code). One jump per slot, never compressed, so every
 * slot is 4 bytes. trap.S's port_vectors has \swi = port_irq_entry; irq_direct.S's
 * port_vectors_direct the direct handlers' entry. */
.macro PORT_VECTOR_TABLE swi
    .option push
    .option norvc
    .rept 3
    j port_trap_entry               /* exceptions, interrupts 1-2 */
    .endr
    j \swi                          /* 3: machine software interrupt */
    .rept 3
    j port_trap_entry               /* interrupts 4-6 */
    .endr
    j port_tick_entry               /* 7: machine timer */
    .rept 3
    j port_trap_entry               /* interrupts 8-10 */
    .endr
    j port_irq_entry                /* 11: machine external interrupt (PLIC) */
    .rept 4
    j port_trap_entry               /* interrupts 12-15 */
    .endr
    .option pop
.endm

/* Moves onto the kernel stack so kernel C code can run: tp = the kernel's descriptor (kernel
 * code checks against the kernel stack), the hardware bound (bound.h) set to its limit before
 * sp changes, sp = its top. Clobbers \r. */
.macro ENTER_KERNEL_STACK r
    la tp, port_kernel + PORT_TP
    STACK_BOUND_FROM \r, -4, tp
    la sp, port_kstack_top
.endm

/* Resumes context a0 from kernel code that is not a trap, interrupts masked (switch.S's
 * port_resume, and inline after the yield's call to k_yield): a context saved by a voluntary
 * call (pc 0) gets back ra, sp, s0-s11, its stack bound and window, and its call's result in
 * a0; any other goes through port_resume_full. Clobbers t0 (and t6 on the full path). */
.macro RESUME_VOLUNTARY
    lw t0, CTX_PC(a0)
    bnez t0, 9f
    lw ra, CTX_RA(a0)
    STACK_BOUND_FROM t0, PORT_TP - 4, a0
    STACK_WINDOW_FROM t0, PORT_TP - 4, a0
    lw sp, CTX_SP(a0)
    lw s0, CTX_X(8)(a0)
    lw s1, CTX_X(9)(a0)
    lw s2, CTX_X(18)(a0)
    lw s3, CTX_X(19)(a0)
    lw s4, CTX_X(20)(a0)
    lw s5, CTX_X(21)(a0)
    lw s6, CTX_X(22)(a0)
    lw s7, CTX_X(23)(a0)
    lw s8, CTX_X(24)(a0)
    lw s9, CTX_X(25)(a0)
    lw s10, CTX_X(26)(a0)
    lw s11, CTX_X(27)(a0)
    addi tp, a0, PORT_TP            /* the task's stack descriptor */
    lw a0, CTX_X(10)(a0)            /* the result of the call the task made; base register last */
    csrsi mstatus, MSTATUS_MIE
    ret
9:  mv t6, a0
    j port_resume_full
.endm

/* The exit of a kernel entry that called C with the interrupted code's mstatus at 0(sp)
 * (preempt.S, isolate.S): mret's MPIE is the task's own interrupt enable when it resumes in
 * place, 1 when another task resumes (as after every trap); MPP is machine; then the general
 * exit. Clobbers t0-t2. */
.macro EXIT_KEEPING_MIE
    lw t1, 0(sp)
    andi t1, t1, MSTATUS_MIE
    slli t1, t1, 4                   /* MIE (bit 3) -> MPIE (bit 7) */
    lui t0, %hi(port_current)
    lw t0, %lo(port_current)(t0)
    csrr t2, mscratch
    beq t0, t2, 1f
    li t1, MSTATUS_MPIE
1:  li t0, MSTATUS_MPIE
    csrc mstatus, t0
    li t0, MSTATUS_MPP_M
    or t1, t1, t0
    csrs mstatus, t1
    j port_trap_exit
.endm
#endif

/* The switch strategy, chosen by the kernel's configuration (kernel.switch in the manifest:
 * CACTUS_SWITCH_CCS for ccs-sw, with CACTUS_SWITCH_CCS_HW too for ccs-hw, and CACTUS_SWITCH_RMCS
 * too for rmcs): the hooks the trap
 * paths call (PREEMPT_SAVE, SKIP_LAZY_SAVE, RESUME_PARTIAL, SWITCH_ROUTINES). */
#if CACTUS_SWITCH_RMCS
#include "switch_rmcs.h"
#elif CACTUS_SWITCH_CCS_HW
#include "switch_ccs_hw.h"
#elif CACTUS_SWITCH_CCS
#include "switch_ccs.h"
#else
#include "switch_full.h"
#endif

#endif
