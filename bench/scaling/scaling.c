/* Scaling benchmark firmware (`cactus bench scaling`, crates/bench/src/scaling): one generated
 * manifest per task count, built with `stack = "mtss"`, `checks = "mtss"` and the no-trace
 * kernel (target `qemu`), run on cactus-sim. Roles, by entry function:
 *   - scaling_waiter (priority 12, 2 KiB): blocks on `hand` SAMPLES + 1 times (each give wakes
 *     it: the hand-off), then stays blocked near the top of its stack: a lender;
 *   - scaling_yield (two tasks, priority 10): SAMPLES + 1 yields each (the context switch); then
 *     task 0 gives `hand` SAMPLES times (the hand-off; the waiter preempts it at once);
 *   - scaling_request (priority 8, 256 bytes): SAMPLES calls of `scaling_big`, whose frame does
 *     not fit, so every call is an MTSS request (the frame moves to a lender's pages) and its
 *     return goes through the trampoline; then the run ends;
 *   - every other task (priority 20) runs first and stays blocked for the rest of the run:
 *     scaling_hold (256 bytes) calls `scaling_held`, whose frame does not fit either, so it
 *     moves to another task's pages, and blocks inside it on a semaphore (it holds borrowed
 *     pages); scaling_lend (1 KiB) sleeps near the top of its stack (a lender). The holders'
 *     pages are spread over the lenders (fewest lent first), so the lender search of the
 *     measured requests meets regions that are partly lent.
 * SAMPLES comes from the manifest (-DSCALING_SAMPLES). */
#include "cactus/cactus.h"
#include "cactus_firmware.h"
#include "../kernel/marked.h"
#include "ids.h"

#ifndef SCALING_SAMPLES
#define SCALING_SAMPLES 100
#endif
#define BIG_BYTES 320  /* scaling_big's array: its frame needs 3 pages of 128 */
#define HELD_BYTES 160 /* scaling_held's array: 2 pages */
#define LONG_SLEEP 1000000u

static cactus_sem hand, never, yields_done;
static volatile uint32_t moved, held;

static uintptr_t sp_now(void)
{
    uintptr_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    return sp;
}

/* 1 when sp lies outside the calling task's own stack region (its frame was moved). */
static uint32_t outside_own(uintptr_t sp)
{
    cactus_stack_info s;
    if (cactus_task_stack(cactus_task_self(), &s) != CACTUS_OK)
        return 0;
    return sp < s.base || sp >= s.base + s.size;
}

/* One marker event (EVENT after ARG0 is the committing store), for markers inside a function
 * rather than around a call. Its operands are loaded before the stores: those few
 * instructions are part of the measured span. */
static inline __attribute__((always_inline)) void mark(uint32_t id)
{
    register uint32_t tb_ __asm__("t0") = CACTUS_TRACE_BASE;
    register uint32_t ev_ __asm__("t1") = CACTUS_EV_MARKER;
    register uint32_t id_ __asm__("t2") = id;
    __asm__ volatile("sw %[id], 0x10(%[tb])\n\tsw %[ev], 0x20(%[tb])"
                     :
                     : [tb] "r"(tb_), [ev] "r"(ev_), [id] "r"(id_)
                     : "memory");
}

/* Global and noinline, so `cactus cc` checks its own entry: its frame does not fit the
 * requester's stack and moves at every call. */
uint32_t scaling_big(uint32_t seed, uint32_t unused);
uint32_t __attribute__((noinline)) scaling_big(uint32_t seed, uint32_t unused)
{
    (void)unused;
    mark(SID_REQ_END);
    volatile uint8_t buf[BIG_BYTES];
    for (uint32_t i = 0; i < BIG_BYTES; i += 32)
        buf[i] = (uint8_t)(seed + i);
    uint32_t acc = buf[0] + buf[BIG_BYTES - 32];
    moved += outside_own(sp_now());
    mark(SID_RET_START);
    return acc;
}

/* The frame an extra task blocks in (moved: it does not fit the task's stack either). */
uint32_t scaling_held(uint32_t id);
uint32_t __attribute__((noinline)) scaling_held(uint32_t id)
{
    volatile uint8_t buf[HELD_BYTES];
    buf[0] = (uint8_t)id;
    buf[HELD_BYTES - 1] = (uint8_t)(id >> 8);
    held += outside_own(sp_now());
    cactus_sem_take(&never, CACTUS_FOREVER);
    return buf[0] + buf[HELD_BYTES - 1];
}

void scaling_hold(void *arg)
{
    /* Uses the stack below this frame: scaling_held's frame needs more than is left. */
    volatile uint8_t pad[64];
    pad[0] = 1;
    scaling_held((uint32_t)(uintptr_t)arg + pad[0]);
}

void scaling_lend(void *arg)
{
    (void)arg;
    for (;;)
        cactus_sleep(LONG_SLEEP);
}

void scaling_waiter(void *arg)
{
    (void)arg;
    for (int i = 0; i < SCALING_SAMPLES + 1; i++)
        MARKED_CALL(cactus_sem_take, &hand, CACTUS_FOREVER, SID_TAKE_CALL, SID_HAND_END);
    cactus_sem_take(&never, CACTUS_FOREVER);
}

void scaling_yield(void *arg)
{
    uint32_t me = (uint32_t)(uintptr_t)arg;
    if (me == 0)
        for (int i = 0; i < 4; i++)
            CALIBRATE(SID_CAL_FIRST, SID_CAL_SECOND);
    for (int i = 0; i < SCALING_SAMPLES + 1; i++)
        MARKED_CALL(cactus_yield, 0, 0, SID_SWITCH_CALL(me), SID_SWITCH_BACK(me));
    if (me != 0) {
        cactus_sem_give(&yields_done);
        cactus_sem_take(&never, CACTUS_FOREVER);
    }
    cactus_sem_take(&yields_done, CACTUS_FOREVER);
    for (int i = 0; i < SCALING_SAMPLES; i++)
        MARKED_CALL(cactus_sem_give, &hand, 0, SID_HAND_START, SID_GIVE_BACK);
    cactus_sem_take(&never, CACTUS_FOREVER);
}

void scaling_request(void *arg)
{
    (void)arg;
    for (int i = 0; i < SCALING_SAMPLES; i++)
        MARKED_CALL(scaling_big, i, 0, SID_REQ_START, SID_RET_END);
    bench_marker(SID_MOVED, moved);
    bench_marker(SID_HELD, held);
    bench_marker(SID_TASKS, FW_NTASKS);
    bench_marker(SID_DONE, SCALING_SAMPLES);
    cactus_exit(0);
}

void scaling_init(void)
{
    cactus_sem_init(&hand, 0, 1);
    cactus_sem_init(&never, 0, 1);
    cactus_sem_init(&yields_done, 0, 1);
}
