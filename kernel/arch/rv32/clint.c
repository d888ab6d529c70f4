/* CLINT machine timer (QEMU virt map, also the cactus-sim default machine): mtime at 0xBFF8,
 * hart 0's mtimecmp at 0x4000, 10 MHz. */
#include "port.h"

#define CLINT_BASE 0x02000000u
#define CLINT_MTIMECMP (CLINT_BASE + 0x4000u)
#define CLINT_MTIME (CLINT_BASE + 0xBFF8u)

static inline volatile uint32_t *reg32(uint32_t addr)
{
    return (volatile uint32_t *)(uintptr_t)addr;
}

uint64_t port_time(void)
{
    uint32_t hi, lo;
    do {
        hi = *reg32(CLINT_MTIME + 4);
        lo = *reg32(CLINT_MTIME);
    } while (hi != *reg32(CLINT_MTIME + 4));
    return ((uint64_t)hi << 32) | lo;
}

void port_timer_set(uint64_t deadline)
{
    /* Never let the compare value pass below the old one halfway through the update. */
    *reg32(CLINT_MTIMECMP) = 0xFFFFFFFFu;
    *reg32(CLINT_MTIMECMP + 4) = (uint32_t)(deadline >> 32);
    *reg32(CLINT_MTIMECMP) = (uint32_t)deadline;
}

void port_timer_enable(void)
{
    __asm__ volatile("csrs mie, %0" ::"r"(1u << 7));
}

void port_timer_set_low(uint32_t low)
{
    *reg32(CLINT_MTIMECMP) = low;
}
