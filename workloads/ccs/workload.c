/* workload.c: the nine CCS benchmarks in the paper's Table I order. Task set A_i is the first
 * i kernels (ej, lu, tri, mmul), B_i the first i applications (dct2d, adpcm, sha, susan). */
#include "adpcm.h"
#include "ccs.h"
#include "g721.h"
#include "sha.h"
#include "susan.h"

/** Name printed by the bare-metal runner. */
const char wl_workload_name[] = "ccs";

/** The nine programs, run round-robin by the runner. */
const wl_program_t *const wl_workload_programs[9] = {
    &ej_program,    &lu_program,   &tri_program, &mmul_program,  &dct2d_program,
    &adpcm_program, &g721_program, &sha_program, &susan_program,
};
