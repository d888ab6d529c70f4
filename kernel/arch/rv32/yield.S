/* cactus_yield (port_yield): the voluntary yield, for RV32 M-mode (docs/kernel.md "The yield's
 * assembly path"). Assembled once per kernel library, with the library's configuration:
 *   - CACTUS_YIELD_STATIC=1 (the `static` strategy, kernel/Makefile and crates/firmware set it):
 *     the common case, a task handing over to the next task of its own level, runs here in
 *     assembly on no stack at all: the caller's ra, sp and s0-s11 stored, the strategy's
 *     switch-time check (the saved sp against the limit, the canary below the limit), the
 *     level rotated, the next task published and its voluntary context loaded; no kernel
 *     stack and no C call. It is k_yield (core/sched.c) step for step, with the same checks and
 *     the same bookkeeping (CACTUS_SWITCH_STATS: the switch counter; CACTUS_TRACE_SIM: the
 *     trace device's task-switch event). Everything else (a failed check, a context to resume
 *     that was preempted) takes the general path below or the full restore.
 *   - otherwise (another strategy, whose check is its own C code; the isolate pass, whose
 *     windows follow every switch; the stack window; the rmcs switch mode): the general path, the caller's state
 *     stored and k_yield called on the kernel stack.
 * Offsets come from port.h (checked in port.c and core/k.h).
 *
 * NOTE: the yield is measured instruction by instruction (`cactus bench kernel`): keep the fast
 * path straight-line. */
#include "port.h"
#include "bound.h"
#include "window.h"
#include "entry.h"

#ifndef CACTUS_YIELD_STATIC
#define CACTUS_YIELD_STATIC 0
#endif
#ifndef CACTUS_TRACE_SIM
#define CACTUS_TRACE_SIM 0
#endif
#ifndef CACTUS_ISOLATE
#define CACTUS_ISOLATE 0
#endif
#ifndef CACTUS_SWITCH_CHECK
#define CACTUS_SWITCH_CHECK 1
#endif
#ifndef CACTUS_SWITCH_STATS
#define CACTUS_SWITCH_STATS 1
#endif
/* A switch mode that maps registers per task (kernel.switch = "rmcs", CACTUS_SWITCH_RMCS) hooks
 * the resume paths of switch.S and trap.S: its yields take the general path, which resumes
 * through port_resume. */
#ifndef CACTUS_SWITCH_RMCS
#define CACTUS_SWITCH_RMCS 0
#endif
#define YIELD_FAST (CACTUS_YIELD_STATIC && !CACTUS_ISOLATE && !CACTUS_STACK_WINDOW && \
                    !CACTUS_SWITCH_RMCS)
#if PORT_LINK != PORT_TP
#error "yield.S takes a task's ready-list node for its tp"
#endif

/* Context slot of register n relative to tp (the running task's context is tp - PORT_TP). */
#define TP_X(n) (CTX_X(n) - PORT_TP)
#define SAVEA(r, n) sw r, CTX_X(n)(a0)
#define SAVETP(r, n) sw r, TP_X(n)(tp)
#define LOADTP(r, n) lw r, TP_X(n)(tp)

    .section .text.port_yield, "ax"
    .globl port_yield
    .globl cactus_yield
port_yield:
cactus_yield:
    csrci mstatus, MSTATUS_MIE
#if YIELD_FAST
    /* A task's ready-list node is where its tp points (PORT_LINK == PORT_TP, checked below):
     * the next node of the caller's level is the next task's tp. */
    lw t3, PORT_LINK - PORT_TP(tp)  /* t3 = the next node of the caller's level */
    beq t3, tp, 8f                  /* it is the caller's own: alone at its level, nothing to do */
    sw ra, CTX_RA - PORT_TP(tp)
    sw sp, CTX_SP - PORT_TP(tp)
    SAVETP(s0, 8)
    SAVETP(s1, 9)
    SAVETP(s2, 18)
    SAVETP(s3, 19)
    SAVETP(s4, 20)
    SAVETP(s5, 21)
    SAVETP(s6, 22)
    SAVETP(s7, 23)
    SAVETP(s8, 24)
    SAVETP(s9, 25)
    SAVETP(s10, 26)
    SAVETP(s11, 27)                 /* CTX_PC is already 0: the task is running */
