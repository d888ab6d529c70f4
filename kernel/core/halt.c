/* Stopping the system: a fault report (k_halt), a stop with an exit code (k_stop) and a kernel
 * panic (k_panic). Each prints its report on the console and ends the run through the test
 * finisher; the halt hook, when configured, runs first (on the kernel stack). */
#include "k.h"
#include "../trace/ktrace.h"

void k_halt(const cactus_fault *f, const char *why)
{
    port_irq_save();
    k_report("cactus: HALT: task %u '%s': %s\n", f->task, cactus_task_name(f->task), why);
    k_report("cactus: cause=%u pc=%08x tval=%08x sp=%08x limit=%08x need=%u\n", f->cause,
            f->pc, f->tval, f->sp, f->limit, f->requested);
    ktrace_stacks();
    if (k_cfg && k_cfg->halt_hook)
        k_cfg->halt_hook(f);
    port_exit(CACTUS_EXIT_HALT);
}

void k_stop(uint32_t code, const char *why)
{
    port_irq_save();
    k_report("cactus: %s\n", why);
    ktrace_stacks();
    if (k_cfg && k_cfg->halt_hook)
        k_cfg->halt_hook(0);
    port_exit(code);
}

void k_panic(const char *why)
{
    port_irq_save();
    k_report("cactus: PANIC: %s\n", why);
    port_exit(CACTUS_EXIT_PANIC);
}
