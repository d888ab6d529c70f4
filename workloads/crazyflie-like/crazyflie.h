/* crazyflie.h: the four Crazyflie-like core tasks of the segmented-stack paper's Table 1.
 * Each program P exposes the interface of workloads/common/wl_program.h; one round is one
 * task activation (a period for stabilizer, sensors and crtp_rx, one outgoing event for
 * crtp_tx). Periods, stack figures and sleep profile: profile.h. */
#ifndef CRAZYFLIE_H
#define CRAZYFLIE_H

#include "wl_run.h"

WL_DECLARE_PROGRAM(stabilizer);
WL_DECLARE_PROGRAM(sensors);
WL_DECLARE_PROGRAM(crtp_rx);
WL_DECLARE_PROGRAM(crtp_tx);

#endif
