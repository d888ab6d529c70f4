/* malardalen.h: the thirteen single-path programs of the malardalen-like suite (Carousel
 * Table II). Each program P exposes the interface of workloads/common/wl_program.h:
 * P_init(size_class), P_round() (one task activation; executes the same instructions whatever
 * the input), P_checksum(), P_expected(size_class) and the descriptor P_program. */
#ifndef MALARDALEN_H
#define MALARDALEN_H

#include <stdint.h>

#include "wl_run.h"

WL_DECLARE_PROGRAM(binarysearch);
WL_DECLARE_PROGRAM(bsort100);
WL_DECLARE_PROGRAM(cnt);
WL_DECLARE_PROGRAM(compress);
WL_DECLARE_PROGRAM(crc);
WL_DECLARE_PROGRAM(duff);
WL_DECLARE_PROGRAM(expint);
WL_DECLARE_PROGRAM(fdct);
WL_DECLARE_PROGRAM(fir);
WL_DECLARE_PROGRAM(insertsort);
WL_DECLARE_PROGRAM(janne_complex);
WL_DECLARE_PROGRAM(jfdctint);
WL_DECLARE_PROGRAM(matmult);

#endif
