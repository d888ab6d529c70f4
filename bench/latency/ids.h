/* Marker ids of the interrupt-latency firmware (latency.c); crates/bench/src/latency/events.rs
 * decodes the same values. */
#ifndef LATENCY_IDS_H
#define LATENCY_IDS_H

#define LID_CAL_FIRST 0x300u /* calibration: two marker stores back to back */
#define LID_CAL_SECOND 0x301u
#define LID_START 0x302u     /* every task is running its loop: samples count from here */
#define LID_SLEEP 0x310u     /* the waker, right before its cactus_sleep(1) (the jalr) */
#define LID_WOKE 0x311u      /* the waker, the second instruction after cactus_sleep returns */
#define LID_DONE 0x3FFu      /* value: wake-ups requested */

#endif
