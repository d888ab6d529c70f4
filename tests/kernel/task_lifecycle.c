/* Dynamic tasks: create at run time, exit by returning or by cactus_task_exit, slot and stack
 * reuse (a terminated task's region is handed out again), argument checks and exhaustion. */
#include "ktest.h"

const char ktest_name[] = "task_lifecycle";

static void returns(void *arg)
{
    klog((int)(uintptr_t)arg);
}

static void exits(void *arg)
{
    klog((int)(uintptr_t)arg);
    cactus_task_exit();
}

static void sleeps(void *arg)
{
    cactus_sleep((uint32_t)(uintptr_t)arg);
}

static void parent(void *arg)
{
    (void)arg;
    static const cactus_task_desc r = { .name = "ret", .entry = returns, .arg = (void *)'R',
                                        .stack_size = 1024, .prio = 9 };
    static const cactus_task_desc e = { .name = "exit", .entry = exits, .arg = (void *)'E',
                                        .stack_size = 1024, .prio = 9 };
    int a = cactus_task_create(&r);
    CHECK(a > 0);
    CHECK_EQ(cactus_task_state(a), CACTUS_TASK_EXITED);
    cactus_stack_info first;
    int b = cactus_task_create(&e);
    CHECK(b > 0 && b != a); /* free slots are preferred over terminated ones */
    CHECK_EQ(cactus_task_state(b), CACTUS_TASK_EXITED);
    KLOG_EXPECT("RE");

    /* a blocked child lets us look at its stack, then the same region is reused */
    static const cactus_task_desc s = { .name = "sleepy", .entry = sleeps,
                                        .arg = (void *)100, .stack_size = 1024, .prio = 9 };
    int c = cactus_task_create(&s);
    CHECK(c >= 0);
    CHECK_EQ(cactus_task_stack(c, &first), CACTUS_OK);
    CHECK_EQ(cactus_task_kill(c), CACTUS_OK);
    int d = cactus_task_create(&s);
    cactus_stack_info again;
    CHECK_EQ(cactus_task_stack(d, &again), CACTUS_OK);
    CHECK_EQ(again.base, first.base);
    CHECK_EQ(cactus_task_kill(d), CACTUS_OK);

    /* bad descriptors */
    static const cactus_task_desc bad_prio = { .name = "bad", .entry = returns, .stack_size = 512,
                                               .prio = 32 };
    static const cactus_task_desc no_entry = { .name = "bad", .stack_size = 512, .prio = 1 };
    static const cactus_task_desc huge = { .name = "huge", .entry = returns,
                                           .stack_size = 1024 * 1024, .prio = 1 };
    CHECK_EQ(cactus_task_create(&bad_prio), CACTUS_EINVAL);
    CHECK_EQ(cactus_task_create(&no_entry), CACTUS_EINVAL);
    CHECK_EQ(cactus_task_create(&huge), CACTUS_ENOMEM);
    CHECK_EQ(cactus_task_create(0), CACTUS_EINVAL);

    /* fill every slot with sleeping tasks, then one more fails */
    int n = 0;
    static const cactus_task_desc tiny = { .name = "tiny", .entry = sleeps,
                                           .arg = (void *)1000, .stack_size = 256, .prio = 9 };
    int id;
    while ((id = cactus_task_create(&tiny)) >= 0)
        n++;
    CHECK_EQ(id, CACTUS_ENOMEM);
    kprintf("created %d more tasks before ENOMEM\n", n);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "parent", .entry = parent, .stack_size = 1024, .prio = 4 },
};

int main(void)
{
    ktest_start(tasks, 1);
}
