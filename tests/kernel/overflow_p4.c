/* Overflow pattern 4: 56 bytes below the stack (guard intact), function returns before any switch: missed, silent corruption. */
#define PATTERN 4
#define WRITE_ALL 0
#define SWITCH_INSIDE 0
#define EXPECT_REASON 0
const char ktest_name[] = "overflow_p4";
#include "overflow.inc.h"
