/* The firmware of ktask.toml: see there. Output is the same on cactus-sim and QEMU. */
#include "cactus_firmware.h"

static volatile uint32_t late_ran_at = 0xFFFFFFFFu;
static volatile uint32_t blinks, blink_ticks_ok = 1;
static volatile uint32_t once_at, once_count;

#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            kprintf("FAIL ktask: line %d: %s\n", __LINE__, #cond);                                \
            cactus_fw_finish(1);                                                                   \
        }                                                                                          \
    } while (0)

void on_blink(cactus_timer *t)
{
    (void)t;
    blinks++;
    if (cactus_now() != 2 * blinks || cactus_task_self() != FW_TIMER_TASK)
        blink_ticks_ok = 0;
}

void on_once(cactus_timer *t)
{
    once_at = cactus_now();
    once_count++;
    EXPECT(t == FW_TIMER_ONCE && !cactus_timer_active(t));
}

void late_task(void *arg)
{
    (void)arg;
    late_ran_at = cactus_now();
}

void main_task(void *arg)
{
    (void)arg;
    EXPECT(cactus_task_state(FW_TASK_LATE) == CACTUS_TASK_SUSPENDED);
    EXPECT(cactus_timer_active(FW_TIMER_BLINK) && !cactus_timer_active(FW_TIMER_ONCE));
    cactus_sleep(5);
    EXPECT(late_ran_at == 0xFFFFFFFFu); /* higher, but suspended: it has not run */
    EXPECT(cactus_timer_start(FW_TIMER_ONCE) == CACTUS_OK); /* fires at 8 */
    EXPECT(cactus_task_resume(FW_TASK_LATE) == CACTUS_OK);
    EXPECT(late_ran_at == 5); /* it ran at once */
    EXPECT(cactus_task_state(FW_TASK_LATE) == CACTUS_TASK_EXITED);
    cactus_sleep(16); /* tick 21: blink fired at 2, 4, ..., 20 */
    EXPECT(cactus_timer_stop(FW_TIMER_BLINK) == CACTUS_OK);
    cactus_sleep(9);
    EXPECT(blinks == 10 && blink_ticks_ok);
    EXPECT(once_count == 1 && once_at == 8);
    kprintf("PASS ktask: late ran at tick %u, %u blinks, once at tick %u\n", late_ran_at,
            blinks, once_at);
    cactus_fw_finish(0);
}
