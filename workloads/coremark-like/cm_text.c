/* cm_text.c: the state-machine kernel: a scanner classifying comma-separated numeric tokens
 * of a 240-byte text as integer, signed integer, decimal, scientific or invalid, one state
 * transition per character. The text is generated from the seeds with known token kinds.
 * Per iteration: scan the text; overwrite every 11th character (from an offset that changes
 * per iteration) with a character from ",+-.e0123456789x" and scan again; restore the text.
 * Checks: the clean scan finds exactly the generated kind counts, and the restored text
 * scans the same as the first time. CRC: final-state counts and transition counts. */
#include "coremark.h"
#include "wl_string.h"

enum {
    S_START, S_SIGN, S_INT, S_SINT, S_DOT, S_FLOAT, S_EXP, S_EXP_SIGN, S_SCI, S_INVALID,
    S_COUNT
};
/* Token kinds = final-state classes. */
enum { K_INT, K_SINT, K_FLOAT, K_SCI, K_INVALID, K_COUNT };

typedef struct {
    uint32_t kinds[K_COUNT];
    uint32_t transitions; /* characters that changed the state */
} scan_t;

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int step(int state, char c)
{
    int digit = is_digit(c), sign = c == '+' || c == '-', exp = c == 'e' || c == 'E';
    switch (state) {
    case S_START:
        return digit ? S_INT : sign ? S_SIGN : S_INVALID;
    case S_SIGN:
        return digit ? S_SINT : S_INVALID;
    case S_INT:
    case S_SINT:
        return digit ? state : c == '.' ? S_DOT : exp ? S_EXP : S_INVALID;
    case S_DOT:
        return digit ? S_FLOAT : S_INVALID;
    case S_FLOAT:
        return digit ? S_FLOAT : exp ? S_EXP : S_INVALID;
    case S_EXP:
        return digit ? S_SCI : sign ? S_EXP_SIGN : S_INVALID;
    case S_EXP_SIGN:
    case S_SCI:
        return digit ? S_SCI : S_INVALID;
    default:
        return S_INVALID;
    }
}

static int kind_of(int state)
{
    switch (state) {
    case S_INT:
        return K_INT;
    case S_SINT:
        return K_SINT;
    case S_FLOAT:
        return K_FLOAT;
    case S_SCI:
        return K_SCI;
    default:
        return K_INVALID;
    }
}

static scan_t scan(const char *text)
{
    scan_t r;
    memset(&r, 0, sizeof r);
    int state = S_START;
    for (const char *p = text;; p++) {
        if (*p == ',' || *p == '\0') {
            if (state != S_START)
                r.kinds[kind_of(state)]++;
            state = S_START;
            if (*p == '\0')
                break;
            continue;
        }
        int next = step(state, *p);
        r.transitions += next != state;
        state = next;
    }
    return r;
}

static uint32_t put_digits(char *out, wl_prng_t *rng, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        out[i] = (char)('0' + wl_prng_below(rng, 10));
    return n;
}

/* Writes one token of kind k at out (at most 10 characters); returns its length. */
static uint32_t make_token(char *out, wl_prng_t *rng, uint32_t k)
{
    uint32_t n = 0;
    switch (k) {
    case K_INT:
        return put_digits(out, rng, 1 + wl_prng_below(rng, 4));
    case K_SINT:
        out[n++] = wl_prng_below(rng, 2) ? '-' : '+';
        return n + put_digits(out + n, rng, 1 + wl_prng_below(rng, 3));
    case K_FLOAT:
        n = put_digits(out, rng, 1 + wl_prng_below(rng, 2));
        out[n++] = '.';
        return n + put_digits(out + n, rng, 1 + wl_prng_below(rng, 3));
    case K_SCI:
        n = put_digits(out, rng, 1);
        out[n++] = '.';
        n += put_digits(out + n, rng, 1 + wl_prng_below(rng, 2));
        out[n++] = wl_prng_below(rng, 2) ? 'e' : 'E';
        if (wl_prng_below(rng, 2))
            out[n++] = '-';
        return n + put_digits(out + n, rng, 1 + wl_prng_below(rng, 2));
    default: { /* a digit, a wrong character, digits: "3x14", "7-2", "5..0" */
        static const char bad[] = "x.-";
        n = put_digits(out, rng, 1);
        char b = bad[wl_prng_below(rng, 3)];
        out[n++] = b;
        if (b == '.')
            out[n++] = '.';
        return n + put_digits(out + n, rng, 1 + wl_prng_below(rng, 2));
    }
    }
}

void cm_text_init(cm_state_t *s)
{
    wl_prng_t rng;
    wl_prng_seed(&rng, (uint32_t)s->seed3 << 16 | s->seed1 | 0x100u);
    memset(s->text, 0, sizeof s->text);
    memset(s->kind_count, 0, sizeof s->kind_count);
    uint32_t len = 0;
    while (len + 11u <= CM_TEXT_BYTES) {
        uint32_t k = wl_prng_below(&rng, K_COUNT);
        if (len > 0)
            s->text[len++] = ',';
        len += make_token(s->text + len, &rng, k);
        s->kind_count[k]++;
    }
}

static uint16_t crc_scan(const scan_t *r, uint16_t crc)
{
    for (int k = 0; k < K_COUNT; k++)
        crc = cm_crc16((uint16_t)r->kinds[k], crc);
    return cm_crc16((uint16_t)r->transitions, crc);
}

uint16_t cm_text_iterate(cm_state_t *s, uint32_t iteration, uint32_t *failures)
{
    static const char subst[] = ",+-.e0123456789x";
    char saved[CM_TEXT_BYTES + 1];
    scan_t clean = scan(s->text);
    for (int k = 0; k < K_COUNT; k++)
        *failures += clean.kinds[k] != s->kind_count[k];
    uint16_t crc = crc_scan(&clean, 0);
    memcpy(saved, s->text, sizeof saved);
    uint32_t len = 0;
    while (s->text[len] != '\0')
        len++;
    for (uint32_t i = iteration % 11u; i < len; i += 11u)
        s->text[i] = subst[(i + iteration) % 16u];
    scan_t dirty = scan(s->text);
    crc = crc_scan(&dirty, crc);
    memcpy(s->text, saved, sizeof saved);
    scan_t again = scan(s->text);
    *failures += memcmp(&again, &clean, sizeof clean) != 0;
    return crc;
}
