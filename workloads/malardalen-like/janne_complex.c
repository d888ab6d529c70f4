/* janne_complex.c: two nested loops whose trip counts depend on the inputs in an irregular
 * way (the flow-analysis puzzle of the janne_complex task), made single path: the loop nest
 * is run as a step function (one inner-loop body, or one outer-loop tail followed by the outer
 * test, or nothing once done) applied a fixed JC_STEPS times, with every choice made by
 * masks. The nest:
 *     while (a < 40) { while (b < a) { b = b > 6 ? 2b : b + 3; a += b % 4 == 0 ? 5 : 1; }
 *                      a += 3; b -= 7; }
 * Per activation: eight (a, b) pairs, a in [0, 30), b in [-10, 30). Check: at initialisation,
 * on every round's inputs, the ordinary branching loop nest ends within JC_STEPS steps (so the
 * single-path nest runs it to its end); every round's results reach the checksum, whose
 * expected values are the branching nest's. A round reads no table
 * indexed by the round: its memory accesses are the same in every activation, so its time is
 * too (a per-round table of expected results, 6,400 bytes, made a round whose row lay outside
 * the Carousel blocks 16 external-RAM loads slower: docs/carousel.md). */
#include "mal_sp.h"
#include "malardalen.h"

#define JC_PAIRS 8
#define JC_STEPS 64

static struct {
    wl_run_t run;
} st;

/* The branching loop nest; returns the number of steps taken (inner bodies plus tails). */
static uint32_t nest_reference(int32_t *a, int32_t *b)
{
    uint32_t steps = 0;
    while (*a < 40) {
        while (*b < *a) {
            *b = *b > 6 ? 2 * *b : *b + 3;
            *a += *b % 4 == 0 ? 5 : 1;
            steps++;
        }
        *a += 3;
        *b -= 7;
        steps++;
    }
    return steps;
}

static void nest_single_path(int32_t *pa, int32_t *pb)
{
    int32_t a = *pa, b = *pb;
    uint32_t running = a < 40; /* inside the outer loop's body */
    for (int s = 0; s < JC_STEPS; s++) {
        uint32_t inner = running & (b < a), tail = running & (inner ^ 1u);
        int32_t nb = sp_sel(b > 6, 2 * b, b + 3);
        int32_t na = a + sp_sel((nb & 3) == 0, 5, 1);
        a = sp_sel(inner, na, sp_sel(tail, a + 3, a));
        b = sp_sel(inner, nb, sp_sel(tail, b - 7, b));
        running &= inner | (a < 40); /* the outer test runs only after a tail */
    }
    *pa = a;
    *pb = b;
}

static void next_pair(int32_t *a, int32_t *b)
{
    *a = (int32_t)wl_prng_below(&st.run.rng, 30);
    *b = (int32_t)wl_prng_below(&st.run.rng, 40) - 10;
}

void janne_complex_init(uint32_t size_class)
{
    mal_run_init(&st.run, size_class, 0x7a22eu);
    for (uint32_t r = 0; r < st.run.limit; r++)
        for (int p = 0; p < JC_PAIRS; p++) {
            int32_t a, b;
            next_pair(&a, &b);
            st.run.failures += nest_reference(&a, &b) > JC_STEPS;
        }
    /* The rounds regenerate the same inputs from the same seed; a failed check stays counted
     * (it makes the checksum wrong). */
    uint32_t failures = st.run.failures;
    mal_run_init(&st.run, size_class, 0x7a22eu);
    st.run.failures = failures;
}

int janne_complex_round(void)
{
    wl_run_t *r = &st.run;
    for (int p = 0; p < JC_PAIRS; p++) {
        int32_t a, b;
        next_pair(&a, &b);
        nest_single_path(&a, &b);
        r->sum = wl_mix32(r->sum, (uint32_t)a << 16 ^ (uint32_t)b);
    }
    return wl_run_next(r);
}

uint32_t janne_complex_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t janne_complex_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x08c2b3e3u, 0xfc3f7ef2u};
    return wl_run_expected(expected, size_class);
}

const wl_program_t janne_complex_program = {"janne_complex", janne_complex_init,
                                            janne_complex_round, janne_complex_checksum,
                                            janne_complex_expected};
