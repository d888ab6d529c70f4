/* Overflow pattern 3 with yields: 56 bytes written below the stack (guard intact), then a yield
 * to the partner at the task's level inside the function: caught by the yield's sp-limit check. */
#define PATTERN 3
#define WRITE_ALL 0
#define SWITCH_INSIDE 1
#define SWITCH_BY_YIELD 1
#define EXPECT_REASON CACTUS_FAULT_STACK_SP
const char ktest_name[] = "overflow_yield_sp";
#include "overflow.inc.h"
