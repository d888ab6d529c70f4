/* The Carousel paper's task-set experiment (section VI-D to VI-F, Tables V-VII) on cactus-sim:
 * the thirteen malardalen-like tasks (workloads/malardalen-like) released periodically by the
 * machine timer and run to completion under fixed-priority SRP, nested in LIFO order.
 *
 * Mode 0 (profile `carousel-paper`): every job is invoked through Carousel
 * (carousel_run_task): its code, data and stack blocks, laid out by taskset.ld, are opened in
 * the SPM for the job and the blocks it takes from preempted jobs are swapped out and back.
 * Mode 1 (profiles `cache-wt`, `cache-wb`): the job is called directly on its stack, its code
 * and data reached through the cache.
 *
 * The executive (this file, the runtime, the Carousel operations) runs in the OS scratchpad;
 * the tasks are in external RAM. The task set is `ts_config`: the host (cactus bench
 * carousel) writes it into the loaded image before the run; the built-in one releases every
 * task once, for the calibration run. Each job is bracketed by trace markers (id
 * MARK_START/MARK_END + task, value = job number) so the host measures it exactly: the cycles
 * from its start marker to its end marker less the interrupt windows (trap entry to mret) that
 * opened while it ran, which hold the timer handler and every job nested in it. The program
 * prints each task's layout and, at the end, its releases, jobs and deadline misses. */
#include <stdint.h>
#include "rt.h"
#include "cactus/carousel.h"
#include "../../kernel/arch/rv32/carousel_hw.h"
#include "malardalen.h"

#define NTASKS 13
#define MARK_START 0xCA5E0100u
#define MARK_END 0xCA5E0200u
#define STACK_BLOCKS 2u

/* The task set (written by the host; all times in mtime ticks). */
typedef struct {
    uint32_t prio;   /* unique, higher runs first */
    uint32_t period; /* 0: released once, at its offset */
    uint32_t offset;
} ts_task;

typedef struct {
    uint32_t mode;     /* 0 Carousel, 1 direct (cache machines) */
    uint32_t duration; /* ticks: no release at or after it; the run ends when all jobs are done */
    ts_task task[NTASKS];
} ts_config_t;

volatile ts_config_t ts_config = {
    .mode = 0,
    .duration = 1,
    .task = {{13, 0, 0}, {12, 0, 0}, {11, 0, 0}, {10, 0, 0}, {9, 0, 0}, {8, 0, 0}, {7, 0, 0},
             {6, 0, 0}, {5, 0, 0}, {4, 0, 0}, {3, 0, 0}, {2, 0, 0}, {1, 0, 0}},
};

/* The layout symbols of taskset.ld (tasks.ld): per task its code (text and constants), data
 * and stack regions in external RAM, block-aligned. */
#define TASK_SYMBOLS(n)                                                                        \
    extern char __ts_code_##n[], __ts_code_##n##_end[], __ts_data_##n[], __ts_data_##n##_end[], \
        __ts_stack_##n[];
#define TASK_LIST(X)                                                                           \
    X(binarysearch) X(bsort100) X(cnt) X(compress) X(crc) X(duff) X(expint) X(fdct) X(fir)     \
    X(insertsort) X(janne_complex) X(jfdctint) X(matmult)
TASK_LIST(TASK_SYMBOLS)

typedef struct {
    const wl_program_t *program;
    uint32_t code, code_end, data, data_end, stack_top;
} ts_layout;

