/* stabilizer.c: the Crazyflie stabilizer task, one 1 ms activation per round: acquire an IMU
 * sample, fuse it with a Mahony complementary filter (quaternion attitude, proportional and
 * integral correction from the accelerometer's gravity direction), run the cascaded PID
 * controllers (attitude at 500 Hz feeding the rate loop at 1 kHz) and mix the quad-X motor
 * outputs. Input: a synthetic flight in which roll and pitch swing sinusoidally (0.2 rad at
 * 0.5 Hz, 0.15 rad at 0.3 Hz; oscillators advanced by rotation, small-angle sin/cos by
 * Taylor polynomials); gyro = the exact body rates plus bias and noise, accelerometer
 * = gravity in the body frame plus noise. 300 (small) / 6,000 (full) activations.
 * The filter's proportional gain is boosted (25 instead of 0.8) during 200
 * warm-up activations, as the firmware does for fast initial convergence. Checks (after the
 * warm-up): the estimated gravity direction is within 0.03 of the true one on every axis, and
 * the quaternion stays unit length (1e-3). Float arithmetic with + - * / only (cf_math.h). */
#include "cf_math.h"
#include "crazyflie.h"
#include "wl_math.h"

#define DT 0.001f
#define WARMUP 200u
#define MAHONY_KP 0.8f
#define MAHONY_KP_BOOT 25.0f /* fast initial convergence during the warm-up */
#define MAHONY_KI 0.002f

typedef struct {
    float kp, ki, kd, integ, prev_err, i_limit, out_limit;
} cf_pid_t;

typedef struct {
    float gyro[3];  /* rad/s */
    float accel[3]; /* g */
    float truth_g[3];
} cf_sample_t;

typedef struct {
    float roll, pitch, yaw, thrust;
} cf_setpoint_t;

/* A sinusoid advanced one tick at a time by rotating (cos, sin) of its phase. */
typedef struct {
    float c, s;   /* cos and sin of the current phase */
    float cd, sd; /* cos and sin of the phase step */
} cf_osc_t;

static struct {
    wl_run_t run;
    cf_osc_t roll_osc, pitch_osc;
    float q[4];      /* attitude quaternion (w, x, y, z) */
    float ierr[3];   /* Mahony integral term */
    float gravity[3]; /* estimated gravity direction in the body frame */
    cf_pid_t att[3], rate[3];
    float rate_sp[3];
    uint16_t motor[4];
} st;

static void pid_reset(cf_pid_t *p, float kp, float ki, float kd, float ilim, float olim)
{
    p->kp = kp;
    p->ki = ki;
    p->kd = kd;
    p->integ = 0.0f;
    p->prev_err = 0.0f;
    p->i_limit = ilim;
    p->out_limit = olim;
}

static float pid_update(cf_pid_t *p, float err, float dt)
{
    p->integ = cf_clamp(p->integ + err * dt, -p->i_limit, p->i_limit);
    float deriv = (err - p->prev_err) / dt;
    p->prev_err = err;
    return cf_clamp(p->kp * err + p->ki * p->integ + p->kd * deriv, -p->out_limit,
                    p->out_limit);
}

static void osc_init(cf_osc_t *o, double freq_hz, double phase)
{
    double step = 2.0 * WL_PI * freq_hz * (double)DT;
    o->c = (float)wl_cos(phase);
    o->s = (float)wl_sin(phase);
    o->cd = (float)wl_cos(step);
    o->sd = (float)wl_sin(step);
}

static void osc_step(cf_osc_t *o)
{
    float c = o->c * o->cd - o->s * o->sd, s = o->s * o->cd + o->c * o->sd;
    o->c = c;
    o->s = s;
}

/* sin and cos of a small angle (|x| <= 0.25) by their Taylor polynomials. */
static float small_sin(float x)
{
    float x2 = x * x;
    return x * (1.0f - x2 / 6.0f * (1.0f - x2 / 20.0f));
}

static float small_cos(float x)
{
    float x2 = x * x;
    return 1.0f - x2 / 2.0f * (1.0f - x2 / 12.0f * (1.0f - x2 / 30.0f));
}

void stabilizer_init(uint32_t size_class)
{
    wl_run_init(&st.run, 0x57ab1u, size_class ? 6000u : 300u);
    osc_init(&st.roll_osc, 0.5, 0.0);
    osc_init(&st.pitch_osc, 0.3, 1.0);
    st.q[0] = 1.0f;
    st.q[1] = st.q[2] = st.q[3] = 0.0f;
    for (int i = 0; i < 3; i++) {
        st.ierr[i] = 0.0f;
        st.rate_sp[i] = 0.0f;
        pid_reset(&st.att[i], 6.0f, 3.0f, 0.0f, 20.0f, 720.0f);
        pid_reset(&st.rate[i], 250.0f, 500.0f, 2.5f, 33.3f, 32767.0f);
    }
    st.gravity[0] = st.gravity[1] = 0.0f;
    st.gravity[2] = 1.0f;
    for (int m = 0; m < 4; m++)
        st.motor[m] = 0;
}

static float noise(float amplitude)
{
    return amplitude * ((float)wl_prng_below(&st.run.rng, 2001) / 1000.0f - 1.0f);
}

/* The synthetic flight at the current tick: body rates, specific force and true gravity;
 * then advances the flight by one tick. */
