/* Software timers: an autostart one-shot, a periodic timer stopped after three expiries, a
 * one-shot restarted after it expired, a period change that restarts from the change, a
 * periodic timer that stops itself from its callback, and two equal deadlines served in start
 * order: every expiry at its exact tick, in the timer task. */
#include "ktest.h"

const char ktest_name[] = "swtimer_basic";

enum { MAIN, TIMERS };

#define MAXLOG 32
static char what[MAXLOG];
static uint32_t when[MAXLOG];
static int n;
static int self_fires;

static cactus_timer t_auto, t_per, t_one, t_chg, t_self, t_fa, t_fb;

static void fired(cactus_timer *t)
{
    CHECK_EQ(cactus_task_self(), TIMERS);
    CHECK(n < MAXLOG);
    what[n] = (char)(uintptr_t)cactus_timer_arg(t);
    when[n] = cactus_now();
    n++;
}

static void self_stop(cactus_timer *t)
{
    fired(t);
    if (++self_fires == 3)
        CHECK_EQ(cactus_timer_stop(t), CACTUS_OK);
}

static void until(uint32_t tick)
{
    uint32_t now = cactus_now();
    if (tick > now)
        CHECK_EQ(cactus_sleep(tick - now), CACTUS_OK);
    CHECK_EQ(cactus_now(), tick);
}

static void main_task(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_timer_active(&t_auto), 1); /* the timer task ran first and started it */
    CHECK_EQ(cactus_timer_start(&t_per), CACTUS_OK); /* 4, 8, 12, ... */
    CHECK_EQ(cactus_timer_start(&t_chg), CACTUS_OK); /* would be 10 */
    until(1);
    CHECK_EQ(cactus_timer_start(&t_one), CACTUS_OK); /* 6 */
    until(5);
    CHECK_EQ(cactus_timer_change_period(&t_chg, 2), CACTUS_OK); /* 7, 9, 11, ... */
    CHECK_EQ(cactus_timer_change_period(&t_chg, 0), CACTUS_EINVAL);
    until(12); /* the timer task (higher) has served tick 12 already */
    CHECK_EQ(cactus_timer_active(&t_one), 0);
    CHECK_EQ(cactus_timer_active(&t_auto), 0);
    CHECK_EQ(cactus_timer_active(&t_chg), 1);
    CHECK_EQ(cactus_timer_stop(&t_chg), CACTUS_OK);
    CHECK_EQ(cactus_timer_stop(&t_chg), CACTUS_OK);
    CHECK_EQ(cactus_timer_active(&t_chg), 0);
    until(13);
    CHECK_EQ(cactus_timer_stop(&t_per), CACTUS_OK);
    until(14);
    CHECK_EQ(cactus_timer_start(&t_one), CACTUS_OK); /* 19 */
    until(20);
    CHECK_EQ(cactus_timer_start(&t_self), CACTUS_OK); /* 22, 24, 26, then it stops itself */
    CHECK_EQ(cactus_timer_start(&t_fa), CACTUS_OK);   /* 25 */
    CHECK_EQ(cactus_timer_start(&t_fb), CACTUS_OK);   /* 25, after fa */
    until(40);
    CHECK_EQ(cactus_timer_active(&t_self), 0);
    static const char want_what[] = "APOCPCCPOSSabS";
    static const uint32_t want_when[] = { 3, 4, 6, 7, 8, 9, 11, 12, 19, 22, 24, 25, 25, 26 };
    CHECK_EQ(n, sizeof want_when / sizeof want_when[0]);
    for (int i = 0; i < n; i++) {
        CHECK_EQ(what[i], want_what[i]);
        CHECK_EQ(when[i], want_when[i]);
    }
    cactus_timer bad;
    CHECK_EQ(cactus_timer_init(&bad, "bad", 0, 0, fired, 0), CACTUS_EINVAL);
    CHECK_EQ(cactus_timer_init(&bad, "bad", 1, 0, 0, 0), CACTUS_EINVAL);
    ktest_pass();
}

static cactus_timer *const autostart[] = { &t_auto };
static const cactus_timer_table table = { autostart, 1 };

static const cactus_task_desc tasks[] = {
    { .name = "main", .entry = main_task, .stack_size = 1024, .prio = 10 },
    { .name = "timers", .entry = cactus_timer_task, .arg = (void *)&table, .stack_size = 1024,
      .prio = 30 },
};

int main(void)
{
    cactus_timer_init(&t_auto, "auto", 3, 0, fired, (void *)'A');
    cactus_timer_init(&t_per, "per", 4, 1, fired, (void *)'P');
    cactus_timer_init(&t_one, "one", 5, 0, fired, (void *)'O');
    cactus_timer_init(&t_chg, "chg", 10, 1, fired, (void *)'C');
    cactus_timer_init(&t_self, "self", 2, 1, self_stop, (void *)'S');
    cactus_timer_init(&t_fa, "fa", 5, 0, fired, (void *)'a');
    cactus_timer_init(&t_fb, "fb", 5, 0, fired, (void *)'b');
    ktest_start(tasks, 2);
}
