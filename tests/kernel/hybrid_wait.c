/* Out of stack memory under the `mtss+split` hybrid behaves as under `segmented`: the scenario
 * of segmented_wait.c, on a 7 KiB stacklet heap (tests/Makefile HYBRID_CFLAGS). Its frames of
 * 5000 and 3000 bytes are larger than every task's region, so no task can lend for them and
 * they take stacklets: the waiter waits until hog's stacklet comes back, or is killed at its
 * check when nothing comes back within the wait; a frame larger than the whole heap is refused
 * at once. */
#define KTEST_NAME "hybrid_wait"
#include "segmented_wait.c"