#if CACTUS_SWITCH_CHECK
    /* The static strategy's switch-time check (stack/static.c, stack_check_switch): sp (the
     * value just saved) not below the limit, the canary right below the limit intact. A
     * failure is the general path's: k_yield finds it again and applies the fault policy. */
    lw t1, -4(tp)                   /* the limit */
    bltu sp, t1, 7f
    lw t2, -4(t1)                   /* the canary: its own address + 4, i.e. the limit */
    bne t2, t1, 7f
#endif
    lbu t1, PORT_PRIO - PORT_TP(tp)
    slli t1, t1, 2
    lla t2, k_ready + PORT_READY_HEAD
    add t1, t1, t2
    sw t3, 0(t1)                    /* the level's head = the next node: rotated */
    addi t4, t3, -PORT_TP           /* the next task's context */
    sw t4, port_current, t1
    sw zero, k_slice_used, t1       /* a fresh slice */
#if CACTUS_SWITCH_STATS
    lw t1, k_switches
    addi t1, t1, 1
    sw t1, k_switches, t2
#endif
#if CACTUS_TRACE_SIM
    /* ktrace_task_switch: the id is the TCB's index, (TCB - k_tasks) / 160, an exact division
     * (by 32, then by 5 through its inverse mod 2^32; trace_sim.c checks the TCB size). */
    lla t1, k_tasks
    sub t1, t4, t1
    srli t1, t1, 5
    li t2, 0xCCCCCCCD
    mul t1, t1, t2
    li t2, PORT_TRACE_BASE
    sw t1, PORT_TRACE_ARG0(t2)
    li t1, PORT_TRACE_EV_TASK_SWITCH
    sw t1, PORT_TRACE_EVENT(t2)
#endif
    /* Resume the next task's context (port_resume, inline, tp-relative). */
    mv tp, t3                       /* the task's stack descriptor */
    lw t0, CTX_PC - PORT_TP(tp)
    bnez t0, 6f
    lw ra, CTX_RA - PORT_TP(tp)
    STACK_BOUND_FROM t0, -4, tp
    lw sp, CTX_SP - PORT_TP(tp)
    LOADTP(s0, 8)
    LOADTP(s1, 9)
    LOADTP(s2, 18)
    LOADTP(s3, 19)
    LOADTP(s4, 20)
    LOADTP(s5, 21)
    LOADTP(s6, 22)
    LOADTP(s7, 23)
    LOADTP(s8, 24)
    LOADTP(s9, 25)
    LOADTP(s10, 26)
    LOADTP(s11, 27)
    LOADTP(a0, 10)                  /* the result of the call the task made */
    csrsi mstatus, MSTATUS_MIE
    ret
6:  mv t6, t4                       /* preempted: the full restore (t6 = context, t0 = pc) */
    j port_resume_full
7:  addi a0, tp, -PORT_TP           /* the check failed: the general path (k_yield) */
    j 1f
8:  csrsi mstatus, MSTATUS_MIE
    ret
#else
    addi a0, tp, -PORT_TP   /* a0 = own context: k_yield's argument */
    sw ra, CTX_RA(a0)
    sw sp, CTX_SP(a0)
    SAVEA(s0, 8)
    SAVEA(s1, 9)
    SAVEA(s2, 18)
    SAVEA(s3, 19)
    SAVEA(s4, 20)
    SAVEA(s5, 21)
    SAVEA(s6, 22)
    SAVEA(s7, 23)
    SAVEA(s8, 24)
    SAVEA(s9, 25)
    SAVEA(s10, 26)
    SAVEA(s11, 27)                  /* CTX_PC is already 0: the task is running */
#endif
    /* The general path: a0 = the caller's context, its callee-saved state stored. */
1:  ENTER_KERNEL_STACK t0
    call k_yield                    /* a0 = the context to resume (port_current) */
    /* Resume context a0 (switch.S's port_resume, inline: no jump after the call). */
    RESUME_VOLUNTARY

/* Stack depth for the static stack analysis (docs/stack-analysis.md): the yield leaves the
 * caller's stack (la sp, port_kstack_top, or lw sp from the next context) before it calls
 * anything and stores nothing below the caller's sp. */
    .pushsection .cactus.stack_depth, "", @progbits
    .asciz "port_yield 0"
    .popsection
