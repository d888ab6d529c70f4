/* workload.c: the malardalen-like suite as one runner list (Carousel Table II order). */
#include "malardalen.h"

/** Name printed by the bare-metal runner. */
const char wl_workload_name[] = "malardalen";

/** The thirteen programs, run round-robin by the runner. */
const wl_program_t *const wl_workload_programs[13] = {
    &binarysearch_program, &bsort100_program, &cnt_program,        &compress_program,
    &crc_program,          &duff_program,     &expint_program,     &fdct_program,
    &fir_program,          &insertsort_program, &janne_complex_program, &jfdctint_program,
    &matmult_program,
};
