/* Context-switch benchmark firmware (cactus-sim only; `cactus bench kernel` runs it).
 *
 * Links against the no-trace kernel library (libcactus-<strategy>-none.a), the build whose
 * paths are measured, and writes the trace device itself: MARKED_CALL (marked.h) brackets each
 * kernel call with MARKER events whose cycle/instret stamps the host subtracts. Phases, each
 * SAMPLES switches in both directions:
 *   1. yield: tasks 0 and 1 at priority 6 call cactus_yield() in turn;
 *   2. block: tasks 2 and 3 at priority 5 ping-pong two semaphores; every measured take blocks
 *      and the other task resumes from its own blocked take;
 *   3. timer: task 4 (priority 9) sleeps one tick at a time while task 5 (priority 1) spins; the
 *      host measures from the timer trap to task 4's first instruction after cactus_sleep.
 *   4. tick: task 4 wakes task 6 (priority 2) and sleeps SAMPLES + 2 ticks at once, so task 6,
 *      alone at its level, is interrupted by ticks that switch no task. It reads mcycle and
 *      minstret in a loop and reports every iteration a tick made longer (BID_TICK_*) and, at
 *      the end, the shortest iteration (BID_SPIN_*): the host subtracts the latter and the
 *      hardware trap entry.
 * Task 4 ends the run with cactus_exit(0) after the last sample. Before that, the stack
 * high-water marks of task 0 (after its yields) and task 5 (preempted by every tick) are
 * reported: a kernel that saved contexts on task stacks would show them there. */
#include "cactus/cactus.h"
#include "../../kernel/core/k.h"
#include "ids.h"
#include "marked.h"

#define SAMPLES 100

static cactus_sem sem_a, sem_b, go;
static cactus_sem tick_go;
static volatile int tick_phase; /* set by the sleeper while the ticker measures ticks */

/* Stack bytes task `id` has ever used (painted-watermark high-water mark). */
static uint32_t stack_used(int id)
{
    cactus_stack_info s;
    return cactus_task_stack(id, &s) == CACTUS_OK ? s.used : 0xFFFFFFFFu;
}

static void yielder(void *arg)
{
    uint32_t me = (uint32_t)(uintptr_t)arg;
    for (int i = 0; i < SAMPLES + 1; i++)
        MARKED_CALL(cactus_yield, 0, 0, BID_CALL(BID_YIELD, me), BID_BACK(BID_YIELD, me));
    if (me == 0) /* its own frames only, unless a switch put anything on its stack */
        bench_marker(BID_STACK_YIELD, stack_used(0));
}

static void pinger(void *arg)
{
    (void)arg;
    for (int i = 0; i < SAMPLES + 1; i++) {
        cactus_sem_give(&sem_b);
        MARKED_CALL(cactus_sem_take, &sem_a, CACTUS_FOREVER, BID_CALL(BID_BLOCK, 2),
                    BID_BACK(BID_BLOCK, 2));
    }
    cactus_sem_give(&go);
}

static void ponger(void *arg)
{
    (void)arg;
    for (int i = 0; i < SAMPLES + 1; i++) {
        MARKED_CALL(cactus_sem_take, &sem_b, CACTUS_FOREVER, BID_CALL(BID_BLOCK, 3),
                    BID_BACK(BID_BLOCK, 3));
        cactus_sem_give(&sem_a);
    }
}

static void sleeper(void *arg)
{
    (void)arg;
    cactus_sem_take(&go, CACTUS_FOREVER);
    cactus_sleep(1); /* let the semaphore tasks finish and the spinner start */
    for (int i = 0; i < SAMPLES + 1; i++)
        MARKED_CALL(cactus_sleep, 1, 0, BID_CALL(BID_TIMER, 4), BID_BACK(BID_TIMER, 4));
    bench_marker(BID_STACK_SPIN, stack_used(5)); /* preempted SAMPLES + 1 times */
    tick_phase = 1;
    cactus_sem_give(&tick_go);
    cactus_sleep(SAMPLES + 2); /* the ticker alone: every tick but the last switches nothing */
    tick_phase = 0;
    cactus_sleep(1); /* the ticker reports its shortest iteration */
    bench_marker(BID_DONE, SAMPLES);
    cactus_exit(0);
}

