/* Marker ids of the scaling benchmark firmware (scaling.c); crates/bench/src/scaling/events.rs
 * decodes the same values. A sample is a START marker directly followed by its END marker. */
#ifndef SCALING_IDS_H
#define SCALING_IDS_H

#define SID_CAL_FIRST 0x200u   /* calibration: two marker stores back to back */
#define SID_CAL_SECOND 0x201u
#define SID_SWITCH 0x210u      /* cactus_yield: SID_SWITCH | who << 1 | (0 before, 1 after) */
#define SID_REQ_START 0x220u   /* before the call of a frame that does not fit (MTSS request) */
#define SID_REQ_END 0x221u     /* first statement of that frame, in the lender's pages */
#define SID_RET_START 0x230u   /* last statement of the moved frame */
#define SID_RET_END 0x231u     /* the caller, back from the trampoline */
#define SID_HAND_START 0x240u  /* before cactus_sem_give that wakes the higher-priority waiter */
#define SID_HAND_END 0x241u    /* the waiter, back from its cactus_sem_take */
#define SID_GIVE_BACK 0x242u   /* the giver, back from its give (not a sample) */
#define SID_TAKE_CALL 0x243u   /* the waiter, before its take (not a sample) */
#define SID_MOVED 0x2F0u       /* value: measured calls whose frame ran outside the caller's stack */
#define SID_HELD 0x2F1u        /* value: extra tasks blocked inside a moved frame */
#define SID_TASKS 0x2F2u       /* value: FW_NTASKS */
#define SID_DONE 0x2FFu        /* value: samples requested per operation */

#define SID_SWITCH_CALL(who) (SID_SWITCH | (uint32_t)(who) << 1)
#define SID_SWITCH_BACK(who) (SID_SWITCH | (uint32_t)(who) << 1 | 1u)

#endif
