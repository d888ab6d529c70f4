/* compress.c: single-path LZ77 compression of a 128-byte text. For every position the encoder
 * tries all 32 window distances and all 8 match lengths (fixed work), keeps the longest match
 * (nearest on ties), and emits a literal or a (distance, length) token for positions not
 * covered by the previous match, advancing its output index arithmetically. The decoder walks
 * all 128 output positions the same way, so neither depends on the text. Per activation: a
 * new text of words drawn from a 12-word vocabulary. Check: the decoder reproduces the text. */
#include "mal_sp.h"
#include "malardalen.h"
#include "wl_string.h"

#define CP_N 128
#define CP_WIN 32
#define CP_MAXLEN 8
#define CP_MINLEN 3
#define CP_MATCH 0x8000u

static const char *const words[12] = {"the ", "task ", "stack ", "runs ", "on ", "a ",
                                      "small ", "core ", "and ", "its ", "data ", "moves "};

static const uint8_t word_len[12] = {4, 5, 6, 5, 3, 2, 6, 5, 4, 4, 5, 6};

static struct {
    wl_run_t run;
    /* Text at buf[CP_WIN .. CP_WIN + CP_N), 0xff before it and 0xfe after it (never equal to
     * text bytes, and unequal to each other), so a match can never leave the text. */
    uint8_t buf[CP_WIN + CP_N + CP_MAXLEN];
    uint16_t tok[CP_N + 1];
    uint8_t rec[CP_N];
} st;

void compress_init(uint32_t size_class)
{
    mal_run_init(&st.run, size_class, 0xc03b7e55u);
    memset(st.tok, 0, sizeof st.tok);
}

static void make_text(void)
{
    uint8_t *text = st.buf + CP_WIN;
    memset(st.buf, 0xff, CP_WIN);
    memset(text + CP_N, 0xfe, CP_MAXLEN);
    /* Fixed CP_N steps: each copies the next character of the current word, or starts a new
     * word when the current one is used up (selected arithmetically). */
    uint32_t cur = 0, pos = 0;
    for (uint32_t n = 0; n < CP_N; n++) {
        uint32_t pick = wl_prng_below(&st.run.rng, 12);
        uint32_t fresh = pos >= word_len[cur];
        cur = sp_selu(fresh, pick, cur);
        pos = sp_selu(fresh, 0, pos);
        text[n] = (uint8_t)words[cur][pos];
        pos++;
    }
}

int compress_round(void)
{
    wl_run_t *r = &st.run;
    make_text();
    const uint8_t *text = st.buf + CP_WIN;
    uint32_t out = 0, skip = 0;
    for (uint32_t i = 0; i < CP_N; i++) {
        uint32_t best_len = 0, best_dist = 0;
        for (uint32_t d = 1; d <= CP_WIN; d++) {
            uint32_t run = 1, len = 0;
            for (uint32_t k = 0; k < CP_MAXLEN; k++) {
                run &= text[(int32_t)(i + k) - (int32_t)d] == text[i + k];
                len += run;
            }
            uint32_t better = len > best_len;
            best_len = sp_selu(better, len, best_len);
            best_dist = sp_selu(better, d, best_dist);
        }
        uint32_t emit = skip == 0;
        uint32_t is_match = best_len >= CP_MINLEN;
        st.tok[out] = (uint16_t)sp_selu(is_match, CP_MATCH | best_dist << 4 | best_len, text[i]);
        out += emit;
        skip = sp_selu(emit, sp_selu(is_match, best_len - 1u, 0), skip - 1u);
    }
    /* Decode: one output byte per step; a token starts when the previous one is used up. */
    uint32_t t = 0, rem = 0, dist = 0;
    memset(st.rec, 0, sizeof st.rec);
    for (uint32_t i = 0; i < CP_N; i++) {
        uint32_t start = rem == 0;
        uint32_t tok = st.tok[t];
        uint32_t is_match = (tok & CP_MATCH) != 0;
        dist = sp_selu(start, sp_selu(is_match, (tok >> 4) & 63u, 0), dist);
        uint32_t literal = start & (is_match ^ 1u);
        uint8_t copied = st.rec[i - sp_selu(literal, 0, dist)];
        st.rec[i] = (uint8_t)sp_selu(literal, tok & 0xffu, copied);
        rem = sp_selu(start, sp_selu(is_match, (tok & 15u) - 1u, 0), rem - 1u);
        t += start;
    }
    uint32_t bad = 0;
    for (uint32_t i = 0; i < CP_N; i++)
        bad |= st.rec[i] ^ text[i];
    r->failures += bad != 0;
    r->failures += t != out;
    r->sum = wl_mix32(r->sum, out);
    for (uint32_t i = 0; i < CP_N; i++)
        r->sum = wl_mix32(r->sum, sp_selu(i < out, st.tok[i], 0));
    return wl_run_next(r);
}

uint32_t compress_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t compress_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x56493f12u, 0xe5759329u};
    return wl_run_expected(expected, size_class);
}

const wl_program_t compress_program = {"compress", compress_init, compress_round,
                                       compress_checksum, compress_expected};
