/* Overflow pattern 1: a large local array written past the stack end, then a switch inside the function: caught late by the sp-limit check. */
#define PATTERN 1
#define WRITE_ALL 1
#define SWITCH_INSIDE 1
#define EXPECT_REASON CACTUS_FAULT_STACK_SP
const char ktest_name[] = "overflow_p1";
#include "overflow.inc.h"