static void acquire(cf_sample_t *s)
{
    const float w1 = (float)(2.0 * WL_PI * 0.5), w2 = (float)(2.0 * WL_PI * 0.3);
    float roll = 0.2f * st.roll_osc.s, pitch = 0.15f * st.pitch_osc.s;
    float droll = 0.2f * w1 * st.roll_osc.c, dpitch = 0.15f * w2 * st.pitch_osc.c;
    float sr = small_sin(roll), cr = small_cos(roll), sp = small_sin(pitch), cp = small_cos(pitch);
    osc_step(&st.roll_osc);
    osc_step(&st.pitch_osc);
    s->truth_g[0] = -sp;
    s->truth_g[1] = sr * cp;
    s->truth_g[2] = cr * cp;
    s->gyro[0] = droll + 0.01f + noise(0.02f);
    s->gyro[1] = cr * dpitch - 0.005f + noise(0.02f);
    s->gyro[2] = -sr * dpitch + noise(0.02f);
    for (int i = 0; i < 3; i++)
        s->accel[i] = s->truth_g[i] + noise(0.05f);
}

static void normalize(float *v, int n)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += v[i] * v[i];
    float r = cf_invsqrt(s);
    for (int i = 0; i < n; i++)
        v[i] *= r;
}

static void mahony_update(const cf_sample_t *s, float kp)
{
    float a[3] = {s->accel[0], s->accel[1], s->accel[2]};
    float g[3] = {s->gyro[0], s->gyro[1], s->gyro[2]};
    float *q = st.q;
    normalize(a, 3);
    /* Gravity direction predicted by the current attitude. */
    float v[3] = {2.0f * (q[1] * q[3] - q[0] * q[2]), 2.0f * (q[0] * q[1] + q[2] * q[3]),
                  q[0] * q[0] - q[1] * q[1] - q[2] * q[2] + q[3] * q[3]};
    float e[3] = {a[1] * v[2] - a[2] * v[1], a[2] * v[0] - a[0] * v[2],
                  a[0] * v[1] - a[1] * v[0]};
    for (int i = 0; i < 3; i++) {
        st.ierr[i] += MAHONY_KI * e[i];
        g[i] += kp * e[i] + st.ierr[i];
    }
    float h = 0.5f * DT;
    /* dq = q (x) (0, g): the quaternion rate for body rates g. */
    float dq[4] = {-q[1] * g[0] - q[2] * g[1] - q[3] * g[2],
                   q[0] * g[0] + q[2] * g[2] - q[3] * g[1],
                   q[0] * g[1] - q[1] * g[2] + q[3] * g[0],
                   q[0] * g[2] + q[1] * g[1] - q[2] * g[0]};
    for (int i = 0; i < 4; i++)
        q[i] += h * dq[i];
    normalize(q, 4);
    st.gravity[0] = 2.0f * (q[1] * q[3] - q[0] * q[2]);
    st.gravity[1] = 2.0f * (q[0] * q[1] + q[2] * q[3]);
    st.gravity[2] = q[0] * q[0] - q[1] * q[1] - q[2] * q[2] + q[3] * q[3];
}

static uint16_t motor_limit(float v)
{
    return (uint16_t)cf_clamp(v, 0.0f, 65535.0f);
}

static void control(uint32_t k, const cf_sample_t *s, const cf_setpoint_t *sp)
{
    /* Small-angle attitude from the gravity estimate: roll ~ gy, pitch ~ -gx (radians);
     * the PIDs work in degrees like the firmware. */
    float att[3] = {st.gravity[1] * 57.29578f, -st.gravity[0] * 57.29578f, 0.0f};
    float want[3] = {sp->roll, sp->pitch, sp->yaw};
    if (k % 2u == 0) {
        for (int i = 0; i < 3; i++)
            st.rate_sp[i] = pid_update(&st.att[i], want[i] - att[i], 2.0f * DT);
    }
    float out[3];
    for (int i = 0; i < 3; i++)
        out[i] = pid_update(&st.rate[i], st.rate_sp[i] - s->gyro[i] * 57.29578f, DT);
    float r = out[0] / 2.0f, p = out[1] / 2.0f, y = out[2];
    st.motor[0] = motor_limit(sp->thrust - r + p + y);
    st.motor[1] = motor_limit(sp->thrust - r - p - y);
    st.motor[2] = motor_limit(sp->thrust + r - p + y);
    st.motor[3] = motor_limit(sp->thrust + r + p - y);
}

int stabilizer_round(void)
{
    wl_run_t *r = &st.run;
    uint32_t k = r->rounds;
    cf_sample_t s;
    acquire(&s);
    mahony_update(&s, k < WARMUP ? MAHONY_KP_BOOT : MAHONY_KP);
    cf_setpoint_t sp = {0.0f, 0.0f, 0.0f, 36000.0f + (float)(k % 1000u)};
    control(k, &s, &sp);
    if (k >= WARMUP) {
        for (int i = 0; i < 3; i++)
            r->failures += cf_fabsf(st.gravity[i] - s.truth_g[i]) > 0.03f;
        float n = st.q[0] * st.q[0] + st.q[1] * st.q[1] + st.q[2] * st.q[2] + st.q[3] * st.q[3];
        r->failures += cf_fabsf(n - 1.0f) > 1e-3f;
    }
    for (int m = 0; m < 4; m++)
        r->sum = wl_mix32(r->sum, st.motor[m]);
    r->sum = wl_mix32(r->sum, (uint32_t)(int32_t)(st.gravity[1] * 1e6f));
    return wl_run_next(r);
}

uint32_t stabilizer_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t stabilizer_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x93e44c49u, 0x30c0c431u};
    return wl_run_expected(expected, size_class);
}

const wl_program_t stabilizer_program = {"stabilizer", stabilizer_init, stabilizer_round,
                                         stabilizer_checksum, stabilizer_expected};
