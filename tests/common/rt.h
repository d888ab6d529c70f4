/* Tiny runtime for Cactus bare-metal test and benchmark programs.
 *
 * Console output goes to the 16550 UART at 0x1000_0000 (THR at offset 0;
 * the runtime does not poll LSR: QEMU and cactus-sim accept every write).
 * rt_exit() ends the run through the test finisher at 0x0010_0000, so the
 * exit status of QEMU (and of `cactus run`) is the guest's exit code.
 * Everything printed is deterministic: nothing here reads time or counters.
 */
#ifndef CACTUS_TESTS_RT_H
#define CACTUS_TESTS_RT_H

#include <stdint.h>
#include "cactus/stackcheck.h"
#include "trap_frame.h"

#define RT_UART_BASE     0x10000000u
#define RT_FINISHER_BASE 0x00100000u
#define RT_CLINT_BASE    0x02000000u
#define RT_CLINT_MSIP    (RT_CLINT_BASE + 0x0000u)
#define RT_CLINT_MTIMECMP (RT_CLINT_BASE + 0x4000u)
#define RT_CLINT_MTIME   (RT_CLINT_BASE + 0xBFF8u)

/* Exit code used when a trap arrives and no hook is installed. */
#define RT_EXIT_UNEXPECTED_TRAP 100
/* Exit code after "stack overflow caught: ..." (a failed stack check). */
#define RT_EXIT_STACK_OVERFLOW 101

/* A stack descriptor of this runtime: the scratch word the trap entry uses
 * (at tp + RT_DESC_SCRATCH), then the contract's limit word (at tp - 4); tp
 * points just past it (RT_TP_OFFSET bytes from the start). */
struct rt_stack_desc {
    uint32_t scratch;
    struct cactus_stack_desc desc;
};
_Static_assert(sizeof(struct rt_stack_desc) == RT_TP_OFFSET, "rt_stack_desc layout");
_Static_assert(-RT_DESC_SCRATCH == RT_TP_OFFSET, "scratch word first");
/* The program stack's descriptor (limit __stack_bottom; crt0 points tp at it)
 * and the trap stack's (limit __trap_stack_bottom; tp while a handler runs). */
extern struct rt_stack_desc rt_main_stack, rt_trap_stack;

/* A failed stack check (an ecall at a `cactus_checks` site): where, how many
 * bytes the code needed below sp, its sp and the limit it was checked against. */
struct rt_overflow {
    const struct cactus_check_site *site;
    uint32_t need, sp, limit;
};
typedef void (*rt_overflow_hook)(const struct rt_overflow *o);
/* Installs a hook called after the "stack overflow caught" report (a test
 * can inspect memory and exit itself); if it returns, the runtime exits with
 * RT_EXIT_STACK_OVERFLOW. The check's function is never resumed. */
void rt_set_overflow_hook(rt_overflow_hook hook);

/* Register frame built by crt0's trap entry; see trap_frame.h. A hook may
 * change any field: x1..x31, mepc and mstatus are restored from it. */
struct rt_trap_frame {
    uint32_t x[32];
    uint32_t mepc;
    uint32_t mcause;
    uint32_t mtval;
    uint32_t mstatus;
};
_Static_assert(sizeof(struct rt_trap_frame) == TF_SIZE, "trap frame layout");

typedef void (*rt_trap_hook)(struct rt_trap_frame *frame);

/* Writes one byte to the UART. */
void rt_putc(char c);
/* Writes a NUL-terminated string. */
void rt_puts(const char *s);
/* Writes v in decimal (unsigned, signed). */
void rt_putu(uint32_t v);
void rt_putd(int32_t v);
/* Writes v as "0x" followed by exactly 8 lowercase hex digits. */
void rt_puthex(uint32_t v);
/* Writes v as "0x" followed by exactly 16 hex digits. */
void rt_puthex64(uint64_t v);

/* Ends the run: code 0 means pass. Never returns. Codes are clamped to
 * 1..255 so a non-zero code never wraps to a passing status. */
void rt_exit(uint32_t code) __attribute__((noreturn));

/* Installs hook as the handler for every trap taken through rt_trap_entry
 * except failed stack checks (NULL restores the default "unexpected trap"
 * report and exit 100). Returns the previous hook. */
rt_trap_hook rt_set_trap_hook(rt_trap_hook hook);
/* The default trap entry installed in mtvec by crt0 (direct mode). */
void rt_trap_entry(void);

/* Records one check: counts it, and on failure prints the check id, the
 * value got and the value expected. Callable from assembly. */
void rt_check_eq(uint32_t id, uint32_t got, uint32_t expected);
/* Records one boolean check; on failure prints file:line. */
void rt_check(int ok, const char *file, int line, const char *what);
/* Number of checks / failed checks recorded so far. */
uint32_t rt_checks(void);
uint32_t rt_failures(void);
/* Prints "NAME: N checks, M failed" and "PASS"/"FAIL"; returns the exit
 * code for main (failures, clamped to 1..99 when non-zero). */
int rt_summary(const char *name);

/* Length in bytes (2 or 4) of the instruction at addr. */
uint32_t rt_insn_len(uint32_t addr);

#define CHECK(cond) rt_check((cond) ? 1 : 0, __FILE_NAME__, __LINE__, #cond)
#define CHECK_EQ(id, got, expected) rt_check_eq((id), (uint32_t)(got), (uint32_t)(expected))

/* CSR access helpers (names must be literal CSR names or numbers). */
#define csr_read(csr) ({ uint32_t v_; __asm__ volatile("csrr %0, " #csr : "=r"(v_)); v_; })
#define csr_write(csr, val) __asm__ volatile("csrw " #csr ", %0" :: "rK"((uint32_t)(val)) : "memory")
#define csr_set(csr, val) __asm__ volatile("csrs " #csr ", %0" :: "rK"((uint32_t)(val)) : "memory")
#define csr_clear(csr, val) __asm__ volatile("csrc " #csr ", %0" :: "rK"((uint32_t)(val)) : "memory")

static inline void rt_mmio_write32(uint32_t addr, uint32_t v)
{
    *(volatile uint32_t *)addr = v;
}

static inline uint32_t rt_mmio_read32(uint32_t addr)
{
    return *(volatile uint32_t *)addr;
}

/* The C library memory functions GCC may call implicitly. */
void *memcpy(void *dst, const void *src, __SIZE_TYPE__ n);
void *memmove(void *dst, const void *src, __SIZE_TYPE__ n);
void *memset(void *dst, int c, __SIZE_TYPE__ n);
int memcmp(const void *a, const void *b, __SIZE_TYPE__ n);

/* Reads the 64-bit CLINT mtime consistently (hi, lo, hi again). */
uint64_t rt_mtime(void);
/* Writes the 64-bit mtimecmp of hart 0 without a spurious early match. */
void rt_set_mtimecmp(uint64_t when);

#endif
