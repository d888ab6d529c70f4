/* Frames whose end address is taken (docs/mtss.md, "Frames whose end address is only
 * compared"), moved by MTSS where `cactus cc` proves it sound and kept where it does not.
 *
 * `fill_sum`, a leaf, fills a local array that ends at its frame's end: GCC walks a cursor from
 * sp and compares it with the entry sp, an address at or above the entry sp that only feeds
 * comparisons (telecomm's `crc32_round`). The def-use scan lets the frame move (KIND 0); the
 * `ends` task, with the smallest budget, runs it in another task's pages and must get the sum
 * the lender gets at home.
 *
 * `stack_args` takes the address of its first stack argument and passes it to `sum_via`, which
 * reads and writes through it: the address escapes into a callee that uses it, so the frame is
 * pinned (KIND 2) and the `escapes` task's request is refused (it is killed and says why).
 * crates/verify/tests/mtss_unpin_mutation.rs also runs the ELF with that one site's kind
 * cleared (what a scan that wrongly unpinned it would emit): the frame then moves without the
 * bytes its callee reaches through the pointer, and the run must show it (the ownership
 * oracle, a wrong sum or a fault). */
#include <cactus/cactus.h>
#include <stdint.h>

#define N 512u
#define ARGS_SUM (11u + 12u + 13u + 14u)

static volatile uint32_t ends_sum, escapes_sum;

uint32_t __attribute__((noinline)) fill_sum(uint32_t seed)
{
    uint8_t buf[N];
    for (uint8_t *p = buf; p != buf + N; p += 4) {
        seed = seed * 1103515245u + 12345u;
        p[0] = (uint8_t)seed;
        p[1] = (uint8_t)(seed >> 8);
        p[2] = (uint8_t)(seed >> 16);
        p[3] = (uint8_t)(seed >> 24);
    }
    uint32_t s = 0;
    for (const uint8_t *p = buf; p != buf + N; p++)
        s = s * 31u + *p;
    return s;
}

/* Reads the four stack arguments through the pointer and bumps them in place. */
uint32_t __attribute__((noinline)) sum_via(volatile uint32_t *p)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i < 4; i++) {
        s += p[i];
        p[i] = p[i] + 1u;
    }
    return s;
}

uint32_t __attribute__((noinline)) stack_args(uint32_t a, uint32_t b, uint32_t c, uint32_t d,
                                              uint32_t e, uint32_t f, uint32_t g, uint32_t h,
                                              uint32_t i, uint32_t j, uint32_t k, uint32_t l)
{
    /* j, k and l are reached only through the pointer: the function itself reads no stack
     * argument through sp, so a move would copy none (ARGS = 0). */
    (void)j;
    (void)k;
    (void)l;
    volatile uint8_t pad[N]; /* a frame of several pages */
    pad[0] = (uint8_t)(a + b + c + d);
    pad[N - 1] = (uint8_t)(e + f + g + h);
    cactus_yield();
    return sum_via((volatile uint32_t *)&i) + pad[0] - pad[0];
}

/* The two small tasks print nothing themselves (kprintf's variadic frame is pinned and does
 * not fit their budgets): the lender reports for them once they have ended. */
void lender_main(void *arg)
{
    (void)arg;
    uint32_t home = fill_sum(0x1234u);
    for (int i = 0; i < 200; i++)
        cactus_yield(); /* switched out with free pages below its sp */
    kprintf("ends sum=%u: %s\n", (unsigned)ends_sum, ends_sum == home ? "ok" : "WRONG");
    kprintf("escapes sum=%u: %s\n", (unsigned)escapes_sum,
            escapes_sum == ARGS_SUM ? "ok" : (escapes_sum ? "WRONG" : "none"));
    cactus_exit(0);
}

void ends_main(void *arg)
{
    (void)arg;
    ends_sum = fill_sum(0x1234u); /* 512 bytes from a 128-byte budget: only on loan */
}

void escapes_main(void *arg)
{
    (void)arg;
    escapes_sum = stack_args(1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14);
}
