/* wl_srp.c: workload programs as SRP jobs (kernel.scheduler = "srp", docs/srp.md).
 *
 * The job-shaped counterpart of wl_task.c for the same programs and the same printed result:
 *   - wl_srp_job (a periodic job, arg = the program's index in wl_workload_programs[]):
 *     initialises its program at its first release and runs one round per release; when the
 *     program is done it records checksum and rounds and releases the coordinator job, and
 *     later releases return at once. It never blocks.
 *   - wl_srp_feeder_job (a periodic job, arg = a mask of job indices): releases each job of the
 *     mask once, the SRP counterpart of wl_feeder_job's semaphore gives: a job it feeds is
 *     sporadic (no period_ms) and runs one round per release.
 *   - wl_srp_coordinator_job (a sporadic job named "coordinator", the lowest level; arg = the
 *     number of workers): counts finished workers, one per release; after the last it prints
 *     one line per program in task order and PASS/FAIL exactly as wl_coordinator_main does,
 *     and ends the run (exit code 0 only if every checksum matched).
 * The printed lines depend on no timing, so the QEMU build prints what the simulator prints. */
#include "wl_program.h"

#include "cactus_firmware.h" /* generated: FW_NAME, FW_NTASKS, FW_TASK_COORDINATOR */

#ifndef WL_SIZE
#error "build workload firmware with -DWL_SIZE=0 (small) or -DWL_SIZE=1 (full)"
#endif

extern const wl_program_t *const wl_workload_programs[];
extern const char wl_workload_name[];

void wl_srp_job(void *arg);
void wl_srp_feeder_job(void *arg);
void wl_srp_coordinator_job(void *arg);

static uint8_t wl_started[FW_NTASKS];
static uint8_t wl_finished[FW_NTASKS];
static uint32_t wl_rounds[FW_NTASKS];
static uint32_t wl_checksum[FW_NTASKS];
static uint32_t wl_done_count;

/* The program's final checksum, recorded for the coordinator. */
static void __attribute__((noipa)) wl_srp_record(int self, const wl_program_t *p)
{
    wl_checksum[self] = p->checksum();
    wl_finished[self] = 1;
    cactus_srp_release(FW_TASK_COORDINATOR);
}

void wl_srp_job(void *arg)
{
    int self = cactus_srp_job_self();
    if (wl_finished[self])
        return;
    const wl_program_t *p = wl_workload_programs[(uintptr_t)arg];
    if (!wl_started[self]) {
        p->init(WL_SIZE);
        wl_started[self] = 1;
    }
    int more = p->round();
    wl_rounds[self]++;
    if (!more)
        wl_srp_record(self, p);
}

void wl_srp_feeder_job(void *arg)
{
    uint32_t mask = (uint32_t)(uintptr_t)arg;
    for (int i = 0; i < FW_NTASKS && i < 32; i++)
        if (mask & (1u << i))
            cactus_srp_release(i);
}

void wl_srp_coordinator_job(void *arg)
{
    uint32_t workers = (uint32_t)(uintptr_t)arg;
    if (++wl_done_count < workers)
        return;
    uint32_t failed = 0;
    for (int i = 0; i < FW_NTASKS; i++) {
        if (!wl_finished[i])
            continue;
        const wl_program_t *p = wl_workload_programs[i];
        uint32_t expected = p->expected(WL_SIZE);
        int ok = wl_checksum[i] == expected;
        failed += !ok;
        kprintf("%s %s: checksum 0x%08x expected 0x%08x rounds %u\n", ok ? "ok  " : "FAIL",
                p->name, wl_checksum[i], expected, wl_rounds[i]);
    }
    kprintf("%s %s (%s, size class %u, %u programs)\n", failed ? "FAIL" : "PASS", FW_NAME,
            wl_workload_name, (unsigned)WL_SIZE, (unsigned)workers);
    cactus_fw_finish(failed ? 1u : 0u);
}
