/* workload.c: the four Crazyflie-like core tasks in Table 1 order. */
#include "crazyflie.h"

/** Name printed by the bare-metal runner. */
const char wl_workload_name[] = "crazyflie";

/** The four programs, run round-robin by the runner. */
const wl_program_t *const wl_workload_programs[4] = {
    &stabilizer_program,
    &sensors_program,
    &crtp_rx_program,
    &crtp_tx_program,
};
