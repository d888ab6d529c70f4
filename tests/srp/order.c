/* SRP scenario (order.toml, docs/srp.md). Every job appends a token to a log; after three
 * runs of `low` the log must be exactly three copies of
 *   Ls Lp H Lh M Lu H Li T( P T) M Le
 * which says:
 *   Ls Lp      low locks `shared` (ceiling 5) and releases mid (5): mid does not start (Lp);
 *   H Lh       low releases high (8, not a user): it preempts low at once, nested;
 *   M Lu       low unlocks: the pending mid runs before the unlock returns;
 *   H Li       low raises the software interrupt: its handler releases high, which runs
 *              when the handler returns, before low's next instruction;
 *   T( P T)    the tick releases `tick` (9) while low spins: it runs nested on low's stack
 *              (below low's frame), releases top (10: runs at once) and mid (5: pending);
 *   M Le       when tick returns, mid (5 > low's 2) runs before low resumes: LIFO.
 * The log depends on no timing, so cactus-sim and QEMU print the same. */
#include "cactus_firmware.h"

#define RUNS 3
static char log_buf[512];
static unsigned log_len;
static volatile int phase; /* 0 idle, 1 low spins, 2 tick ran, 3 mid ran after tick */
static volatile uintptr_t low_sp;
static unsigned low_runs;
static volatile unsigned mid_runs;
static unsigned bad;

static void note(const char *t)
{
    while (*t && log_len + 2 < sizeof log_buf)
        log_buf[log_len++] = *t++;
    log_buf[log_len++] = ' ';
    log_buf[log_len] = 0;
}

void kick_isr(uint32_t source)
{
    (void)source;
    cactus_srp_release(FW_TASK_HIGH);
}

void mid_job(void *arg)
{
    (void)arg;
    cactus_srp_lock(FW_RES_SHARED);
    mid_runs++;
    note("M");
    cactus_srp_unlock(FW_RES_SHARED);
    if (phase == 2)
        phase = 3;
}

void high_job(void *arg)
{
    (void)arg;
    bad += cactus_srp_ceiling() != 8;
    note("H");
}

void top_job(void *arg)
{
    (void)arg;
    note("P");
}

void tick_job(void *arg)
{
    (void)arg;
    if (phase != 1)
        return;
    volatile int here = 0;
    bad += (uintptr_t)&here >= low_sp; /* nested: below low's frame on the shared stack */
    note("T(");
    cactus_srp_release(FW_TASK_TOP);
    cactus_srp_release(FW_TASK_MID);
    note("T)");
    phase = 2;
    (void)here;
}

static const char expected[] = "Ls Lp H Lh M Lu H Li T( P T) M Le ";

void low_job(void *arg)
{
    (void)arg;
    volatile int here = 0;
    low_sp = (uintptr_t)&here;
    note("Ls");
    cactus_srp_lock(FW_RES_SHARED);
    unsigned before = mid_runs;
    cactus_srp_release(FW_TASK_MID);
    if (mid_runs == before)
        note("Lp");
    cactus_srp_release(FW_TASK_HIGH);
    note("Lh");
    cactus_srp_unlock(FW_RES_SHARED);
    note("Lu");
    cactus_irq_raise_software();
    note("Li");
    phase = 1;
    while (phase != 3)
        ;
    phase = 0;
    note("Le");
    if (++low_runs < RUNS)
        return;
    unsigned want = 0;
    for (unsigned i = 0; i < RUNS; i++)
        for (const char *e = expected; *e; e++)
            bad += log_buf[want++] != *e;
    bad += log_len != want;
    kprintf("srp_order: log %s\n", log_buf);
    kprintf("srp_order: %s (%u runs of low)\n", bad ? "FAIL" : "PASS", low_runs);
    cactus_fw_finish(bad ? 1u : 0u);
}
