/* crtp_rx.c: the Crazyflie CRTP RX task, one 3.5 ms activation per round: take the packets
 * that arrived on the radio link (none in most activations) and dispatch them by port:
 * commander setpoints (roll, pitch, yaw as float, thrust as u16; range-checked), parameter
 * TOC queries and parameter writes (typed u8/u16/float values, range-checked, stored, and a
 * change of a PID gain rebuilds the gain schedule: the deepest call chain), log block
 * creation (variable list validated against the log TOC and the 26-byte block limit) and
 * link echoes. Input: a synthetic link on which each activation receives 0 (5/8), 1 (2/8) or
 * 2 (1/8) packets; the generator decides for each packet whether it is valid and keeps a
 * shadow of the state it should produce. 200 (small) / 3,000 (full) activations. Checks:
 * after every activation the setpoint, the parameter table, the log blocks and all
 * counters equal the shadow. */
#include "crazyflie.h"
#include "crtp.h"

#define PARAMS 12
#define LOG_VARS 12
#define LOG_BLOCKS 8
#define LOG_BLOCK_MAX 26

enum { T_U8 = 1, T_U16 = 2, T_F32 = 4 };

typedef struct {
    const char *name;
    uint8_t type;
    float min, max;
} cf_param_info_t;

static const cf_param_info_t param_info[PARAMS] = {
    {"stabilizer.estimator", T_U8, 1, 2},     {"stabilizer.controller", T_U8, 1, 3},
    {"pid_rate.roll_kp", T_F32, 0, 1000},     {"pid_rate.roll_ki", T_F32, 0, 1000},
    {"pid_rate.pitch_kp", T_F32, 0, 1000},    {"pid_rate.pitch_ki", T_F32, 0, 1000},
    {"pid_attitude.roll_kp", T_F32, 0, 50},   {"pid_attitude.pitch_kp", T_F32, 0, 50},
    {"motorPowerSet.m1", T_U16, 0, 65535},    {"motorPowerSet.enable", T_U8, 0, 1},
    {"ring.effect", T_U8, 0, 20},             {"commander.enHighLevel", T_U8, 0, 1},
};
static const uint8_t log_var_size[LOG_VARS] = {4, 4, 4, 2, 2, 2, 1, 1, 4, 4, 2, 1};

typedef struct {
    float roll, pitch, yaw;
    uint16_t thrust;
} cf_setpoint_t;

typedef struct {
    cf_setpoint_t setpoint;
    float param[PARAMS];
    uint8_t block_size[LOG_BLOCKS]; /* 0 = no block */
    uint32_t accepted, rejected, toc_replies, echo_bytes;
} cf_rx_state_t;

static struct {
    wl_run_t run;
    cf_rx_state_t now, shadow;
    float schedule[8]; /* gain schedule derived from the rate gains */
    uint32_t schedule_builds, shadow_builds;
} st;

void crtp_rx_init(uint32_t size_class)
{
    wl_run_init(&st.run, 0xc47b4u, size_class ? 3000u : 200u);
    memset(&st.now, 0, sizeof st.now);
    for (int i = 0; i < PARAMS; i++)
        st.now.param[i] = param_info[i].min;
    st.shadow = st.now;
    memset(st.schedule, 0, sizeof st.schedule);
    st.schedule_builds = st.shadow_builds = 0;
}

/* ---- the task's handlers ---- */

static void rebuild_schedule(void)
{
    float kp[8], ki[8];
    for (int i = 0; i < 8; i++) {
        float scale = 1.0f - 0.05f * (float)i; /* gains taper with battery sag steps */
        kp[i] = (st.now.param[2] + st.now.param[4]) * 0.5f * scale;
        ki[i] = (st.now.param[3] + st.now.param[5]) * 0.5f * scale;
    }
    for (int i = 0; i < 8; i++)
        st.schedule[i] = kp[i] + ki[i] * 0.001f;
    st.schedule_builds++;
}

static void param_notify(uint32_t id)
{
    if (id >= 2 && id <= 5)
        rebuild_schedule();
}

static int param_decode(uint8_t type, const uint8_t *p, uint32_t n, float *value)
{
    if (n < type)
        return 0;
    if (type == T_U8)
        *value = (float)p[0];
    else if (type == T_U16)
        *value = (float)crtp_get_u16(p);
    else
        *value = crtp_get_f32(p);
    return 1;
}

