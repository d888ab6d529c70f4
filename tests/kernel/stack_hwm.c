/* Painted watermark: the high-water mark grows with the deepest frame a task used and never
 * shrinks; it is measured from outside the task. */
#include "ktest.h"

const char ktest_name[] = "stack_hwm";

static cactus_sem step;

static void user(void *arg)
{
    (void)arg;
    cactus_sem_take(&step, CACTUS_FOREVER);
    ktest_touch_stack(200);
    cactus_sem_take(&step, CACTUS_FOREVER);
    ktest_touch_stack(600);
    cactus_sem_take(&step, CACTUS_FOREVER);
    ktest_touch_stack(100);
    cactus_sem_take(&step, CACTUS_FOREVER);
}

static void meter(void *arg)
{
    (void)arg;
    cactus_stack_info s;
    uint32_t used[4];
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(cactus_task_stack(1, &s), CACTUS_OK);
        used[i] = s.used;
        cactus_sem_give(&step);
    }
    CHECK_EQ(s.size, 1024);
    CHECK_EQ(s.limit, s.base + 16);
    CHECK(used[0] < 200);
    CHECK(used[1] >= 200 && used[1] < 600);
    CHECK(used[2] >= 600 && used[2] < 1008);
    CHECK_EQ(used[3], used[2]); /* a shallower call does not lower the mark */
    kprintf("high water: %u %u %u %u bytes of %u\n", used[0], used[1], used[2], used[3],
            s.size - 16);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "meter", .entry = meter, .stack_size = 1024, .prio = 2 },
    { .name = "user", .entry = user, .stack_size = 1024, .prio = 5 },
};

int main(void)
{
    cactus_sem_init(&step, 0, 1);
    ktest_start(tasks, 2);
}
