/* SRP release offsets (offset.toml, docs/srp.md): base is released at the dispatcher's start
 * and every 10 ticks; late (start_delay_ms = 4) 4 ticks after base, and every 10 ticks from
 * then. Neither job is ever delayed (nothing else runs), so each starts at its release tick.
 * After RUNS starts of late, every late start must be base's start of the same period plus 4.
 * Without the offset both would start at the same tick and the check fails. */
#include "cactus_firmware.h"

#define RUNS 4
#define OFFSET 4u

static uint32_t base_at[RUNS + 1], late_at[RUNS];
static unsigned base_runs, late_runs;

void base_job(void *arg)
{
    (void)arg;
    if (base_runs <= RUNS)
        base_at[base_runs++] = cactus_now();
}

void late_job(void *arg)
{
    (void)arg;
    late_at[late_runs++] = cactus_now();
    if (late_runs < RUNS)
        return;
    unsigned bad = base_runs < RUNS;
    for (unsigned i = 0; i < RUNS && !bad; i++) {
        bad += late_at[i] - base_at[i] != OFFSET;
        kprintf("srp_offset: period %u: base at %u, late at %u\n", i, (unsigned)base_at[i],
                (unsigned)late_at[i]);
    }
    kprintf("srp_offset: %s\n", bad ? "FAIL" : "PASS");
    cactus_fw_finish(bad ? 1u : 0u);
}
