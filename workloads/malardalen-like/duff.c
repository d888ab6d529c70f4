/* duff.c: Duff's device (a switch jumping into an 8-way unrolled copy loop) copying a 43-byte
 * record, then copying it back reversed through a second Duff loop. The byte count is fixed,
 * so the entry point and the number of loop turns never change: single path. Per activation:
 * 43 new random bytes. Check: the reversed copy of the reversed copy equals the source. */
#include "mal_sp.h"
#include "malardalen.h"

#define DUFF_N 43u

static struct {
    wl_run_t run;
    uint8_t src[DUFF_N], mid[DUFF_N], back[DUFF_N];
} st;

void duff_init(uint32_t size_class)
{
    mal_run_init(&st.run, size_class, 0xd0ffu);
}

/* Copies count >= 1 bytes from from[start], from[start + step], ... to to[0..count). */
static void duff_copy(uint8_t *to, const uint8_t *from, int32_t start, int32_t step,
                      uint32_t count)
{
    int32_t at = start;
    uint32_t turns = (count + 7u) / 8u;
    switch (count % 8u) {
    case 0:
        do {
            *to++ = from[at];
            at += step;
            /* fall through */
        case 7:
            *to++ = from[at];
            at += step;
            /* fall through */
        case 6:
            *to++ = from[at];
            at += step;
            /* fall through */
        case 5:
            *to++ = from[at];
            at += step;
            /* fall through */
        case 4:
            *to++ = from[at];
            at += step;
            /* fall through */
        case 3:
            *to++ = from[at];
            at += step;
            /* fall through */
        case 2:
            *to++ = from[at];
            at += step;
            /* fall through */
        case 1:
            *to++ = from[at];
            at += step;
        } while (--turns > 0);
    }
}

int duff_round(void)
{
    wl_run_t *r = &st.run;
    for (uint32_t i = 0; i < DUFF_N; i++)
        st.src[i] = (uint8_t)wl_prng_next(&r->rng);
    duff_copy(st.mid, st.src, DUFF_N - 1, -1, DUFF_N);
    duff_copy(st.back, st.mid, DUFF_N - 1, -1, DUFF_N);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < DUFF_N; i++) {
        bad |= st.back[i] ^ st.src[i];
        r->sum = wl_mix32(r->sum, st.mid[i]);
    }
    r->failures += bad != 0;
    return wl_run_next(r);
}

uint32_t duff_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t duff_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xffabdf8eu, 0xa9054ad8u};
    return wl_run_expected(expected, size_class);
}

const wl_program_t duff_program = {"duff", duff_init, duff_round, duff_checksum, duff_expected};
