/* Marker ids of the kernel benchmark firmware; crates/bench/src/kernel/mod.rs decodes the same
 * values. A switch marker id is KIND | task << 1 | (0 before the call, 1 after it returns). */
#ifndef BENCH_IDS_H
#define BENCH_IDS_H

#define BID_CAL_FIRST 0x100u  /* calibration: two marker stores back to back */
#define BID_CAL_SECOND 0x101u
#define BID_YIELD 0x110u      /* cactus_yield, two tasks at one priority */
#define BID_BLOCK 0x120u      /* cactus_sem_take that blocks; the other task resumes from its take */
#define BID_TIMER 0x130u      /* cactus_sleep(1); the tick wakes the task while a low task spins */
#define BID_TICK_CYCLES 0x140u /* value: cycles of one spin-loop iteration a tick interrupted */
#define BID_TICK_INSNS 0x141u  /* value: instructions of the same iteration */
#define BID_SPIN_CYCLES 0x142u /* value: cycles of an uninterrupted iteration (the least seen) */
#define BID_SPIN_INSNS 0x143u  /* value: its instructions */
/* irq_bench.c: values in cycles, computed by the firmware from mcycle reads */
#define BID_ISR_ENTRY 0x150u   /* value: msip raised -> first instruction of the user's handler */
#define BID_ISR_WAKE 0x151u    /* value: handler's give -> first instruction of the woken task */
#define BID_ISR_CAL 0x152u     /* value: cycles of the csrr + sw pair that raises the interrupt */
#define BID_TCB_SIZE 0x1F0u   /* value: sizeof(struct k_tcb) */
#define BID_CTX_SIZE 0x1F1u   /* value: sizeof(struct port_context) */
#define BID_MAX_TASKS 0x1F2u  /* value: CACTUS_MAX_TASKS */
#define BID_STACK_YIELD 0x1F3u  /* value: stack high-water bytes of yield task 0 after its yields */
#define BID_STACK_SPIN 0x1F4u   /* value: stack high-water bytes of the spinner (preempted by every tick) */
#define BID_DONE 0x1FFu       /* value: samples requested per kind */

#define BID_CALL(kind, task) ((kind) | (uint32_t)(task) << 1)
#define BID_BACK(kind, task) ((kind) | (uint32_t)(task) << 1 | 1u)

#endif
