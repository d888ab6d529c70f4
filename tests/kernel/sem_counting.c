/* Counting semaphore semantics without blocking: counts, NO_WAIT failure, the maximum, and
 * argument checks. */
#include "ktest.h"

const char ktest_name[] = "sem_counting";

static void task(void *arg)
{
    (void)arg;
    cactus_sem s;
    CHECK_EQ(cactus_sem_init(&s, 4, 3), CACTUS_EINVAL);
    CHECK_EQ(cactus_sem_init(&s, 0, 0), CACTUS_EINVAL);
    CHECK_EQ(cactus_sem_init(&s, 2, 3), CACTUS_OK);
    CHECK_EQ(cactus_sem_take(&s, CACTUS_NO_WAIT), CACTUS_OK);
    CHECK_EQ(cactus_sem_take(&s, CACTUS_NO_WAIT), CACTUS_OK);
    CHECK_EQ(cactus_sem_count(&s), 0);
    CHECK_EQ(cactus_sem_take(&s, CACTUS_NO_WAIT), CACTUS_ETIMEOUT);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(cactus_sem_give(&s), CACTUS_OK);
    CHECK_EQ(cactus_sem_give(&s), CACTUS_EFULL);
    CHECK_EQ(cactus_sem_count(&s), 3);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(cactus_sem_take(&s, 10), CACTUS_OK);
    CHECK_EQ(cactus_now(), 0); /* none of them waited */
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "task", .entry = task, .stack_size = 1024, .prio = 3 },
};

int main(void)
{
    ktest_start(tasks, 1);
}
