/* The `mtss+split` stack strategy (docs/segmented.md, "The mtss+split hybrid"): MTSS
 * (stack/mtss.c) with a stacklet heap as its fallback. A frame whose entry check fails first
 * borrows free pages of a switched-out task's region exactly as in `mtss`; when no lender has
 * room it gets a stacklet from a TLSF heap exactly as in `segmented` (stack/stacklets.h). The
 * heap is the stack pool's lowest CACTUS_STACKLET_POOL bytes (whole MTSS pages), so the tasks'
 * regions and the heap share one budget, CACTUS_STACK_POOL_SIZE; loans and stacklets form one
 * chain per task, popped by the one return trampoline. This file is only that configuration. */
#ifndef CACTUS_STACKLET_POOL
#define CACTUS_STACKLET_POOL 4096
#endif
_Static_assert(CACTUS_STACKLET_POOL > 0, "mtss+split needs a stacklet heap (CACTUS_STACKLET_POOL)");
#include "mtss.c"