static int param_write(uint32_t id, const uint8_t *p, uint32_t n)
{
    float v;
    if (id >= PARAMS || !param_decode(param_info[id].type, p, n, &v))
        return 0;
    if (!(v >= param_info[id].min && v <= param_info[id].max))
        return 0;
    st.now.param[id] = v;
    param_notify(id);
    return 1;
}

static int param_toc(uint32_t id)
{
    if (id >= PARAMS)
        return 0;
    uint32_t len = 0;
    while (param_info[id].name[len])
        len++;
    st.now.toc_replies += len > 0;
    return 1;
}

static int commander(const crtp_packet_t *pk)
{
    if (pk->size != 14)
        return 0;
    cf_setpoint_t sp = {crtp_get_f32(pk->data), crtp_get_f32(pk->data + 4),
                        crtp_get_f32(pk->data + 8), crtp_get_u16(pk->data + 12)};
    if (!(sp.roll >= -30.0f && sp.roll <= 30.0f && sp.pitch >= -30.0f && sp.pitch <= 30.0f))
        return 0;
    if (sp.thrust > 60000u)
        return 0;
    st.now.setpoint = sp;
    return 1;
}

static int log_create(const crtp_packet_t *pk)
{
    if (pk->size < 2 || pk->data[0] >= LOG_BLOCKS)
        return 0;
    uint32_t size = 0;
    for (uint32_t i = 1; i < pk->size; i++) {
        if (pk->data[i] >= LOG_VARS)
            return 0;
        size += log_var_size[pk->data[i]];
    }
    if (size > LOG_BLOCK_MAX)
        return 0;
    st.now.block_size[pk->data[0]] = (uint8_t)size;
    return 1;
}

static void dispatch(const crtp_packet_t *pk)
{
    int ok = 0;
    switch (crtp_port(pk->header)) {
    case CRTP_PORT_COMMANDER:
        ok = commander(pk);
        break;
    case CRTP_PORT_PARAM:
        if (pk->size >= 1 && crtp_channel(pk->header) == 0)
            ok = param_toc(pk->data[0]);
        else if (pk->size >= 1 && crtp_channel(pk->header) == 2)
            ok = param_write(pk->data[0], pk->data + 1, pk->size - 1u);
        break;
    case CRTP_PORT_LOG:
        ok = log_create(pk);
        break;
    case CRTP_PORT_LINK:
        st.now.echo_bytes += pk->size;
        ok = 1;
        break;
    default:
        break;
    }
    st.now.accepted += ok != 0;
    st.now.rejected += ok == 0;
}

/* ---- the synthetic link: builds one packet and updates the shadow ---- */

static uint32_t below(uint32_t n)
{
    return wl_prng_below(&st.run.rng, n);
}

static void gen_commander(crtp_packet_t *pk, int valid)
{
    cf_setpoint_t sp = {(float)((int32_t)below(601) - 300) / 10.0f,
                        (float)((int32_t)below(601) - 300) / 10.0f, (float)below(360),
                        (uint16_t)below(60001)};
    if (!valid)
        sp.roll = 45.0f;
    pk->header = crtp_header(CRTP_PORT_COMMANDER, 0);
    pk->size = 14;
    crtp_put_f32(pk->data, sp.roll);
    crtp_put_f32(pk->data + 4, sp.pitch);
    crtp_put_f32(pk->data + 8, sp.yaw);
    crtp_put_u16(pk->data + 12, sp.thrust);
    if (valid)
        st.shadow.setpoint = sp;
}

static void gen_param_write(crtp_packet_t *pk, int valid)
{
    uint32_t id = below(PARAMS);
    const cf_param_info_t *info = &param_info[id];
    uint32_t span = (uint32_t)(info->max - info->min);
    float v = info->min + (float)below(span + 1u);
    if (info->type == T_F32)
        v = info->min + (info->max - info->min) * (float)below(1001) / 1000.0f;
    if (!valid) {
        if (info->max < 65535.0f)
            v = info->max + 1.0f;
        else
            id = PARAMS + below(4); /* no such parameter */
    }
    pk->header = crtp_header(CRTP_PORT_PARAM, 2);
    pk->data[0] = (uint8_t)id;
    pk->size = (uint8_t)(1u + info->type);
    if (info->type == T_U8)
        pk->data[1] = (uint8_t)v;
    else if (info->type == T_U16)
        crtp_put_u16(pk->data + 1, (uint16_t)v);
    else
        crtp_put_f32(pk->data + 1, v);
    if (valid) {
        st.shadow.param[id] = v;
        st.shadow_builds += id >= 2 && id <= 5;
    }
}

