/* Scenario-test helpers: checks that print the failing line and end the run with exit code 1,
 * an ordered event log, and busy work. Output must depend only on scheduling logic (never on
 * raw time or instruction speed) so QEMU and cactus-sim print the same. */
#ifndef KTEST_H
#define KTEST_H

#include "cactus/cactus.h"

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ktest_fail(__FILE__, __LINE__, #cond);                                                 \
    } while (0)

#define CHECK_EQ(a, b)                                                                             \
    do {                                                                                           \
        long _a = (long)(a), _b = (long)(b);                                                       \
        if (_a != _b)                                                                              \
            ktest_fail_eq(__FILE__, __LINE__, #a, _a, _b);                                         \
    } while (0)

void ktest_fail(const char *file, int line, const char *what) __attribute__((noreturn));
void ktest_fail_eq(const char *file, int line, const char *what, long got, long want)
    __attribute__((noreturn));
/* Prints "PASS <name>" and exits 0. With a trace device (cactus-sim) it first checks that the
 * ownership oracle saw no violation, unless ktest_oracle_violations_allowed is set. */
void ktest_pass(void) __attribute__((noreturn));
extern int ktest_oracle_violations_allowed;
extern const char ktest_name[];

/* Ordered log of small integers (task ids, steps). */
void klog(int v);
int klog_len(void);
int klog_at(int i);
/* Checks the log equals the string of single characters/digits in want ("ABAB" or "0123"). */
void klog_expect(const char *want, const char *file, int line);
#define KLOG_EXPECT(s) klog_expect((s), __FILE__, __LINE__)

/* Spins until the tick count changes (the caller is then at the start of a tick). */
void ktest_wait_tick(void);

/* Writes and reads back a `bytes`-byte local array (stack use of a known size). */
uint32_t ktest_touch_stack(uint32_t bytes);

/* A default start configuration (1 kHz tick, 1-tick slice) plus tasks. */
void ktest_start(const cactus_task_desc *tasks, uint32_t n) __attribute__((noreturn));
void ktest_start_cfg(cactus_config *cfg) __attribute__((noreturn));

#endif
