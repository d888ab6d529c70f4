/* Host stand-in for tests/common/rt.h, used only to compute the expected
 * values of tests/isa/c_mix.c independently of any RISC-V machine:
 *
 *   gcc -O2 -I tests/common/host -o /tmp/c_mix_host tests/isa/c_mix.c
 *   /tmp/c_mix_host | grep 'define EXPECT'
 *
 * CHECK_EQ prints "#define <expected-expression> <got>", so the EXPECT_*
 * lines are the host's results in the form c_mix.c keeps them. HOST_EXPECT
 * makes c_mix.c skip its own EXPECT_* block; the zeros below stand in. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define rt_puts(s) fputs((s), stdout)
#define rt_putc(c) putchar(c)
#define rt_puthex(v) printf("0x%08x", (unsigned)(v))
#define rt_puthex64(v) printf("0x%016llx", (unsigned long long)(v))
#define CHECK(c) do { if (!(c)) printf("host CHECK failed at line %d\n", __LINE__); } while (0)
#define CHECK_EQ(id, got, exp) ((void)(exp), printf("#define %s 0x%08xu\n", #exp, (unsigned)(got)))
#define rt_summary(name) 0

#define HOST_EXPECT 1
#define EXPECT_CRC 0
#define EXPECT_SORT 0
#define EXPECT_HANOI 0
#define EXPECT_STRUCT 0
#define EXPECT_SWITCH 0
#define EXPECT_WIDE_HI 0
#define EXPECT_WIDE_LO 0
#define EXPECT_NARROW 0
#define EXPECT_TOTAL 0
