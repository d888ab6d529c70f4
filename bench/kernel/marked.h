/* Marked kernel calls for the context-switch benchmark (cactus-sim only).
 *
 * MARKED_CALL(fn, x0, x1, before, after) calls fn(x0, x1) with a trace-device MARKER event
 * committed by the instruction right before the call (`jalr`, id `before`) and another committed by
 * the second instruction executed after the call returns (id `after`; the first writes ARG0).
 * The device values live in callee-saved registers, so no instruction of the caller sits
 * between the markers and the call. Each event carries the simulator's cycle and instret at the
 * start of the committing store, so the host computes
 *   path = event(after) - event(before) - the two marker stores,
 * i.e. everything from the call (`jalr`, one instruction like a
 * relaxed `call`) in the task that leaves to the first instruction of the task
 * that resumes (its return from its own kernel call). CALIBRATE() commits two events back to
 * back (EVENT, ARG0, EVENT) so the host measures the stores' cost instead of assuming it. */
#ifndef BENCH_MARKED_H
#define BENCH_MARKED_H

#include <stdint.h>
#include "cactus/trace.h"

/* MARKED_CALL3 passes a third argument (a2); MARKED_CALL is it with a2 = 0, set before the
 * first marker, so outside the measured interval. */
#define MARKED_CALL(fn, x0, x1, before, after) MARKED_CALL3(fn, x0, x1, 0, before, after)

#define MARKED_CALL3(fn, x0, x1, x2, before, after)                                               \
    do {                                                                                           \
        register uintptr_t a0_ __asm__("a0") = (uintptr_t)(x0);                                    \
        register uintptr_t a1_ __asm__("a1") = (uintptr_t)(x1);                                    \
        register uintptr_t a2_ __asm__("a2") = (uintptr_t)(x2);                                    \
        register uint32_t tb_ __asm__("s2") = CACTUS_TRACE_BASE;                                   \
        register uint32_t ev_ __asm__("s3") = CACTUS_EV_MARKER;                                    \
        register uint32_t idb_ __asm__("s4") = (before);                                           \
        register uint32_t ida_ __asm__("s5") = (after);                                            \
        register uintptr_t fn_ __asm__("s6") = (uintptr_t)(fn);                                    \
        __asm__ volatile("sw %[idb], 0x10(%[tb])\n\t"                                             \
                         "sw %[ev], 0x20(%[tb])\n\t"                                              \
                         "jalr %[callee]\n\t"                                                      \
                         "sw %[ida], 0x10(%[tb])\n\t"                                             \
                         "sw %[ev], 0x20(%[tb])"                                                  \
                         : "+r"(a0_), "+r"(a1_), "+r"(a2_)                                         \
                         : [tb] "r"(tb_), [ev] "r"(ev_), [idb] "r"(idb_), [ida] "r"(ida_),         \
                           [callee] "r"(fn_)                                                       \
                         : "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a3", "a4", "a5", "a6", \
                           "a7", "memory");                                                        \
    } while (0)

#define CALIBRATE(first, second)                                                                   \
    do {                                                                                           \
        register uint32_t tb_ __asm__("s2") = CACTUS_TRACE_BASE;                                   \
        register uint32_t ev_ __asm__("s3") = CACTUS_EV_MARKER;                                    \
        register uint32_t idb_ __asm__("s4") = (first);                                            \
        register uint32_t ida_ __asm__("s5") = (second);                                           \
        __asm__ volatile("sw %[idb], 0x10(%[tb])\n\t"                                             \
                         "sw %[ev], 0x20(%[tb])\n\t"                                              \
                         "sw %[ida], 0x10(%[tb])\n\t"                                             \
                         "sw %[ev], 0x20(%[tb])"                                                  \
                         :                                                                         \
                         : [tb] "r"(tb_), [ev] "r"(ev_), [idb] "r"(idb_), [ida] "r"(ida_)          \
                         : "memory");                                                              \
    } while (0)

static inline void bench_marker(uint32_t id, uint32_t value)
{
    cactus_trace_marker(id, value);
}

#endif
