/* Overflow pattern 2 with yields: the large array written past the stack end, the function
 * returns, then a yield to the partner at the task's level: caught by the yield's guard check
 * (the canary below the limit). */
#define PATTERN 2
#define WRITE_ALL 1
#define SWITCH_INSIDE 0
#define SWITCH_BY_YIELD 1
#define EXPECT_REASON CACTUS_FAULT_STACK_GUARD
const char ktest_name[] = "overflow_yield_guard";
#include "overflow.inc.h"
