/* Link-time variant: no console reports. A firmware that links this object before the kernel
 * library gets these definitions instead of core/halt.c's and arch/rv32/report.S's weak
 * k_report (neither is then linked): the kernel's fault, stop, panic and deadlock reports and
 * the stack strategies' refusal lines print nothing, and with link-time optimisation their
 * format strings, reasons and arguments are not linked either (nor kprintf, unless the
 * application calls it: application output is unchanged). Every stop keeps its exit code
 * (CACTUS_EXIT_HALT, _PANIC, _IDLE), the trace device still gets the stack high-water marks and
 * the halt hook still runs, so a fault ends the run as it would with reports, as FreeRTOS's
 * default handlers stop without printing. A manifest selects it with
 * `kernel.variants = ["quiet"]` (docs/manifest.md); docs/kernel.md "Footprint" gives what it
 * saves. */
#include "../core/k.h"
#include "../trace/ktrace.h"

int k_report(const char *fmt, ...)
{
    (void)fmt;
    return 0;
}

void k_halt(const cactus_fault *f, const char *why)
{
    (void)why;
    port_irq_save();
    ktrace_stacks();
    if (k_cfg && k_cfg->halt_hook)
        k_cfg->halt_hook(f);
    port_exit(CACTUS_EXIT_HALT);
}

void k_stop(uint32_t code, const char *why)
{
    (void)why;
    port_irq_save();
    ktrace_stacks();
    if (k_cfg && k_cfg->halt_hook)
        k_cfg->halt_hook(0);
    port_exit(code);
}

void k_panic(const char *why)
{
    (void)why;
    port_irq_save();
    port_exit(CACTUS_EXIT_PANIC);
}
