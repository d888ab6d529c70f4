/* carousel_jobs.c: malardalen-like programs as SRP jobs invoked through Carousel
 * (kernel.carousel = true, docs/carousel.md "Under the kernel's SRP dispatcher").
 *
 * This unit is shared (the kernel's OS scratchpad); each program's own unit (its round, its
 * data) is its task's, laid out by `cactus build` into the task's Carousel code and data
 * blocks.
 *   - car_init (the firmware's init): initialises every program before the kernel starts.
 *   - car_job (a periodic job, arg = the program's index in car_programs): one round per
 *     release, and the program's checksum after it; the checksum after the program's last
 *     round (the one whose round returns 0 first) is kept. The same instructions run in
 *     every job, whatever the round (no branch on the round), so that a job's time is the
 *     program's single path and its Carousel invocation: BCET = WCET.
 *   - car_check_job (a periodic job at the lowest level, arg = the number of programs): once
 *     every program has finished its rounds, prints one line per program (its checksum
 *     against the expected one) and PASS/FAIL, and ends the run (exit code 0 only if every
 *     checksum matched). */
#include "malardalen.h"
#include "mal_sp.h"

#include "cactus_firmware.h"

#ifndef WL_SIZE
#error "build with -DWL_SIZE=0 (small) or -DWL_SIZE=1 (full)"
#endif

void car_init(void);
void car_job(void *arg);
void car_check_job(void *arg);

/* The programs, in the manifest's task order (a task's arg is its index here). */
static const wl_program_t *const car_programs[] = {
    &binarysearch_program, &bsort100_program, &cnt_program,           &crc_program,
    &duff_program,         &expint_program,   &insertsort_program,    &janne_complex_program,
};
#define CAR_NPROGRAMS (sizeof car_programs / sizeof car_programs[0])

static uint32_t car_jobs[CAR_NPROGRAMS];
static uint32_t car_done[CAR_NPROGRAMS];  /* 1 once the program's last round ran */
static uint32_t car_final[CAR_NPROGRAMS]; /* its checksum after that round */

void car_init(void)
{
    for (uint32_t i = 0; i < CAR_NPROGRAMS; i++)
        car_programs[i]->init(WL_SIZE);
}

void car_job(void *arg)
{
    uint32_t i = (uint32_t)(uintptr_t)arg;
    const wl_program_t *p = car_programs[i];
    uint32_t last = (uint32_t)(p->round() == 0);
    uint32_t sum = p->checksum();
    uint32_t first = last & (uint32_t)(car_done[i] == 0);
    car_final[i] = sp_selu(first, sum, car_final[i]);
    car_done[i] |= last;
    car_jobs[i]++;
}

void car_check_job(void *arg)
{
    uint32_t n = (uint32_t)(uintptr_t)arg;
    for (uint32_t i = 0; i < n; i++)
        if (!car_done[i])
            return;
    uint32_t failed = 0;
    for (uint32_t i = 0; i < n; i++) {
        const wl_program_t *p = car_programs[i];
        uint32_t expected = p->expected(WL_SIZE);
        int ok = car_final[i] == expected;
        failed += !ok;
        kprintf("%s %s: checksum 0x%08x expected 0x%08x jobs %u\n", ok ? "ok  " : "FAIL",
                p->name, car_final[i], expected, car_jobs[i]);
    }
    kprintf("%s %s (malardalen-like under SRP + Carousel, size class %u, %u programs)\n",
            failed ? "FAIL" : "PASS", FW_NAME, (unsigned)WL_SIZE, (unsigned)n);
    cactus_fw_finish(failed ? 1u : 0u);
}
