/* Every live task waits for stack memory under the `mtss+split` hybrid: the scenario of
 * segmented_deadlock.c on a 7 KiB stacklet heap (tests/Makefile HYBRID_CFLAGS). `a` and `b`
 * (256-byte regions: neither can lend) hold stacklets of 4000 and 1500 bytes and each asks for
 * 3000 more; no release can come, so the kernel reports the deadlock and stops
 * (CACTUS_EXIT_HALT) instead of hanging. */
#define KTEST_NAME "hybrid_deadlock"
#include "segmented_deadlock.c"
