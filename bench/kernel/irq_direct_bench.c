/* Interrupt benchmark firmware with a direct handler (cactus-sim only; `cactus bench kernel`
 * runs it beside irq_bench.c, docs/interrupts.md "Direct handlers").
 *
 * The same tasks, raise and calibration as irq_bench.c (irq_common.h); the software
 * interrupt's handler is a direct one: an interrupt function bound to the vector at link time
 * (what CACTUS_DIRECT_ISR_SOFTWARE defines), written here in assembly so that its first
 * instruction is the mcycle read. It reads mcycle into tp (the kernel's stack descriptor, which
 * it then recomputes, so no register of the interrupted task is lost), saves what the C body
 * may clobber on the interrupt stack as a compiled interrupt function does, stamps the entry,
 * calls the same body (the semaphore give) and returns with mret. Reports:
 *   isr_entry: pending (the msip store done) -> the direct handler's first instruction;
 *   isr_wake:  the body's give -> the woken task's first instruction after its take.
 * The first sample (cold) is not reported. */
#include "irq_common.h"
#include "port.h"

#define IRQB_STR2(x) #x
#define CACTUS_STR(x) IRQB_STR2(x)

__asm__(".section .text.irqb_direct, \"ax\"\n"
        ".globl cactus_direct_isr_software\n"
        "cactus_direct_isr_software:\n"
        "    csrr tp, mcycle\n"
        "    addi sp, sp, -64\n"
        "    sw ra, 60(sp)\n    sw t0, 56(sp)\n    sw t1, 52(sp)\n    sw t2, 48(sp)\n"
        "    sw a0, 44(sp)\n    sw a1, 40(sp)\n    sw a2, 36(sp)\n    sw a3, 32(sp)\n"
        "    sw a4, 28(sp)\n    sw a5, 24(sp)\n    sw a6, 20(sp)\n    sw a7, 16(sp)\n"
        "    sw t3, 12(sp)\n    sw t4, 8(sp)\n    sw t5, 4(sp)\n    sw t6, 0(sp)\n"
        "    lui t0, %hi(irqb_entry_stamp)\n"
        "    sw tp, %lo(irqb_entry_stamp)(t0)\n"
        "    la tp, port_kernel + " CACTUS_STR(PORT_TP) "\n"
        "    li a0, 0\n"
        "    call irqb_body\n"
        "    lw ra, 60(sp)\n    lw t0, 56(sp)\n    lw t1, 52(sp)\n    lw t2, 48(sp)\n"
        "    lw a0, 44(sp)\n    lw a1, 40(sp)\n    lw a2, 36(sp)\n    lw a3, 32(sp)\n"
        "    lw a4, 28(sp)\n    lw a5, 24(sp)\n    lw a6, 20(sp)\n    lw a7, 16(sp)\n"
        "    lw t3, 12(sp)\n    lw t4, 8(sp)\n    lw t5, 4(sp)\n    lw t6, 0(sp)\n"
        "    addi sp, sp, 64\n"
        "    mret\n"
        ".previous\n");

static void irqb_attach(void)
{
    cactus_irq_attach_direct_software("irqb_direct");
}
