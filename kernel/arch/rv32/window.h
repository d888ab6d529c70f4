/* The translation backend of the `relocate` strategy (docs/sensmart.md), chosen by the
 * kernel's configuration: the hardware stack window (window_hw.h, cactus-sim's extension;
 * CACTUS_STACK_WINDOW=1) or its software variant (window_sw.h, code built with `cactus cc
 * --logical-stack`; CACTUS_STACK_WINDOW=1 and CACTUS_STACK_WINDOW_SW=1). Both give the same
 * interface: STACK_WINDOW_FROM (assembly), port_window_set, PORT_WINDOW_* and
 * port_window_moved / port_window_task_ptr (C). A kernel without CACTUS_STACK_WINDOW takes the
 * hardware header, whose macros then expand to nothing. */
#ifndef CACTUS_WINDOW_H
#define CACTUS_WINDOW_H

#ifndef CACTUS_STACK_WINDOW
#define CACTUS_STACK_WINDOW 0
#endif
#ifndef CACTUS_STACK_WINDOW_SW
#define CACTUS_STACK_WINDOW_SW 0
#endif

#if CACTUS_STACK_WINDOW_SW
#include "window_sw.h"
#else
#include "window_hw.h"
#endif

#endif
