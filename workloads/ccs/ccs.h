/* ccs.h: the computational kernels of the context-switch (CCS/RMCS) paper's evaluation
 * (section 6): ej, lu, tri, mmul and the 2-D DCT (dct2d). The application programs adpcm,
 * g721, sha and susan are the mtss ones (workloads/mtss/). Each program P exposes the
 * interface of workloads/common/wl_program.h. */
#ifndef CCS_H
#define CCS_H

#include "wl_run.h"

WL_DECLARE_PROGRAM(ej);
WL_DECLARE_PROGRAM(lu);
WL_DECLARE_PROGRAM(tri);
WL_DECLARE_PROGRAM(mmul);
WL_DECLARE_PROGRAM(dct2d);

#endif
