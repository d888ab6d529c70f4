/* Interrupt-latency firmware (cactus-sim only; `cactus bench latency` runs it, see
 * crates/bench/src/latency/mod.rs and docs/kernel.md "Interrupt latency").
 *
 * The waker (priority 30) sleeps one tick at a time, lat_ticks times, each cactus_sleep
 * bracketed by MARKED_CALL markers (bench/kernel/marked.h): the host measures from the cycle
 * the timer interrupt became pending to the waker's first instruction after the sleep. Below
 * it, every task draws its work from a xorshift generator seeded from lat_seed, so the tick
 * falls at a different point of the work on every wake-up and in every run:
 *   - ticker (25): sleeps 1 to 3 ticks, so some ticks wake two tasks;
 *   - mid (20): woken by the waker through a semaphore; sends to the sink's queue, sets event
 *     flags, takes the mutex the background tasks share (priority inheritance);
 *   - sink (15): receives from the queue and computes;
 *   - bg_a, bg_b (5, round robin): computation (with divisions), yields, the shared mutex,
 *     non-blocking semaphore and queue calls, event flags, cactus_now, and a short
 *     application critical section (cactus_irq_save/restore).
 * The waker ends the run with cactus_exit(0) after the last wake-up. All application
 * functions are called lat_* so the host can tell them from the kernel's. */
#include "cactus/cactus.h"
#include "cactus_firmware.h"
#include "ids.h"
#include "../kernel/marked.h"

/* Written by the host after loading (the defaults run the firmware alone). */
volatile uint32_t lat_seed = 1;
volatile uint32_t lat_ticks = 200;

static cactus_sem kick;
static cactus_mutex shared;
static cactus_queue items;
static uint32_t item_buf[8];
static cactus_event flags;
static volatile uint32_t sink_total;
static volatile uint32_t shared_total;

static uint32_t lat_next(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

static uint32_t lat_seeded(uint32_t salt)
{
    uint32_t s = lat_seed * 0x9E3779B9u ^ salt * 0x85EBCA6Bu;
    return s ? s : 0x2545F491u;
}

/* About `n` loop iterations of mixed arithmetic (a division every 4th). */
static uint32_t __attribute__((noinline)) lat_work(uint32_t n, uint32_t x)
{
    volatile uint32_t acc = x | 1u;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t a = acc;
        a = a * 2654435761u + i;
        if ((i & 3u) == 3u)
            a = a / ((i & 7u) + 3u) + (a % 7u);
        acc = a;
    }
    return acc;
}

/* A short application critical section: a read-modify-write of two shared words with
 * interrupts masked (a long one would measure the application, not the kernel). */
static void __attribute__((noinline)) lat_critical(uint32_t r)
{
    uint32_t state = cactus_irq_save();
    shared_total = shared_total * 3u + r;
    sink_total ^= shared_total;
    cactus_irq_restore(state);
}

void lat_init(void)
{
    cactus_sem_init(&kick, 0, 4);
    cactus_mutex_init(&shared);
    cactus_queue_init(&items, item_buf, sizeof item_buf[0], 8);
    cactus_event_init(&flags);
}

void lat_waker(void *arg)
{
    (void)arg;
    uint32_t rng = lat_seeded(0x57u);
    uint32_t ticks = lat_ticks;
    CALIBRATE(LID_CAL_FIRST, LID_CAL_SECOND);
    cactus_sleep(2); /* every other task has entered its loop */
    bench_marker(LID_START, 0);
    for (uint32_t i = 0; i < ticks; i++) {
        MARKED_CALL(cactus_sleep, 1, 0, LID_SLEEP, LID_WOKE);
        uint32_t r = lat_next(&rng);
        if ((r & 3u) == 0)
            cactus_sem_give(&kick);
        lat_work((r >> 4) & 63u, r);
    }
    bench_marker(LID_DONE, ticks);
    cactus_exit(0);
}

void lat_ticker(void *arg)
{
    (void)arg;
    uint32_t rng = lat_seeded(0x71u);
    for (;;) {
        uint32_t r = lat_next(&rng);
        cactus_sleep(1 + r % 3u);
        lat_work((r >> 8) & 31u, r);
        if (r & 0x100u)
            cactus_event_set(&flags, 1u << (r >> 28));
    }
}

void lat_mid(void *arg)
{
    (void)arg;
    uint32_t rng = lat_seeded(0x93u);
    for (;;) {
        cactus_sem_take(&kick, CACTUS_FOREVER);
        uint32_t r = lat_next(&rng);
        for (uint32_t k = 0; k <= (r & 3u); k++) {
            uint32_t v = lat_next(&rng);
            cactus_queue_send(&items, &v, CACTUS_NO_WAIT);
        }
        if (r & 0x10u) {
            cactus_mutex_lock(&shared, CACTUS_FOREVER);
            shared_total = lat_work((r >> 8) & 63u, shared_total);
            cactus_mutex_unlock(&shared);
        }
        cactus_event_set(&flags, 1u << ((r >> 20) & 15u));
    }
}

void lat_sink(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t v = 0;
        if (cactus_queue_recv(&items, &v, CACTUS_FOREVER) == CACTUS_OK)
            sink_total += lat_work(v & 127u, v);
        if (v & 0x1000u)
            cactus_event_wait(&flags, 0xFFFFu, CACTUS_EVENT_CLEAR, 1);
    }
}

/* One random step of a background task. */
static void lat_step(uint32_t r)
{
    switch (r & 7u) {
    case 0:
        cactus_yield();
        break;
    case 1:
        if (cactus_mutex_lock(&shared, 2) == CACTUS_OK) {
            shared_total = lat_work((r >> 8) & 127u, shared_total);
            cactus_mutex_unlock(&shared);
        }
        break;
    case 2:
        lat_critical(r);
        break;
    case 3:
        cactus_sem_give(&kick);
        cactus_sem_take(&kick, CACTUS_NO_WAIT);
        break;
    case 4: {
        uint32_t v = r;
        if (cactus_queue_send(&items, &v, CACTUS_NO_WAIT) != CACTUS_OK)
            cactus_queue_recv(&items, &v, CACTUS_NO_WAIT);
        break;
    }
    case 5:
        cactus_event_set(&flags, r >> 16);
        cactus_event_clear(&flags, r >> 20);
        break;
    case 6:
        shared_total += cactus_now();
        break;
    default:
        shared_total = lat_work((r >> 8) & 255u, r);
        break;
    }
}

void lat_background(void *arg)
{
    uint32_t rng = lat_seeded(0xB0u + (uint32_t)(uintptr_t)arg);
    for (;;) {
        uint32_t r = lat_next(&rng);
        lat_step(r);
        lat_work((r >> 24) & 15u, r);
    }
}
