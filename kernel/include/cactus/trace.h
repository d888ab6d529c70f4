/* Cactus trace device: the simulation-only event port (docs/trace-device.md).
 *
 * Guarantees: every function is a handful of word stores to the device window; nothing here
 * touches memory outside it. Firmware built for QEMU must not call these (the window is not
 * decoded there); the kernel selects a no-op implementation at link level for such builds. */
#ifndef CACTUS_TRACE_H
#define CACTUS_TRACE_H

#include <stdint.h>

#define CACTUS_TRACE_BASE 0x0E000000u
#define CACTUS_TRACE_NOBODY 0xFFFFFFFFu

enum cactus_trace_reg {
    CACTUS_TRACE_ID = 0x00,
    CACTUS_TRACE_VERSION = 0x04,
    CACTUS_TRACE_ARG0 = 0x10,
    CACTUS_TRACE_ARG1 = 0x14,
    CACTUS_TRACE_ARG2 = 0x18,
    CACTUS_TRACE_ARG3 = 0x1C,
    CACTUS_TRACE_EVENT = 0x20,
    CACTUS_TRACE_CYCLE_LO = 0x24,
    CACTUS_TRACE_CYCLE_HI = 0x28,
    CACTUS_TRACE_VIOLATIONS = 0x2C,
};

enum cactus_trace_event {
    CACTUS_EV_TASK_CREATE = 1,
    CACTUS_EV_TASK_SWITCH = 2,
    CACTUS_EV_TASK_EXIT = 3,
    CACTUS_EV_REGION_ASSIGN = 4,
    CACTUS_EV_REGION_RELEASE = 5,
    CACTUS_EV_REGION_LEND = 6,
    CACTUS_EV_STACK_HWM = 7,
    CACTUS_EV_OVERFLOW = 8,
    CACTUS_EV_MARKER = 9,
    CACTUS_EV_KERNEL_ENTER = 10,
    CACTUS_EV_KERNEL_LEAVE = 11,
    CACTUS_EV_ISR_ENTER = 12,
    CACTUS_EV_ISR_LEAVE = 13,
};

static inline void cactus_trace_write(uint32_t reg, uint32_t value)
{
    *(volatile uint32_t *)(CACTUS_TRACE_BASE + reg) = value;
}

static inline uint32_t cactus_trace_read(uint32_t reg)
{
    return *(volatile uint32_t *)(CACTUS_TRACE_BASE + reg);
}

/* Commits event `code` with four arguments. */
static inline void cactus_trace_event4(uint32_t code, uint32_t a0, uint32_t a1, uint32_t a2,
                                       uint32_t a3)
{
    cactus_trace_write(CACTUS_TRACE_ARG0, a0);
    cactus_trace_write(CACTUS_TRACE_ARG1, a1);
    cactus_trace_write(CACTUS_TRACE_ARG2, a2);
    cactus_trace_write(CACTUS_TRACE_ARG3, a3);
    cactus_trace_write(CACTUS_TRACE_EVENT, code);
}

static inline void cactus_trace_task_create(uint32_t id, uint32_t prio, const char *name)
{
    cactus_trace_event4(CACTUS_EV_TASK_CREATE, id, prio, (uint32_t)(uintptr_t)name, 0);
}

static inline void cactus_trace_task_switch(uint32_t id)
{
    cactus_trace_write(CACTUS_TRACE_ARG0, id);
    cactus_trace_write(CACTUS_TRACE_EVENT, CACTUS_EV_TASK_SWITCH);
}

static inline void cactus_trace_task_exit(uint32_t id, uint32_t reason)
{
    cactus_trace_event4(CACTUS_EV_TASK_EXIT, id, reason, 0, 0);
}

static inline void cactus_trace_region_assign(uint32_t base, uint32_t size, uint32_t owner)
{
    cactus_trace_event4(CACTUS_EV_REGION_ASSIGN, base, size, owner, 0);
}

static inline void cactus_trace_region_release(uint32_t base, uint32_t size)
{
    cactus_trace_event4(CACTUS_EV_REGION_RELEASE, base, size, 0, 0);
}

static inline void cactus_trace_region_lend(uint32_t base, uint32_t size, uint32_t lender,
                                            uint32_t borrower)
{
    cactus_trace_event4(CACTUS_EV_REGION_LEND, base, size, lender, borrower);
}

static inline void cactus_trace_stack_hwm(uint32_t id, uint32_t used, uint32_t budget)
{
    cactus_trace_event4(CACTUS_EV_STACK_HWM, id, used, budget, 0);
}

static inline void cactus_trace_overflow(uint32_t id, uint32_t sp, uint32_t requested,
                                         uint32_t action)
{
    cactus_trace_event4(CACTUS_EV_OVERFLOW, id, sp, requested, action);
}

static inline void cactus_trace_marker(uint32_t id, uint32_t value)
{
    cactus_trace_event4(CACTUS_EV_MARKER, id, value, 0, 0);
}

static inline void cactus_trace_kernel_enter(void)
{
    cactus_trace_write(CACTUS_TRACE_EVENT, CACTUS_EV_KERNEL_ENTER);
}

static inline void cactus_trace_kernel_leave(void)
{
    cactus_trace_write(CACTUS_TRACE_EVENT, CACTUS_EV_KERNEL_LEAVE);
}
/* An interrupt handler for `source` starts / returned: the oracle checks its stores, and it
 * owns no stack byte (docs/trace-device.md). */
static inline void cactus_trace_isr_enter(uint32_t source)
{
    cactus_trace_write(CACTUS_TRACE_ARG0, source);
    cactus_trace_write(CACTUS_TRACE_EVENT, CACTUS_EV_ISR_ENTER);
}
static inline void cactus_trace_isr_leave(void)
{
    cactus_trace_write(CACTUS_TRACE_EVENT, CACTUS_EV_ISR_LEAVE);
}

static inline uint32_t cactus_trace_violations(void)
{
    return cactus_trace_read(CACTUS_TRACE_VIOLATIONS);
}

#endif /* CACTUS_TRACE_H */