#define TASK_LAYOUT(n)                                                                         \
    {&n##_program, (uint32_t)(uintptr_t)__ts_code_##n, (uint32_t)(uintptr_t)__ts_code_##n##_end, \
     (uint32_t)(uintptr_t)__ts_data_##n, (uint32_t)(uintptr_t)__ts_data_##n##_end,              \
     (uint32_t)(uintptr_t)__ts_stack_##n},
static const ts_layout layout[NTASKS] = {TASK_LIST(TASK_LAYOUT)};

static carousel_task desc[NTASKS];

/* Per task: the next release, releases not yet started and the release of the oldest one. */
static uint32_t next_release[NTASKS], pending[NTASKS], released[NTASKS];
static uint32_t jobs[NTASKS], misses[NTASKS], releases[NTASKS];
static int running = -1;       /* the running job's task */
static int ceiling = -1;       /* its priority: only a higher one starts */

/* Bytes below dispatch's sp that the frames of a job's invocation may use on the executive's
 * stack before the job switches to its own. */
#define DISPATCH_FRAMES 256u

/* The executive's own stack for the timer handler (taskset_entry.S), in the OS scratchpad. */
static uint32_t os_stack[2048] __attribute__((aligned(16)));
uint32_t ts_os_sp = (uint32_t)(uintptr_t)&os_stack[2048];
void ts_timer_entry(void);
void ts_timer_isr(void);

static inline void trace_marker(uint32_t id, uint32_t value)
{
    rt_mmio_write32(0x0E000010u, id);
    rt_mmio_write32(0x0E000014u, value);
    rt_mmio_write32(0x0E000020u, 9u);
}

static inline uint32_t now(void)
{
    return (uint32_t)rt_mtime();
}

static unsigned blocks(uint32_t from, uint32_t to)
{
    return (to - from + CAROUSEL_BLOCK_SIZE - 1u) / CAROUSEL_BLOCK_SIZE;
}

/* Lays each task out: code and stack must fit; as many of its data blocks as room remains for
 * (the first ones: the rest stays in external RAM). Returns 0, or 1 if a task cannot run under
 * Carousel. */
static int lay_out(void)
{
    int bad = 0;
    for (unsigned i = 0; i < NTASKS; i++) {
        const ts_layout *l = &layout[i];
        unsigned y = blocks(l->code, l->code_end), d = blocks(l->data, l->data_end);
        if (y + d + STACK_BLOCKS > CAROUSEL_BLOCKS)
            d = y + STACK_BLOCKS < CAROUSEL_BLOCKS ? CAROUSEL_BLOCKS - y - STACK_BLOCKS : 0;
        desc[i] = (carousel_task){
            .entry = 0,
            .code = l->code,
            .stack_top = l->stack_top,
            .data = l->data,
            .code_blocks = (uint8_t)y,
            .data_blocks = (uint8_t)d,
            .stack_blocks = STACK_BLOCKS,
        };
        rt_puts("layout ");
        rt_puts(l->program->name);
        rt_puts(" code_bytes=");
        rt_putu(l->code_end - l->code);
        rt_puts(" data_bytes=");
        rt_putu(l->data_end - l->data);
        rt_puts(" code_blocks=");
        rt_putu(y);
        rt_puts(" data_blocks=");
        rt_putu(d);
        rt_puts(" stack_blocks=");
        rt_putu(STACK_BLOCKS);
        rt_puts("\n");
        if (y + STACK_BLOCKS > CAROUSEL_BLOCKS) {
            rt_puts("FAIL: task does not fit the Carousel\n");
            bad = 1;
        }
    }
    return bad;
}

/* A job: one activation of the program (one round). */
static void job(void *arg)
{
    const wl_program_t *p = arg;
    (void)p->round();
}

static void run_job(unsigned i)
{
    void *arg = (void *)(uintptr_t)layout[i].program;
    if (ts_config.mode == 0) {
        desc[i].entry = job;
        if (carousel_run_task(&desc[i], arg) < 0) {
            rt_puts("FAIL: Carousel refused a job\n");
            rt_exit(3);
        }
    } else {
        carousel_call_on(layout[i].stack_top, job, arg);
    }
}

/* Releases what is due at or before t; returns the earliest future release (UINT32_MAX:
 * none before the end). */
static uint32_t release_due(uint32_t t)
{
    uint32_t earliest = UINT32_MAX;
    for (unsigned i = 0; i < NTASKS; i++) {
        while (next_release[i] != UINT32_MAX && (int32_t)(t - next_release[i]) >= 0) {
            if (pending[i]++ == 0)
                released[i] = next_release[i];
            releases[i]++;
            uint32_t period = ts_config.task[i].period;
            uint32_t next = next_release[i] + period;
            next_release[i] = period && next < ts_config.duration ? next : UINT32_MAX;
        }
        if (next_release[i] < earliest)
            earliest = next_release[i];
    }
    return earliest;
}

static void arm_timer(uint32_t when)
{
    rt_set_mtimecmp(when == UINT32_MAX ? UINT64_MAX : (uint64_t)when);
}

static inline uint32_t read_mepc(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, mepc" : "=r"(v));
    return v;
}

/* Starts every pending job whose priority is above the ceiling, highest first, each nested on
 * the running one (interrupts enabled while it runs, masked otherwise). */
static void dispatch(void)
{
    for (;;) {
        int best = -1;
        for (unsigned i = 0; i < NTASKS; i++)
            if (pending[i] && (int)ts_config.task[i].prio > ceiling &&
                (best < 0 || ts_config.task[i].prio > ts_config.task[best].prio))
                best = (int)i;
        if (best < 0)
            return;
        unsigned i = (unsigned)best;
        uint32_t release = released[i];
        if (--pending[i])
            released[i] = release + ts_config.task[i].period;
        int outer = running, outer_ceiling = ceiling;
        running = best;
        ceiling = (int)ts_config.task[i].prio;
        uint32_t mepc = read_mepc(), mstatus;
        __asm__ volatile("csrr %0, mstatus" : "=r"(mstatus));
        /* An interrupt while the job runs puts its frame below this one and below the frames
         * run_job, carousel_run_task and carousel_call_on push before the job switches to
         * its own stack (about 100 bytes with GCC 12 -O2; a margin of 64 let a nested
         * interrupt's frame overwrite carousel_run_task's saved registers once its frame
         * grew to 80 bytes). */
        uint32_t outer_sp = ts_os_sp, sp;
        __asm__ volatile("mv %0, sp" : "=r"(sp));
        ts_os_sp = (sp - DISPATCH_FRAMES) & ~15u;
        trace_marker(MARK_START + i, jobs[i]);
        __asm__ volatile("csrsi mstatus, 8" ::: "memory");
        run_job(i);
        __asm__ volatile("csrci mstatus, 8" ::: "memory");
        ts_os_sp = outer_sp;
        trace_marker(MARK_END + i, jobs[i]);
        __asm__ volatile("csrw mepc, %0; csrw mstatus, %1" ::"r"(mepc), "r"(mstatus));
        uint32_t period = ts_config.task[i].period;
        if (period && (int32_t)(now() - (release + period)) > 0)
            misses[i]++;
        jobs[i]++;
        running = outer;
        ceiling = outer_ceiling;
    }
}

/* The timer interrupt (entered through ts_timer_entry on the executive's stack): release
 * what is due, re-arm, start what now may run. */
void ts_timer_isr(void)
{
    arm_timer(release_due(now()));
    dispatch();
}

static int all_done(void)
{
    for (unsigned i = 0; i < NTASKS; i++)
        if (pending[i] || next_release[i] != UINT32_MAX)
            return 0;
    return 1;
}

int main(void)
{
    if (lay_out())
        return 1;
    for (unsigned i = 0; i < NTASKS; i++)
        layout[i].program->init(1);
    if (ts_config.mode == 0)
        carousel_init();
    uint32_t start = now() + 100u;
    for (unsigned i = 0; i < NTASKS; i++)
        next_release[i] = start + ts_config.task[i].offset;
    uint32_t end = ts_config.duration;
    ts_config.duration = start + end;
    __asm__ volatile("csrw mtvec, %0" ::"r"((uint32_t)(uintptr_t)ts_timer_entry));
    arm_timer(release_due(start - 1u));
    __asm__ volatile("csrs mie, %0" ::"r"(1u << 7));
    __asm__ volatile("csrsi mstatus, 8" ::: "memory");
    while (!all_done())
        __asm__ volatile("wfi");
    __asm__ volatile("csrci mstatus, 8" ::: "memory");
    for (unsigned i = 0; i < NTASKS; i++) {
        rt_puts("task ");
        rt_puts(layout[i].program->name);
        rt_puts(" releases=");
        rt_putu(releases[i]);
        rt_puts(" jobs=");
        rt_putu(jobs[i]);
        rt_puts(" misses=");
        rt_putu(misses[i]);
        rt_puts(" checksum=");
        rt_puthex(layout[i].program->checksum());
        rt_puts("\n");
    }
    return 0;
}
