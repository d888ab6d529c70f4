/* anagram.c: multi-word anagram search in the manner of Ptrdist anagram: every dictionary
 * word is reduced to a packed letter-count vector (4-bit counts with a guard bit per letter, so
 * "does this word fit in the remaining letters" is one subtraction and a mask test), and the
 * search recurses over words in non-decreasing dictionary order, each level filtering the
 * candidates that still fit into its own local list. Each round takes one phrase (made of 2-3
 * dictionary words), finds all its anagrams of up to MAX_DEPTH words, checks every solution by
 * recounting its letters, and checks that the generating words are among the solutions. */
#include "anagram.h"

#include "wl_checksum.h"
#include "wl_prng.h"

#define MAX_WORDS 160
#define MAX_LEN 12
#define LETTERS 12
#define MAX_DEPTH 4

static const char alphabet[LETTERS + 1] = "aeioukmnrstl";
static const char *const syllables[16] = {"ka", "re", "mo", "ti", "su", "na", "lo", "es",
                                          "an", "ir", "ok", "ul", "me", "sa", "ri", "to"};

static struct {
    char words[MAX_WORDS][MAX_LEN + 1];
    uint64_t mask[MAX_WORDS];
    uint32_t nwords;
    uint64_t guard;
    uint8_t stack_words[MAX_DEPTH];
    uint32_t solutions;
    uint32_t found_source;
    uint8_t source[3];
    uint32_t nsource;
    uint32_t rounds;
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

static int letter_index(char c)
{
    for (int i = 0; i < LETTERS; i++)
        if (alphabet[i] == c)
            return i;
    return -1;
}

/* Packed counts: 5 bits per letter, the top (guard) bit always 0 in a count vector. */
static uint64_t pack(const char *w)
{
    uint64_t m = 0;
    for (; *w; w++)
        m += (uint64_t)1 << (5 * letter_index(*w));
    return m;
}

static void make_dictionary(void)
{
    st.nwords = 0;
    while (st.nwords < MAX_WORDS) {
        char w[MAX_LEN + 1];
        uint32_t n = 1 + wl_prng_below(&st.rng, 3), len = 0;
        for (uint32_t s = 0; s < n; s++) {
            const char *syl = syllables[wl_prng_below(&st.rng, 16)];
            w[len++] = syl[0];
            w[len++] = syl[1];
        }
        w[len] = 0;
        int dup = 0;
        for (uint32_t i = 0; i < st.nwords && !dup; i++) {
            dup = 1;
            for (uint32_t k = 0; k <= len; k++)
                if (st.words[i][k] != w[k]) {
                    dup = 0;
                    break;
                }
        }
        if (dup)
            continue;
        for (uint32_t k = 0; k <= len; k++)
            st.words[st.nwords][k] = w[k];
        st.mask[st.nwords] = pack(w);
        st.nwords++;
    }
}

/* Independent check of a solution: plain letter counting against the phrase. */
static int verify(const uint8_t *ws, uint32_t n, uint64_t phrase)
{
    int32_t counts[LETTERS] = {0};
    for (uint32_t i = 0; i < n; i++)
        for (const char *c = st.words[ws[i]]; *c; c++)
            counts[letter_index(*c)]++;
    for (int l = 0; l < LETTERS; l++)
        if ((uint64_t)counts[l] != ((phrase >> (5 * l)) & 31u))
            return 0;
    return 1;
}

static void find(uint64_t remaining, const uint8_t *cand, uint32_t ncand, uint32_t depth,
                 uint64_t phrase)
{
    uint8_t next[MAX_WORDS]; /* candidates that still fit, in order */
    for (uint32_t i = 0; i < ncand; i++) {
        uint8_t w = cand[i];
        uint64_t left = (remaining | st.guard) - st.mask[w];
        if ((left & st.guard) != st.guard)
            continue; /* some letter count went negative */
        left &= ~st.guard;
        st.stack_words[depth] = w;
        if (left == 0) {
            st.solutions++;
            if (!verify(st.stack_words, depth + 1, phrase))
                st.failures++;
            uint32_t h = 0;
            for (uint32_t k = 0; k <= depth; k++)
                h = wl_mix32(h, st.stack_words[k]);
            st.res.checksum = wl_mix32(st.res.checksum, h);
            if (depth + 1 == st.nsource) {
                int same = 1;
                for (uint32_t k = 0; k <= depth; k++)
                    same &= st.stack_words[k] == st.source[k];
                st.found_source |= (uint32_t)same;
            }
            continue;
        }
        if (depth + 1 == MAX_DEPTH)
            continue;
        uint32_t n = 0;
        for (uint32_t j = i; j < ncand; j++) {
            uint64_t l2 = (left | st.guard) - st.mask[cand[j]];
            if ((l2 & st.guard) == st.guard)
                next[n++] = cand[j];
        }
        find(left, next, n, depth + 1, phrase);
    }
}

void anagram_init(uint32_t size_class)
{
    st.guard = 0;
    for (int l = 0; l < LETTERS; l++)
        st.guard |= (uint64_t)16 << (5 * l);
    wl_prng_seed(&st.rng, 0xa9a9u);
    make_dictionary();
    st.rounds = size_class ? 400u : 3u;
    st.failures = 0;
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

int anagram_round(void)
{
    uint8_t all[MAX_WORDS];
    /* Phrase from 2-3 words in non-decreasing index order; letter counts must stay <= 15. */
    uint64_t phrase;
    do {
        st.nsource = 2 + wl_prng_below(&st.rng, 2);
        for (uint32_t i = 0; i < st.nsource; i++)
            st.source[i] = (uint8_t)wl_prng_below(&st.rng, st.nwords);
        for (uint32_t i = 1; i < st.nsource; i++) /* insertion sort */
            for (uint32_t j = i; j > 0 && st.source[j - 1] > st.source[j]; j--) {
                uint8_t t = st.source[j];
                st.source[j] = st.source[j - 1];
                st.source[j - 1] = t;
            }
        phrase = 0;
        for (uint32_t i = 0; i < st.nsource; i++)
            phrase += st.mask[st.source[i]];
    } while (phrase & st.guard);
    uint32_t n = 0;
    for (uint32_t w = 0; w < st.nwords; w++)
        all[n++] = (uint8_t)w;
    st.solutions = 0;
    st.found_source = 0;
    find(phrase, all, n, 0, phrase);
    if (!st.found_source)
        st.failures++;
    st.res.checksum = wl_mix32(st.res.checksum, st.solutions);
    st.res.rounds_done++;
    return st.res.rounds_done < st.rounds;
}

uint32_t anagram_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t anagram_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x4a35b905u, 0x319447fcu};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t anagram_program = {"anagram", anagram_init, anagram_round,
                                      anagram_checksum, anagram_expected};
