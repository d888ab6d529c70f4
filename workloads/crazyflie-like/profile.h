/* profile.h: Table 1 of the segmented-stack paper (Crazyflie core tasks under FreeRTOS):
 * period, min/max stack usage (static analysis of the firmware's disassembly), share of time
 * asleep while hovering, and the FreeRTOS-allocated stack. For the later manifests of the
 * memory-efficiency scenario. A period of 0 means event-driven (the paper's "infinite"). */
#ifndef CF_PROFILE_H
#define CF_PROFILE_H

#include <stdint.h>

/** One task's row of Table 1. */
typedef struct {
    const char *name;          /* our program name */
    uint32_t period_us;        /* activation period; 0 = event-driven */
    uint32_t min_stack_bytes;  /* context carried across every sleep */
    uint32_t max_stack_bytes;  /* deepest feasible path */
    uint32_t sleep_permille;   /* time blocked, per mille */
    uint32_t alloc_stack_bytes; /* FreeRTOS static stack size */
} cf_task_profile_t;

#define CF_STABILIZER_PERIOD_US 1000u
#define CF_STABILIZER_MIN_STACK 8u
#define CF_STABILIZER_MAX_STACK 384u
#define CF_STABILIZER_SLEEP_PERMILLE 959u
#define CF_STABILIZER_ALLOC_STACK 3600u

#define CF_SENSORS_PERIOD_US 1000u
#define CF_SENSORS_MIN_STACK 88u
#define CF_SENSORS_MAX_STACK 420u
#define CF_SENSORS_SLEEP_PERMILLE 469u
#define CF_SENSORS_ALLOC_STACK 2400u

#define CF_CRTP_RX_PERIOD_US 3500u
#define CF_CRTP_RX_MIN_STACK 36u
#define CF_CRTP_RX_MAX_STACK 168u
#define CF_CRTP_RX_SLEEP_PERMILLE 992u
#define CF_CRTP_RX_ALLOC_STACK 2400u

#define CF_CRTP_TX_PERIOD_US 0u
#define CF_CRTP_TX_MIN_STACK 36u
#define CF_CRTP_TX_MAX_STACK 104u
#define CF_CRTP_TX_SLEEP_PERMILLE 1000u
#define CF_CRTP_TX_ALLOC_STACK 1200u

/** Number of tasks in Table 1. */
#define CF_TASKS 4

/** Table 1 in task order: stabilizer, sensors, crtp_rx, crtp_tx (defined in profile.c). */
extern const cf_task_profile_t cf_profile[CF_TASKS];

#endif
