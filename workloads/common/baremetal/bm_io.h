/* bm_io.h: console output on the QEMU virt UART (16550 at 0x10000000), exit through the
 * test finisher (0x00100000), and the trap report. Output is unbuffered and blocking. */
#ifndef BM_IO_H
#define BM_IO_H

#include <stdint.h>
/* The stack-check contract's structures; the relative path keeps the runners' include flags. */
#include "../../../kernel/include/cactus/stackcheck.h"

/** Writes one character. */
void bm_putc(char c);
/** Writes a NUL-terminated string. */
void bm_puts(const char *s);
/** Writes v in decimal. */
void bm_put_dec(uint32_t v);
/** Writes v as 0x followed by 8 hex digits. */
void bm_put_hex(uint32_t v);
/** Ends the run: code 0 = pass (0x5555), otherwise fail ((code << 16) | 0x3333). */
void bm_exit(int code) __attribute__((noreturn));

/** Exit codes of a trap (workloads never trap on purpose). */
#define BM_EXIT_UNEXPECTED_TRAP 100
#define BM_EXIT_STACK_OVERFLOW 101

/** The boot stack's stack-check descriptor (crt0 points tp at it) and the trap stack's. */
extern struct cactus_stack_desc bm_boot_stack, bm_trap_stack;

/** Called by crt0's trap entry on the trap stack with the trap's mcause and mepc and the
 * interrupted sp and tp: reports "stack overflow caught: pc=.. need=.. sp=.. limit=.." for an
 * ecall at a `cactus_checks` site (exit BM_EXIT_STACK_OVERFLOW), "unexpected trap ..." for any
 * other trap (exit BM_EXIT_UNEXPECTED_TRAP). */
void bm_trap(uint32_t mcause, uint32_t mepc, uint32_t sp, uint32_t tp) __attribute__((noreturn));

#endif