static void gen_log_create(crtp_packet_t *pk, int valid)
{
    uint32_t block = below(LOG_BLOCKS), n = 1 + below(6), size = 0;
    pk->header = crtp_header(CRTP_PORT_LOG, 1);
    pk->data[0] = (uint8_t)block;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t var = below(LOG_VARS);
        pk->data[1 + i] = (uint8_t)var;
        size += log_var_size[var];
    }
    pk->size = (uint8_t)(1 + n);
    if (!valid)
        pk->data[1 + below(n)] = (uint8_t)(LOG_VARS + below(100));
    else if (size <= LOG_BLOCK_MAX) /* at most 6 x 4 = 24 bytes: always fits */
        st.shadow.block_size[block] = (uint8_t)size;
}

static void receive_one(void)
{
    crtp_packet_t pk;
    memset(&pk, 0, sizeof pk);
    uint32_t kind = below(10);
    int valid = below(8) != 0;
    if (kind < 5) {
        gen_commander(&pk, valid);
    } else if (kind < 7) {
        gen_param_write(&pk, valid);
    } else if (kind == 7) {
        uint32_t id = below(PARAMS + 2);
        pk.header = crtp_header(CRTP_PORT_PARAM, 0);
        pk.size = 1;
        pk.data[0] = (uint8_t)id;
        valid = id < PARAMS;
        st.shadow.toc_replies += valid;
    } else if (kind == 8) {
        gen_log_create(&pk, valid);
    } else {
        pk.header = crtp_header(CRTP_PORT_LINK, 0);
        pk.size = (uint8_t)below(CRTP_MAX_DATA + 1);
        for (uint32_t i = 0; i < pk.size; i++)
            pk.data[i] = (uint8_t)below(256);
        valid = 1;
        st.shadow.echo_bytes += pk.size;
    }
    st.shadow.accepted += valid != 0;
    st.shadow.rejected += valid == 0;
    dispatch(&pk);
}

/* Field-wise equality (the structs have padding, so no memcmp). */
static int state_equal(const cf_rx_state_t *a, const cf_rx_state_t *b)
{
    int eq = a->setpoint.roll == b->setpoint.roll && a->setpoint.pitch == b->setpoint.pitch &&
             a->setpoint.yaw == b->setpoint.yaw && a->setpoint.thrust == b->setpoint.thrust;
    for (int i = 0; i < PARAMS; i++)
        eq &= a->param[i] == b->param[i];
    for (int i = 0; i < LOG_BLOCKS; i++)
        eq &= a->block_size[i] == b->block_size[i];
    return eq && a->accepted == b->accepted && a->rejected == b->rejected &&
           a->toc_replies == b->toc_replies && a->echo_bytes == b->echo_bytes;
}

int crtp_rx_round(void)
{
    wl_run_t *r = &st.run;
    uint32_t arrivals = below(8);
    uint32_t n = arrivals < 5 ? 0u : arrivals < 7 ? 1u : 2u;
    for (uint32_t i = 0; i < n; i++)
        receive_one();
    r->failures += !state_equal(&st.now, &st.shadow);
    r->failures += st.schedule_builds != st.shadow_builds;
    r->sum = wl_mix32(r->sum, st.now.accepted << 16 | st.now.rejected);
    r->sum = wl_mix32(r->sum, st.now.setpoint.thrust);
    return wl_run_next(r);
}

uint32_t crtp_rx_checksum(void)
{
    uint32_t sum = st.run.sum;
    for (int i = 0; i < 8; i++)
        sum = wl_mix32(sum, (uint32_t)(int32_t)(st.schedule[i] * 1000.0f));
    return wl_final(sum, st.run.failures);
}

uint32_t crtp_rx_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x8944fdb6u, 0xfa6e8559u};
    return wl_run_expected(expected, size_class);
}

const wl_program_t crtp_rx_program = {"crtp_rx", crtp_rx_init, crtp_rx_round, crtp_rx_checksum,
                                      crtp_rx_expected};
