/* A failing check in kernel code (tp = the kernel stack's descriptor) is a kernel panic report,
 * never a resumption or corruption: the fault hook (kernel code on the kernel stack) calls a
 * function needing 4 KiB, more than the 2 KiB kernel stack; the kernel prints the panic
 * report, passes it to the halt hook (which ends this test) and would exit with code 2. */
#include "check_sites.h"
#include "ktest.h"

const char ktest_name[] = "check_kpanic";

extern char port_kstack_bottom[], port_kstack_top[]; /* link.ld */

static volatile int in_hook;

static void fault_hook(const cactus_fault *f)
{
    CHECK_EQ(f->reason, CACTUS_FAULT_EXCEPTION); /* the task's plain ecall */
    in_hook = 1;
    ck_fill_4096(0x5A); /* overflows the kernel stack: panic */
    in_hook = 2;
}

static void halt_hook(const cactus_fault *f)
{
    CHECK(f != 0);
    CHECK_EQ(in_hook, 1);
    CHECK_EQ(f->reason, CACTUS_FAULT_STACK_REQUEST);
    CHECK_EQ(f->task, 0xffff);
    CHECK_EQ(f->pc, (uintptr_t)ck_fill_4096_site);
    CHECK_EQ(f->requested, 4096 - 16);
    CHECK_EQ(f->limit, (uintptr_t)port_kstack_bottom);
    CHECK(f->sp >= (uintptr_t)port_kstack_bottom && f->sp < (uintptr_t)port_kstack_top);
    kprintf("kernel check: panic report, need %u\n", f->requested);
    ktest_pass();
}

static void task(void *arg)
{
    (void)arg;
    ck_plain_ecall();
    klog('!');
}

static const cactus_task_desc tasks[] = {
    { .name = "task", .entry = task, .stack_size = 1024, .prio = 5 },
};

int main(void)
{
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 1, .tasks = tasks, .ntasks = 1,
                                 .fault_hook = fault_hook, .halt_hook = halt_hook };
    ktest_start_cfg(&cfg);
}
