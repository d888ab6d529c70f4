/* Machine timer interrupt through the CLINT: mtimecmp (0x0200_4000) and mtime
 * (0x0200_BFF8). Checks ordering facts only, never times:
 * - mtime advances;
 * - with mtimecmp in the past, mip.MTIP is set; with it far in the future,
 *   MTIP is clear (the write takes effect at once);
 * - a pending MTIP is not taken while mie.MTIE = 0 or mstatus.MIE = 0, and
 *   is taken (mcause 0x8000_0007) as soon as both are set;
 * - in the handler MTIP is pending, and pushing mtimecmp clears it;
 * - a handler that re-arms mtimecmp a little ahead gets a stream of
 *   interrupts: the main loop sees the counter reach 5. */
#include "rt.h"

#define MIP_MTIP (1u << 7)
#define MSTATUS_MIE (1u << 3)
#define WANT 5
#define DELTA 200              /* mtime ticks between interrupts */
#define SPIN_LIMIT 20000000u   /* bound on every wait loop */

static volatile uint32_t ticks, bad_cause, mtip_in_handler, mtip_after_push;
static volatile uint32_t rearm = 1;

static void hook(struct rt_trap_frame *f)
{
    if (f->mcause != 0x80000007u) {
        bad_cause = f->mcause;
        rt_set_mtimecmp(~0ull);
        return;
    }
    ticks++;
    if (csr_read(mip) & MIP_MTIP)
        mtip_in_handler++;
    if (rearm && ticks < WANT) {
        rt_set_mtimecmp(rt_mtime() + DELTA);
    } else {
        rt_set_mtimecmp(~0ull);
        if ((csr_read(mip) & MIP_MTIP) == 0)
            mtip_after_push++;
    }
}

int main(void)
{
    rt_set_trap_hook(hook);
    csr_clear(mstatus, MSTATUS_MIE);
    csr_write(mie, 0);

    rt_puts("mtime advances\n");
    uint64_t t0 = rt_mtime();
    uint32_t spins = 0;
    while (rt_mtime() == t0 && spins < SPIN_LIMIT)
        spins++;
    CHECK(rt_mtime() > t0);

    rt_puts("MTIP follows mtimecmp\n");
    rt_set_mtimecmp(~0ull);
    CHECK((csr_read(mip) & MIP_MTIP) == 0);
    rt_set_mtimecmp(0);
    CHECK((csr_read(mip) & MIP_MTIP) != 0);

    rt_puts("masked while MTIE=0 or MIE=0\n");
    csr_set(mstatus, MSTATUS_MIE);     /* MIE=1, MTIE=0 */
    for (volatile int i = 0; i < 100; i++)
        ;
    CHECK(ticks == 0);
    csr_clear(mstatus, MSTATUS_MIE);
    csr_write(mie, MIP_MTIP);          /* MTIE=1, MIE=0 */
    for (volatile int i = 0; i < 100; i++)
        ;
    CHECK(ticks == 0);
    CHECK((csr_read(mip) & MIP_MTIP) != 0);

    rt_puts("taken when enabled\n");
    rearm = 0;
    csr_set(mstatus, MSTATUS_MIE);
    spins = 0;
    while (ticks == 0 && spins < SPIN_LIMIT)
        spins++;
    CHECK(ticks == 1);
    CHECK(mtip_in_handler == 1);
    CHECK(mtip_after_push == 1);
    CHECK((csr_read(mip) & MIP_MTIP) == 0);

    rt_puts("periodic interrupts\n");
    ticks = 0;
    rearm = 1;
    rt_set_mtimecmp(rt_mtime() + DELTA);
    spins = 0;
    while (ticks < WANT && spins < SPIN_LIMIT)
        spins++;
    CHECK(ticks == WANT);
    CHECK(mtip_in_handler == 1 + WANT);
    CHECK(bad_cause == 0);
    /* The last handler pushed mtimecmp away: no more interrupts arrive. */
    for (volatile int i = 0; i < 1000; i++)
        ;
    CHECK(ticks == WANT);

    csr_clear(mstatus, MSTATUS_MIE);
    csr_write(mie, 0);
    rt_set_trap_hook(0);
    return rt_summary("irq_timer");
}
