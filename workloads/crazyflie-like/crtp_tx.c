/* crtp_tx.c: the Crazyflie CRTP TX task, event-driven: each round is one wake-up for one
 * outgoing event, which is assembled into CRTP packets, framed for the radio ([length]
 * [header][payload][CRC-16/CCITT-FALSE, big-endian]) into a transmit ring, and drained by the
 * "radio". Events: a log data block (block id, 24-bit timestamp, three floats and two int16
 * from a synthetic flight state), a console line ("t=<ms> vbat=<mV>\n", formatted with our
 * own integer printing, split into packets of at most 30 bytes), a parameter value reply, or
 * a link echo. 150 (small) / 2,500 (full) events. Checks: the radio side re-parses every
 * frame, verifies its CRC and length, and compares each field with the event that produced
 * it; the delivered console chunks reassemble to the formatted line. */
#include "crazyflie.h"
#include "crtp.h"

#define RING 4
#define FRAME_MAX (1 + 1 + CRTP_MAX_DATA + 2)

typedef struct {
    uint8_t len; /* header + payload */
    uint8_t bytes[FRAME_MAX - 1];
} cf_frame_t;

static struct {
    wl_run_t run;
    cf_frame_t ring[RING];
    uint32_t head, count;
    uint32_t frames_sent, bytes_sent;
    crtp_packet_t delivered; /* the radio's copy of the last packet sent */
} st;

void crtp_tx_init(uint32_t size_class)
{
    wl_run_init(&st.run, 0x7c47u, size_class ? 2500u : 150u);
    memset(st.ring, 0, sizeof st.ring);
    st.head = st.count = 0;
    st.frames_sent = st.bytes_sent = 0;
}

static uint16_t crc_ccitt(const uint8_t *p, uint32_t n)
{
    uint32_t crc = 0xffffu;
    for (uint32_t i = 0; i < n; i++) {
        crc ^= (uint32_t)p[i] << 8;
        for (int b = 0; b < 8; b++)
            crc = (crc & 0x8000u) ? ((crc << 1) ^ 0x1021u) & 0xffffu : (crc << 1) & 0xffffu;
    }
    return (uint16_t)crc;
}

/* Frames pk into the ring; returns 0 if the ring is full. */
static int enqueue(const crtp_packet_t *pk)
{
    if (st.count == RING)
        return 0;
    cf_frame_t *f = &st.ring[(st.head + st.count) % RING];
    f->len = (uint8_t)(1u + pk->size);
    f->bytes[0] = pk->header;
    memcpy(f->bytes + 1, pk->data, pk->size);
    uint16_t crc = crc_ccitt(f->bytes, f->len);
    f->bytes[f->len] = (uint8_t)(crc >> 8);
    f->bytes[f->len + 1] = (uint8_t)crc;
    st.count++;
    return 1;
}

/* The radio: takes the oldest frame into pk; returns 0 on CRC or length error or if empty. */
static int transmit(crtp_packet_t *pk)
{
    if (st.count == 0)
        return 0;
    const cf_frame_t *f = &st.ring[st.head];
    st.head = (st.head + 1) % RING;
    st.count--;
    if (f->len < 1 || f->len > 1 + CRTP_MAX_DATA)
        return 0;
    uint16_t crc = (uint16_t)(f->bytes[f->len] << 8 | f->bytes[f->len + 1]);
    if (crc != crc_ccitt(f->bytes, f->len))
        return 0;
    pk->header = f->bytes[0];
    pk->size = (uint8_t)(f->len - 1u);
    memcpy(pk->data, f->bytes + 1, pk->size);
    st.frames_sent++;
    st.bytes_sent += f->len + 3u;
    return 1;
}

static uint32_t below(uint32_t n)
{
    return wl_prng_below(&st.run.rng, n);
}

/* Sends one packet and checks that the radio delivers it intact (into st.delivered). */
static void send_checked(const crtp_packet_t *pk)
{
    crtp_packet_t *got = &st.delivered;
    memset(got, 0, sizeof *got);
    int ok = enqueue(pk) && transmit(got) && got->header == pk->header &&
             got->size == pk->size && memcmp(got->data, pk->data, pk->size) == 0;
    st.run.failures += !ok;
    st.run.sum = wl_mix32(st.run.sum, (uint32_t)got->header << 8 | got->size);
}

