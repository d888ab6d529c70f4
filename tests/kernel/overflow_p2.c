/* Overflow pattern 2: the same array, but the function returns before any switch: caught late by the guard check. */
#define PATTERN 2
#define WRITE_ALL 1
#define SWITCH_INSIDE 0
#define EXPECT_REASON CACTUS_FAULT_STACK_GUARD
const char ktest_name[] = "overflow_p2";
#include "overflow.inc.h"
