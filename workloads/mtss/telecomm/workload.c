/* workload.c: the telecomm workload of MTSS Table I (four programs, in task order). */
#include "adpcm.h"
#include "fft.h"
#include "crc32.h"
#include "gsm.h"

/** Name printed by the bare-metal runner. */
const char wl_workload_name[] = "telecomm";

/** The four programs, run round-robin by the runner. */
const wl_program_t *const wl_workload_programs[4] = {
    &adpcm_program,
    &fft_program,
    &crc32_program,
    &gsm_program,
};