__attribute__((noinline)) static void log_data(uint32_t t_ms)
{
    crtp_packet_t pk;
    float roll = (float)((int32_t)below(2001) - 1000) / 100.0f;
    float pitch = (float)((int32_t)below(2001) - 1000) / 100.0f;
    float vbat = 3.0f + (float)below(1201) / 1000.0f;
    int16_t ax = (int16_t)((int32_t)below(8193) - 4096);
    int16_t gz = (int16_t)((int32_t)below(2001) - 1000);
    pk.header = crtp_header(CRTP_PORT_LOG, 2);
    pk.data[0] = (uint8_t)below(8);
    pk.data[1] = (uint8_t)t_ms;
    pk.data[2] = (uint8_t)(t_ms >> 8);
    pk.data[3] = (uint8_t)(t_ms >> 16);
    crtp_put_f32(pk.data + 4, roll);
    crtp_put_f32(pk.data + 8, pitch);
    crtp_put_f32(pk.data + 12, vbat);
    crtp_put_u16(pk.data + 16, (uint16_t)ax);
    crtp_put_u16(pk.data + 18, (uint16_t)gz);
    pk.size = 20;
    send_checked(&pk);
    /* The receiver's view of the fields. */
    st.run.failures += crtp_get_f32(pk.data + 12) != vbat ||
                       (int16_t)crtp_get_u16(pk.data + 16) != ax ||
                       (uint32_t)(pk.data[1] | pk.data[2] << 8 | pk.data[3] << 16) !=
                           (t_ms & 0xffffffu);
}

static uint32_t put_uint(char *out, uint32_t v)
{
    char tmp[10];
    uint32_t n = 0, len = 0;
    do {
        tmp[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (n)
        out[len++] = tmp[--n];
    return len;
}

static uint32_t put_str(char *out, const char *s)
{
    uint32_t n = 0;
    while (s[n]) {
        out[n] = s[n];
        n++;
    }
    return n;
}

__attribute__((noinline)) static void console_line(uint32_t t_ms)
{
    char line[40]; /* at most "t=NNNNN vbat=NNNNmV link=NNN\n" */
    uint32_t n = put_str(line, "t=");
    n += put_uint(line + n, t_ms);
    n += put_str(line + n, " vbat=");
    n += put_uint(line + n, 3000u + below(1201));
    n += put_str(line + n, "mV link=");
    n += put_uint(line + n, below(101));
    line[n++] = '\n';
    uint32_t got = 0;
    for (uint32_t off = 0; off < n; off += CRTP_MAX_DATA) {
        crtp_packet_t pk;
        pk.header = crtp_header(CRTP_PORT_CONSOLE, 0);
        pk.size = (uint8_t)(n - off < CRTP_MAX_DATA ? n - off : CRTP_MAX_DATA);
        memcpy(pk.data, line + off, pk.size);
        send_checked(&pk);
        st.run.failures += memcmp(st.delivered.data, line + got, st.delivered.size) != 0;
        got += st.delivered.size;
    }
    st.run.failures += got != n;
}

__attribute__((noinline)) static void param_reply(void)
{
    crtp_packet_t pk;
    pk.header = crtp_header(CRTP_PORT_PARAM, 1);
    pk.data[0] = (uint8_t)below(12);
    crtp_put_f32(pk.data + 1, (float)below(100001) / 100.0f);
    pk.size = 5;
    send_checked(&pk);
}

__attribute__((noinline)) static void link_echo(void)
{
    crtp_packet_t pk;
    pk.header = crtp_header(CRTP_PORT_LINK, 0);
    pk.size = (uint8_t)below(CRTP_MAX_DATA + 1);
    for (uint32_t i = 0; i < pk.size; i++)
        pk.data[i] = (uint8_t)below(256);
    send_checked(&pk);
}

/* The event handlers are kept out of line (as the firmware's are: they are reached through
 * different callers), so each activation's stack depends on the event it serves. */
int crtp_tx_round(void)
{
    wl_run_t *r = &st.run;
    uint32_t t_ms = r->rounds * 10u + below(10);
    uint32_t kind = below(8);
    if (kind < 5)
        log_data(t_ms);
    else if (kind == 5)
        console_line(t_ms);
    else if (kind == 6)
        param_reply();
    else
        link_echo();
    r->failures += st.count != 0;
    r->sum = wl_mix32(r->sum, st.frames_sent << 16 ^ st.bytes_sent);
    return wl_run_next(r);
}

uint32_t crtp_tx_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t crtp_tx_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xc5bb7849u, 0xb3c22d3fu};
    return wl_run_expected(expected, size_class);
}

const wl_program_t crtp_tx_program = {"crtp_tx", crtp_tx_init, crtp_tx_round, crtp_tx_checksum,
                                      crtp_tx_expected};
