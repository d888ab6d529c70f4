/* The kernel's console reports (k_report, core/k.h): printed with kprintf's formatter. A
 * firmware that links variants/quiet.c before the kernel gets its silent k_report instead, and
 * this object (and kprintf's, unless the application prints) is not linked. */
#include "../core/k.h"

void k_report(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kvprintf(fmt, ap);
    va_end(ap);
}
