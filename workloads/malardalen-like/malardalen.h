/* malardalen.h: the thirteen single-path programs of the malardalen-like suite (Carousel
 * Table II). Each program P exposes the interface of workloads/common/wl_program.h:
 * P_init(size_class), P_round() (one task activation; executes the same instructions whatever
 * the input), P_checksum(), P_expected(size_class) and the descriptor P_program. */
#ifndef MALARDALEN_H
#define MALARDALEN_H

#include <stdint.h>

#include "wl_program.h"

/** Declares the interface functions and descriptor of program P. */
#define MAL_DECLARE(P)                                                                        \
    void P##_init(uint32_t size_class);                                                       \
    int P##_round(void);                                                                      \
    uint32_t P##_checksum(void);                                                              \
    uint32_t P##_expected(uint32_t size_class);                                               \
    extern const wl_program_t P##_program

MAL_DECLARE(binarysearch);
MAL_DECLARE(bsort100);
MAL_DECLARE(cnt);
MAL_DECLARE(compress);
MAL_DECLARE(crc);
MAL_DECLARE(duff);
MAL_DECLARE(expint);
MAL_DECLARE(fdct);
MAL_DECLARE(fir);
MAL_DECLARE(insertsort);
MAL_DECLARE(janne_complex);
MAL_DECLARE(jfdctint);
MAL_DECLARE(matmult);

#endif
