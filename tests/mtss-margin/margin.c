/* The per-resume-point lending margin, exercised where it decides (docs/mtss.md, "A margin per
 * resume point"): the lender yields with its sp about margin_target bytes above its region's base,
 * then, resumed, calls `fill`, which is rolled into its caller's check and writes FILL bytes
 * below that sp without a check of its own. While it is switched out, the borrower calls
 * `big`, whose frame needs three pages of another task's stack, and yields inside it.
 *
 * With the right margins the lender keeps at least FILL bytes below its sp, so the two pages
 * under TARGET are not lent: the borrower's request is refused (it is killed, and says why).
 * With margins cut short (crates/verify/tests/mtss_margin_mutation.rs patches the table in the
 * ELF) the pages are lent, `fill` writes into the borrower's frame, and the ownership oracle
 * reports it. The run prints `lender free=N` (bytes between the lender's sp and its base at
 * the yield) so the test can check the layout it relies on. */
#include <cactus/cactus.h>
#include <stdint.h>

#define PAGE_BYTES 128u
/* Bytes between the lender's sp in `step` and its region's base. The test writes other values
 * (16-byte steps over a page) so that one of them puts a page boundary right at the sp less
 * the margin, where a margin one 16-byte unit short lends a page `fill` writes. */
volatile uint32_t margin_target = 3u * PAGE_BYTES + 64u;
#define FILL 192u
#define BIG 300u /* over the rolling cap: big keeps its check; with the record, 3 pages */

static volatile uint32_t sink;

static uint32_t sp_now(void)
{
    uint32_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    return sp;
}

/* Rolled into its caller's check (certainly called, small): no check of its own. */
static void __attribute__((noinline)) fill(void)
{
    volatile uint8_t b[FILL];
    for (uint32_t i = 0; i < FILL; i++)
        b[i] = (uint8_t)i;
    sink = b[0] + b[FILL - 1];
}

static void __attribute__((noinline)) step(void)
{
    cactus_stack_info info;
    cactus_task_stack(cactus_task_self(), &info);
    kprintf("lender free=%u\n", sp_now() - info.base);
    cactus_yield();
    fill();
}

/* Goes down a small frame a level until the sp is at most 16 bytes above base + target. */
static void __attribute__((noinline)) nudge(uint32_t base, uint32_t target)
{
    if (sp_now() - base > target + 16u)
        nudge(base, target);
    else
        step();
    sink++;
}

/* Goes down 48 bytes a level until the sp is within 96 bytes above base + target. */
static void __attribute__((noinline)) descend(uint32_t base, uint32_t target)
{
    volatile uint32_t pad[6];
    pad[0] = base;
    if (sp_now() - base >= target + 96u)
        descend(pad[0], target);
    else
        nudge(pad[0], target);
    sink = pad[0];
}

void lender_main(void *arg)
{
    (void)arg;
    cactus_stack_info info;
    cactus_task_stack(cactus_task_self(), &info);
    descend(info.base, margin_target);
    kprintf("lender done\n");
    cactus_yield(); /* the borrower, if it still lives, returns from big */
    cactus_exit(0);
}

static uint32_t __attribute__((noinline)) big(void)
{
    volatile uint8_t b[BIG];
    for (uint32_t i = 0; i < BIG; i++)
        b[i] = (uint8_t)(i ^ 0x5a);
    cactus_yield(); /* the lender runs fill while this frame is in its pages */
    return b[0] + b[BIG - 1];
}

void borrower_main(void *arg)
{
    (void)arg;
    sink = big();
    kprintf("borrower done\n");
}
