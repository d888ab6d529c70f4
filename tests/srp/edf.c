/* SRP with EDF (edf.toml, docs/srp.md). While a (deadline 20 ms after its release at t0)
 * spins until t0 + 18, the 1 ms job c releases b (relative deadline 5 ms) twice:
 *   at t0 + 2:  b's absolute deadline t0 + 7 is before a's t0 + 20: b preempts a at once;
 *   at t0 + 16: b's t0 + 21 is after a's: b waits (its level is above a's, but EDF says no)
 *               and runs when a completes.
 * So every run of a logs `A( r B r A) B` (r: c released b), where fixed priority would log
 * `A( r B r B A)`. Two runs, then the check. The log depends on no timing beyond whole ticks,
 * so cactus-sim and QEMU print the same. */
#include "cactus_firmware.h"

#define RUNS 2
static char log_buf[128];
static unsigned log_len;
static volatile uint32_t t0;
static volatile int spinning, released;
static unsigned a_runs;

static void note(const char *t)
{
    while (*t && log_len + 2 < sizeof log_buf)
        log_buf[log_len++] = *t++;
    log_buf[log_len++] = ' ';
    log_buf[log_len] = 0;
}

void b_job(void *arg)
{
    (void)arg;
    note("B");
    if (a_runs == RUNS) {
        static const char expected[] = "A( r B r A) B A( r B r A) B ";
        unsigned bad = 0, i = 0;
        for (const char *e = expected; *e; e++, i++)
            bad += log_buf[i] != *e;
        bad += log_len != i;
        kprintf("srp_edf: log %s\n", log_buf);
        kprintf("srp_edf: %s\n", bad ? "FAIL" : "PASS");
        cactus_fw_finish(bad ? 1u : 0u);
    }
}

void c_job(void *arg)
{
    (void)arg;
    if (!spinning)
        return;
    uint32_t now = cactus_now();
    if ((released == 0 && now - t0 >= 2) || (released == 1 && now - t0 >= 16)) {
        released++;
        note("r");
        cactus_srp_release(FW_TASK_B);
    }
}

void a_job(void *arg)
{
    (void)arg;
    t0 = cactus_now();
    released = 0;
    note("A(");
    spinning = 1;
    while (cactus_now() - t0 < 18)
        ;
    spinning = 0;
    a_runs++;
    note("A)");
}
