/* The device-interrupt hardware of QEMU virt (also cactus-sim's default machine), for hart 0
 * in M-mode: the PLIC's context 0 and the CLINT's msip. Included by port.h; the dispatch path
 * (core/irq.c) uses these inline, one device access each. */
#ifndef CACTUS_PLIC_H
#define CACTUS_PLIC_H

#define PORT_PLIC_BASE 0x0c000000
#define PORT_PLIC_PENDING (PORT_PLIC_BASE + 0x1000)
#define PORT_PLIC_ENABLE (PORT_PLIC_BASE + 0x2000)     /* context 0 */
#define PORT_PLIC_THRESHOLD (PORT_PLIC_BASE + 0x200000) /* context 0 */
#define PORT_PLIC_CLAIM (PORT_PLIC_BASE + 0x200004)     /* context 0 */
#define PORT_CLINT_MSIP 0x02000000

/* Highest PLIC source id the kernel accepts (QEMU virt: UART0 = 10, RTC = 11, virtio 1-8),
 * and the highest priority (the PLIC's priority registers hold 3 bits on virt). */
#define PORT_IRQ_SOURCES 32
#define PORT_IRQ_PRIO_MAX 7

#define MIE_MSIE (1 << 3)
#define MIE_MTIE (1 << 7)
#define MIE_MEIE (1 << 11)

#ifndef __ASSEMBLER__
#include <stdint.h>

static inline volatile uint32_t *port_reg(uint32_t addr)
{
    return (volatile uint32_t *)(uintptr_t)addr;
}

/* Claims the highest-priority pending source above the threshold (0 = none). */
static inline uint32_t port_irq_claim(void)
{
    return *port_reg(PORT_PLIC_CLAIM);
}
/* Ends the service of a claimed source: the PLIC may signal it again. */
static inline void port_irq_complete(uint32_t source)
{
    *port_reg(PORT_PLIC_CLAIM) = source;
}
/* Sets the priority threshold (only sources above it interrupt); returns the previous one. */
static inline uint32_t port_irq_threshold(uint32_t level)
{
    uint32_t old = *port_reg(PORT_PLIC_THRESHOLD);
    *port_reg(PORT_PLIC_THRESHOLD) = level;
    return old;
}
static inline uint32_t port_irq_priority(uint32_t source)
{
    return *port_reg(PORT_PLIC_BASE + 4u * source);
}
/* Raises / lowers the machine software interrupt of hart 0. */
static inline void port_swi_raise(void)
{
    *port_reg(PORT_CLINT_MSIP) = 1;
}
static inline void port_swi_clear(void)
{
    *port_reg(PORT_CLINT_MSIP) = 0;
}
/* Masks the timer and software interrupts while a handler runs (device interrupts above the
 * threshold still nest); returns the previous mie for port_irq_unmask_local. */
static inline uint32_t port_irq_mask_local(void)
{
    uint32_t old;
    __asm__ volatile("csrrc %0, mie, %1" : "=r"(old) : "r"(MIE_MSIE | MIE_MTIE) : "memory");
    return old;
}
static inline void port_irq_unmask_local(uint32_t mie)
{
    __asm__ volatile("csrs mie, %0" ::"r"(mie & (MIE_MSIE | MIE_MTIE)) : "memory");
}
static inline void port_irq_enable_global(void)
{
    __asm__ volatile("csrsi mstatus, 8" ::: "memory");
}
static inline void port_irq_disable_global(void)
{
    __asm__ volatile("csrci mstatus, 8" ::: "memory");
}
/* Routes `source` (1 .. PORT_IRQ_SOURCES-1) to hart 0 at `priority` (1 .. PORT_IRQ_PRIO_MAX)
 * and enables machine external interrupts; source 0 enables the software interrupt. In
 * irq.S: calling it links the device-interrupt entry. */
void port_irq_route(uint32_t source, uint32_t priority);
/* Direct handlers (irq_direct.S): the software interrupt's direct entry becomes its vector
 * (mtvec = port_vectors_direct) and the interrupt is enabled; and the handler run as a call
 * (the idle loop's way, interrupts masked; clobbers nothing C cares about). */
void port_irq_direct_route(void);
void port_direct_isr_call(uint32_t source);
/* Pending machine software or external interrupts (mip & mie, without the timer). */
static inline uint32_t port_irq_pending_devices(void)
{
    uint32_t mip, mie;
    __asm__ volatile("csrr %0, mip" : "=r"(mip));
    __asm__ volatile("csrr %0, mie" : "=r"(mie));
    return mip & mie & (MIE_MSIE | MIE_MEIE);
}

#endif /* __ASSEMBLER__ */

#endif
