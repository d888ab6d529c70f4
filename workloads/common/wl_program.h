/* wl_program.h: the kernel-independent interface every workload program exposes.
 *
 * A program does its work in rounds so a task can block between rounds (waiting for an
 * input chunk or its period). Guarantees every program gives:
 *   - P_init(size_class) resets all state; size_class 0 = small (tests), 1 = full (benchmarks).
 *   - P_round() does one round of real computation; returns 1 while rounds remain, 0 when done.
 *   - P_checksum() is a deterministic function of everything computed so far, identical on
 *     every target (host x86-64, rv32 soft-float).
 *   - P_expected(size_class) is the final checksum of a correct run (for self-check).
 * No program allocates from a heap, reads files or depends on timing. */
#ifndef WL_PROGRAM_H
#define WL_PROGRAM_H

#include <stdint.h>

/** Progress of one program: running checksum and rounds completed. */
typedef struct {
    uint32_t checksum;
    uint32_t rounds_done;
} wl_result_t;

/** Descriptor of one program, so drivers can iterate over a workload's programs. */
typedef struct {
    const char *name;
    void (*init)(uint32_t size_class);
    int (*round)(void);
    uint32_t (*checksum)(void);
    uint32_t (*expected)(uint32_t size_class);
} wl_program_t;

/** Number of size classes every program supports (0 small, 1 full). */
#define WL_SIZE_CLASSES 2u

#endif
