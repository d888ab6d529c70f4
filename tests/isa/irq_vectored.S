/* mtvec modes. Vectored (mode 1): interrupts jump to BASE + 4 * cause
 * (software interrupt -> BASE + 12, timer -> BASE + 28) and synchronous
 * exceptions to BASE; mtvec reads back as BASE | 1. Direct (mode 0): both
 * interrupts and exceptions go to BASE. Each handler records which entry ran
 * and the cause; the checks look only at which entry ran and in what order. */
#include "asm_test.h"

#define CLINT_MSIP      0x02000000
#define CLINT_MTIMECMP  0x02004000
#define MIE_MSIE        (1 << 3)
#define MIE_MTIE        (1 << 7)

    .data
    .balign 4
entry_log:              /* entry_log[i] = tag of the i-th handler entry */
    .space 64
entry_count:
    .word 0
cause_log:
    .space 64
save_area:
    .space 12

    .text
    .option push
    .option norvc
    .option norelax
/* Vector table: one 4-byte jump per cause; 256-byte aligned. */
    .balign 256
vtable:
    j vec_exception     /* 0: exceptions */
    j vec_bad           /* 1 */
    j vec_bad           /* 2 */
    j vec_msi           /* 3: machine software */
    j vec_bad           /* 4 */
    j vec_bad           /* 5 */
    j vec_bad           /* 6 */
    j vec_mti           /* 7: machine timer */
    j vec_bad           /* 8 */
    j vec_bad           /* 9 */
    j vec_bad           /* 10 */
    j vec_bad           /* 11: machine external */
    .option pop

/* log_entry: appends tag (in t6) and mcause to the logs; uses t4, t5 only. */
#define LOG_ENTRY(tag)        \
    li t6, tag;               \
    la t4, entry_count;       \
    lw t5, 0(t4);             \
    addi t5, t5, 1;           \
    sw t5, 0(t4);             \
    addi t5, t5, -1;          \
    slli t5, t5, 2;           \
    la t4, entry_log;         \
    add t4, t4, t5;           \
    sw t6, 0(t4);             \
    la t4, cause_log;         \
    add t4, t4, t5;           \
    csrr t6, mcause;          \
    sw t6, 0(t4)

/* Handlers use only t4, t5, t6 and restore them before mret (via mscratch
 * and a save area), so an interrupt can land anywhere. */
#define SAVE_T                \
    csrw mscratch, t4;        \
    la t4, save_area;         \
    sw t5, 0(t4);             \
    sw t6, 4(t4);             \
    csrr t5, mscratch;        \
    sw t5, 8(t4)
#define RESTORE_T_MRET        \
    la t4, save_area;         \
    lw t5, 0(t4);             \
    lw t6, 4(t4);             \
    lw t4, 8(t4);             \
    mret
vec_exception:
    SAVE_T
    LOG_ENTRY(1)
    csrr t4, mepc
    addi t4, t4, 4
    csrw mepc, t4
    RESTORE_T_MRET
vec_msi:
    SAVE_T
    LOG_ENTRY(3)
    li t4, CLINT_MSIP
    sw zero, 0(t4)
    RESTORE_T_MRET
vec_mti:
    SAVE_T
    LOG_ENTRY(7)
    li t4, CLINT_MTIMECMP
    li t5, -1
    sw t5, 4(t4)
    sw t5, 0(t4)
    RESTORE_T_MRET
vec_bad:
    SAVE_T
    LOG_ENTRY(99)
    RESTORE_T_MRET

/* Direct mode: one handler for everything; it dispatches on mcause. */
    .balign 4
direct_handler:
    SAVE_T
    LOG_ENTRY(50)
    csrr t4, mcause
    bltz t4, 1f
    csrr t4, mepc       /* exception: skip the 4-byte ecall */
    addi t4, t4, 4
    csrw mepc, t4
    RESTORE_T_MRET
1:  slli t4, t4, 1
    srli t4, t4, 1
    li t5, 3
    bne t4, t5, 2f
    li t4, CLINT_MSIP
    sw zero, 0(t4)
    RESTORE_T_MRET
2:  li t4, CLINT_MTIMECMP
    li t5, -1
    sw t5, 4(t4)
    sw t5, 0(t4)
    RESTORE_T_MRET

/* Waits (bounded) until entry_count reaches n (in a0); clobbers t0, t1. */
wait_count:
    li t0, 10000000
1:  la t1, entry_count
    lw t1, 0(t1)
    bgeu t1, a0, 2f
    addi t0, t0, -1
    bnez t0, 1b
2:  ret

#define LOGGED(i, tag, cause, id)  \
    la s0, entry_log;              \
    lw s1, 4*(i)(s0);              \
    CHECK_REG(id, s1, tag);        \
    la s0, cause_log;              \
    lw s1, 4*(i)(s0);              \
    CHECK_REG(id + 1, s1, cause)

TEST_MAIN_BEGIN
    csrci mstatus, 8
    csrw mie, zero
    li t0, CLINT_MTIMECMP          /* timer far in the future */
    li t1, -1
    sw t1, 4(t0)
    sw t1, 0(t0)

    /* vectored mode: mtvec reads back base | 1 */
    la s2, vtable
    ori t0, s2, 1
    csrw mtvec, t0
    csrr s3, mtvec
    ori t0, s2, 1
    CHECK_REGS(1, s3, t0)

    /* exception -> entry 0 */
    ecall
    li a0, 1
    call wait_count
    LOGGED(0, 1, 11, 10)

    /* software interrupt -> entry 3 */
    li t0, MIE_MSIE
    csrw mie, t0
    csrsi mstatus, 8
    li t0, CLINT_MSIP
    li t1, 1
    sw t1, 0(t0)
    li a0, 2
    call wait_count
    LOGGED(1, 3, 0x80000003, 20)

    /* timer interrupt -> entry 7 */
    li t0, MIE_MTIE
    csrw mie, t0
    li t0, CLINT_MTIMECMP
    sw zero, 0(t0)
    sw zero, 4(t0)
    li a0, 3
    call wait_count
    LOGGED(2, 7, 0x80000007, 30)
    csrci mstatus, 8

    /* direct mode: everything goes to the one handler */
    la t0, direct_handler
    csrw mtvec, t0
    csrr s3, mtvec
    la t0, direct_handler
    CHECK_REGS(40, s3, t0)
    ecall
    li t0, MIE_MSIE | MIE_MTIE
    csrw mie, t0
    csrsi mstatus, 8
    li t0, CLINT_MSIP
    li t1, 1
    sw t1, 0(t0)
    li a0, 5
    call wait_count
    li t0, CLINT_MTIMECMP
    sw zero, 0(t0)
    sw zero, 4(t0)
    li a0, 6
    call wait_count
    csrci mstatus, 8
    LOGGED(3, 50, 11, 50)
    LOGGED(4, 50, 0x80000003, 52)
    LOGGED(5, 50, 0x80000007, 54)
    la s0, entry_count
    lw s1, 0(s0)
    CHECK_REG(60, s1, 6)

    csrw mie, zero
    la t0, rt_trap_entry
    csrw mtvec, t0
TEST_MAIN_END("irq_vectored")
