/* An overflow caught by the sp-limit check whose frame reached into the stack below, which
 * belongs to a live (blocked) task: that task's stack is known to be damaged, so it is not
 * resumed either; its own policy applies with reason STACK_COLLATERAL. A task whose stack
 * lies elsewhere is untouched. */
#include "ktest.h"

const char ktest_name[] = "overflow_collateral";

static volatile uintptr_t region_base;
static cactus_fault faults[4];
static int nfaults;
static cactus_sem never;

static void hook(const cactus_fault *f)
{
    if (nfaults < 4)
        faults[nfaults++] = *f;
}

static void __attribute__((noinline)) smash(void)
{
    uintptr_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    uintptr_t bottom = region_base - 32;
    uint32_t n = (uint32_t)(sp - bottom) + 16;
    volatile uint8_t big[n];
    for (uint32_t i = (uint32_t)(bottom - (uintptr_t)big); i < n; i++)
        big[i] = 0x77;
    cactus_sleep(1);
}

static void overflower(void *arg)
{
    (void)arg;
    smash();
    klog('!');
}

static void victim(void *arg)
{
    (void)arg;
    cactus_sem_take(&never, CACTUS_FOREVER);
    klog('!');
}

static const cactus_task_desc far_d = { .name = "far", .entry = victim, .stack_size = 512,
                                        .prio = 3 };
static const cactus_task_desc victim_d = { .name = "victim", .entry = victim, .stack_size = 512,
                                           .prio = 3, .on_fault = CACTUS_ON_FAULT_KILL };
static const cactus_task_desc ovf_d = { .name = "overflower", .entry = overflower,
                                        .stack_size = 1024, .prio = 5 };

static void ctl(void *arg)
{
    (void)arg;
    int far = cactus_task_create(&far_d);
    int v = cactus_task_create(&victim_d);
    int o = cactus_task_create(&ovf_d);
    cactus_stack_info vs, os;
    cactus_task_stack(v, &vs);
    cactus_task_stack(o, &os);
    CHECK_EQ(vs.base + vs.size, os.base);
    region_base = os.base;
    cactus_sleep(5);
    CHECK_EQ(nfaults, 2);
    CHECK_EQ(faults[0].task, o);
    CHECK_EQ(faults[0].reason, CACTUS_FAULT_STACK_SP);
    CHECK_EQ(faults[1].task, v);
    CHECK_EQ(faults[1].reason, CACTUS_FAULT_STACK_COLLATERAL);
    CHECK_EQ(cactus_task_state(o), CACTUS_TASK_FAULTED);
    CHECK_EQ(cactus_task_state(v), CACTUS_TASK_FAULTED);
    CHECK_EQ(cactus_task_state(far), CACTUS_TASK_BLOCKED);
    CHECK_EQ(klog_len(), 0);
    kprintf("overflower killed (sp check), victim below it killed (collateral), far task intact\n");
    ktest_oracle_violations_allowed = 1; /* the overflow wrote into the victim's stack */
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "ctl", .entry = ctl, .stack_size = 2048, .prio = 10 },
};

int main(void)
{
    cactus_sem_init(&never, 0, 1);
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 1, .tasks = tasks, .ntasks = 1,
                                 .fault_hook = hook };
    ktest_start_cfg(&cfg);
}
