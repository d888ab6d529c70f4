/* Overflow pattern 3: 56 bytes written below the stack (guard intact), switch inside: caught by the sp-limit check. */
#define PATTERN 3
#define WRITE_ALL 0
#define SWITCH_INSIDE 1
#define EXPECT_REASON CACTUS_FAULT_STACK_SP
const char ktest_name[] = "overflow_p3";
#include "overflow.inc.h"
