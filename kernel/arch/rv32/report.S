/* k_report (core/k.h), the kernel's console reports: kprintf's output. A tail jump rather than
 * a C wrapper or a symbol alias: the caller's arguments (the format in a0, the variadic ones in
 * a1-a7) reach kprintf unchanged, no stack frame is added on any path (a task's or the kernel
 * stack's bound is kprintf's, as before), and `cactus stack-report` follows the jump like any
 * tail call. Weak: a firmware that links variants/quiet.c gets its strong, silent k_report
 * instead (and a manifest firmware leaves this file out: crates/firmware kernel_units.rs). */
    .section .text.k_report, "ax", @progbits
    .weak k_report
    .type k_report, @function
    .balign 2
k_report:
    tail kprintf
    .size k_report, . - k_report
