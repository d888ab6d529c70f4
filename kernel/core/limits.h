/* Kernel sizes that more than one file needs, defined once. A firmware built from a manifest
 * compiles the kernel with -DCACTUS_MAX_TASKS=<its task count> (crates/firmware,
 * Manifest::kernel_defines); the prebuilt libraries (kernel/Makefile) keep the default. */
#ifndef K_LIMITS_H
#define K_LIMITS_H

/* Task slots: TCBs (k_tasks) and the stack strategies' per-task state. */
#ifndef CACTUS_MAX_TASKS
#define CACTUS_MAX_TASKS 40
#endif

#endif