static inline uint32_t read_mcycle(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, mcycle" : "=r"(v));
    return v;
}

static inline uint32_t read_minstret(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, minstret" : "=r"(v));
    return v;
}

/* Task 6, while tick_phase is set: a loop iteration longer than GAP cycles and GAP_INSNS instructions
 * held a tick (one iteration is a few cycles, a tick tens); report it, then restart the clock
 * (the report's own cost is outside every measured iteration). A tick that lands between the
 * two counter reads splits itself over two iterations, neither of which passes both tests:
 * those are dropped. The last tick wakes the sleeper, which clears tick_phase before the
 * ticker runs again, so that iteration is not reported. */
#define GAP 24u
#define GAP_INSNS 20u
static void measure_ticks(void)
{
    uint32_t least_c = ~0u, least_i = ~0u;
    uint32_t c0 = read_mcycle(), i0 = read_minstret();
    int restarted = 1; /* this iteration began at a clock restart: not a whole loop */
    while (tick_phase) {
        uint32_t c1 = read_mcycle(), i1 = read_minstret();
        uint32_t dc = c1 - c0, di = i1 - i0;
        if (dc > GAP && di > GAP_INSNS) {
            if (!tick_phase)
                break;
            bench_marker(BID_TICK_CYCLES, dc);
            bench_marker(BID_TICK_INSNS, di);
            c1 = read_mcycle();
            i1 = read_minstret();
            restarted = 1;
        } else {
            if (!restarted && dc <= GAP && di <= GAP_INSNS && dc < least_c) {
                least_c = dc;
                least_i = di;
            }
            restarted = 0;
        }
        c0 = c1;
        i0 = i1;
    }
    bench_marker(BID_SPIN_CYCLES, least_c);
    bench_marker(BID_SPIN_INSNS, least_i);
}

static void spinner(void *arg)
{
    (void)arg;
    for (;;)
        __asm__ volatile("");
}

static void ticker(void *arg)
{
    (void)arg;
    cactus_sem_take(&tick_go, CACTUS_FOREVER);
    measure_ticks();
}

static const cactus_task_desc tasks[] = {
    { .name = "yield0", .entry = yielder, .arg = (void *)0, .stack_size = 512, .prio = 6 },
    { .name = "yield1", .entry = yielder, .arg = (void *)1, .stack_size = 512, .prio = 6 },
    { .name = "ping", .entry = pinger, .stack_size = 512, .prio = 5 },
    { .name = "pong", .entry = ponger, .stack_size = 512, .prio = 5 },
    { .name = "sleeper", .entry = sleeper, .stack_size = 512, .prio = 9 },
    { .name = "spinner", .entry = spinner, .stack_size = 512, .prio = 1 },
    { .name = "ticker", .entry = ticker, .stack_size = 512, .prio = 2 },
};

int main(void)
{
    static cactus_config cfg = {
        .tick_hz = 1000, .slice_ticks = 1000000, .tasks = tasks, .ntasks = 7,
    };
    bench_marker(BID_TCB_SIZE, sizeof(struct k_tcb));
    bench_marker(BID_CTX_SIZE, sizeof(struct port_context));
    bench_marker(BID_MAX_TASKS, CACTUS_MAX_TASKS);
    for (int i = 0; i < 4; i++)
        CALIBRATE(BID_CAL_FIRST, BID_CAL_SECOND);
    cactus_sem_init(&sem_a, 0, 1);
    cactus_sem_init(&sem_b, 0, 1);
    cactus_sem_init(&go, 0, 1);
    cactus_sem_init(&tick_go, 0, 1);
    cactus_start(&cfg);
}
