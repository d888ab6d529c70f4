/* Scenario-test helpers (see ktest.h). */
#include "ktest.h"

#define KLOG_MAX 256
static int log_buf[KLOG_MAX];
static int log_n;

void ktest_fail(const char *file, int line, const char *what)
{
    kprintf("FAIL %s: %s:%d: %s\n", ktest_name, file, line, what);
    cactus_exit(1);
}

void ktest_fail_eq(const char *file, int line, const char *what, long got, long want)
{
    kprintf("FAIL %s: %s:%d: %s == %d, want %d\n", ktest_name, file, line, what, (int)got,
            (int)want);
    cactus_exit(1);
}

int ktest_oracle_violations_allowed;

void ktest_pass(void)
{
    uint32_t v;
    if (!ktest_oracle_violations_allowed && cactus_oracle_violations(&v) == 0 && v != 0) {
        kprintf("FAIL %s: the ownership oracle saw %u violations\n", ktest_name, v);
        cactus_exit(1);
    }
    kprintf("PASS %s\n", ktest_name);
    cactus_exit(0);
}

void klog(int v)
{
    uint32_t irq = cactus_irq_save();
    if (log_n < KLOG_MAX)
        log_buf[log_n++] = v;
    cactus_irq_restore(irq);
}

int klog_len(void)
{
    return log_n;
}

int klog_at(int i)
{
    return log_buf[i];
}

void klog_expect(const char *want, const char *file, int line)
{
    char got[KLOG_MAX + 1];
    int n = log_n < KLOG_MAX ? log_n : KLOG_MAX;
    for (int i = 0; i < n; i++)
        got[i] = (char)log_buf[i];
    got[n] = 0;
    kprintf("log: %s\n", got);
    int i = 0;
    while (want[i] && i < n && want[i] == got[i])
        i++;
    if (want[i] || i != n) {
        kprintf("FAIL %s: %s:%d: log %s, want %s\n", ktest_name, file, line, got, want);
        cactus_exit(1);
    }
}

void ktest_wait_tick(void)
{
    uint32_t t = cactus_now();
    while (cactus_now() == t) {
    }
}

void ktest_start_cfg(cactus_config *cfg)
{
    kprintf("TEST %s\n", ktest_name);
    cactus_start(cfg);
}

void ktest_start(const cactus_task_desc *tasks, uint32_t n)
{
    static cactus_config cfg;
    cfg.tick_hz = 1000;
    cfg.slice_ticks = 1;
    cfg.tasks = tasks;
    cfg.ntasks = n;
    ktest_start_cfg(&cfg);
}

uint32_t ktest_touch_stack(uint32_t bytes)
{
    volatile uint8_t buf[bytes];
    uint32_t sum = 0;
    for (uint32_t i = 0; i < bytes; i++)
        buf[i] = (uint8_t)i;
    for (uint32_t i = 0; i < bytes; i++)
        sum += buf[i];
    return sum;
}
