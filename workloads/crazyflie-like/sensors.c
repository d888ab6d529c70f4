/* sensors.c: the Crazyflie sensors task, one 1 ms activation per round: a "DMA" burst read of
 * the IMU (two 14-byte MPU-style frames, big-endian accel xyz, temperature, gyro xyz, at
 * 4096 LSB/g and 16.4 LSB/(deg/s)) plus a 6-byte barometer frame every 10th activation into
 * a local buffer, frame parsing, gyro bias calibration (mean and variance over the first 256
 * still samples), scaling, and a second-order low-pass (RBJ biquad, 80 Hz at 1 kHz) on every
 * accelerometer and gyro axis; the barometer pressure feeds a running altitude average.
 * Input: a synthetic IMU at rest for the calibration window, then rotating (gyro triangle waves),
 * with per-axis bias and noise; 400 (small) / 6,000 (full) activations. Checks: every parsed
 * field equals the generated value, the calibrated bias is within 1 LSB of the injected one,
 * and after calibration the filtered accel z stays within [0.95, 1.05] g. */
#include "cf_math.h"
#include "crazyflie.h"
#include "wl_math.h"

#define FRAME 14
#define BURST 2
#define BARO_FRAME 6
#define CALIB_SAMPLES 256u
#define ACC_LSB_PER_G 4096.0f
#define GYRO_LSB_PER_DPS 16.4f

typedef struct {
    float b0, b1, b2, a1, a2; /* normalised so a0 = 1 */
} cf_biquad_coef_t;

typedef struct {
    float x1, x2, y1, y2;
} cf_biquad_t;

static const int16_t gyro_bias[3] = {-23, 41, 7};

static struct {
    wl_run_t run;
    cf_biquad_coef_t lp;
    cf_biquad_t filt[6];
    int64_t gsum[3], gsq[3];
    uint32_t nsamples, calibrated;
    int32_t bias[3];
    float out[6]; /* filtered accel (g) and gyro (deg/s) */
    float alt_avg;
} st;

void sensors_init(uint32_t size_class)
{
    wl_run_init(&st.run, 0x5e4505u, size_class ? 6000u : 400u);
    /* RBJ low-pass: w0 = 2 pi fc / fs, alpha = sin(w0) / (2 Q), Q = 1/sqrt(2). */
    double w0 = 2.0 * WL_PI * 80.0 / 1000.0, alpha = wl_sin(w0) / (2.0 * wl_sqrt(0.5));
    double c = wl_cos(w0), a0 = 1.0 + alpha;
    st.lp.b0 = (float)((1.0 - c) / 2.0 / a0);
    st.lp.b1 = (float)((1.0 - c) / a0);
    st.lp.b2 = st.lp.b0;
    st.lp.a1 = (float)(-2.0 * c / a0);
    st.lp.a2 = (float)((1.0 - alpha) / a0);
    for (int i = 0; i < 6; i++) {
        st.filt[i].x1 = st.filt[i].x2 = st.filt[i].y1 = st.filt[i].y2 = 0.0f;
        st.out[i] = 0.0f;
    }
    for (int i = 0; i < 3; i++) {
        st.gsum[i] = st.gsq[i] = 0;
        st.bias[i] = 0;
    }
    st.nsamples = st.calibrated = 0;
    st.alt_avg = 0.0f;
}

static float biquad(cf_biquad_t *f, float x)
{
    float y = st.lp.b0 * x + st.lp.b1 * f->x1 + st.lp.b2 * f->x2 - st.lp.a1 * f->y1 -
              st.lp.a2 * f->y2;
    f->x2 = f->x1;
    f->x1 = x;
    f->y2 = f->y1;
    f->y1 = y;
    return y;
}

static int16_t noise(uint32_t amplitude)
{
    return (int16_t)((int32_t)wl_prng_below(&st.run.rng, 2 * amplitude + 1) - (int32_t)amplitude);
}

static void put_be16(uint8_t *p, int16_t v)
{
    p[0] = (uint8_t)((uint16_t)v >> 8);
    p[1] = (uint8_t)v;
}

static int16_t get_be16(const uint8_t *p)
{
    return (int16_t)(uint16_t)((uint16_t)p[0] << 8 | p[1]);
}

/* The "DMA" transfer: fills the burst with the IMU's frames at sample time k; raw[] gets the
 * values written, for the parse check. */
static void dma_read(uint32_t k, uint8_t *buf, int16_t raw[BURST][7])
{
    for (int f = 0; f < BURST; f++) {
        uint32_t t = 2 * k + (uint32_t)f;
        int32_t motion = 0;
        if (k >= CALIB_SAMPLES) { /* triangle wave, +-400 LSB (~24 deg/s), period 4 s */
            int32_t ph = (int32_t)(t % 4000u);
            motion = ph < 2000 ? ph * 2 / 5 - 400 : 400 - (ph - 2000) * 2 / 5;
        }
        raw[f][0] = noise(20);
        raw[f][1] = noise(20);
        raw[f][2] = (int16_t)(4096 + noise(20));
        raw[f][3] = (int16_t)(2500 + noise(3));
        raw[f][4] = (int16_t)(gyro_bias[0] + motion + noise(4));
        raw[f][5] = (int16_t)(gyro_bias[1] - motion / 2 + noise(4));
        raw[f][6] = (int16_t)(gyro_bias[2] + noise(4));
        for (int i = 0; i < 7; i++)
            put_be16(buf + f * FRAME + 2 * i, raw[f][i]);
    }
}

/* Out of line, like the firmware's calibration and barometer drivers: the activations that
 * run them use more stack. */
__attribute__((noinline)) static void calibrate(const int16_t g[3])
{
    for (int i = 0; i < 3; i++) {
        st.gsum[i] += g[i];
        st.gsq[i] += (int64_t)g[i] * g[i];
    }
    if (++st.nsamples < CALIB_SAMPLES)
        return;
    int ok = 1;
    for (int i = 0; i < 3; i++) {
        int64_t n = st.nsamples, mean = st.gsum[i] / n;
        int64_t var = st.gsq[i] / n - mean * mean;
        ok &= var < 100;
        /* Rounded mean. */
        st.bias[i] = (int32_t)((st.gsum[i] + (st.gsum[i] >= 0 ? n / 2 : -n / 2)) / n);
    }
    st.calibrated = (uint32_t)ok;
}

static void process_frame(const uint8_t *frame, const int16_t want[7])
{
    int16_t v[7];
    for (int i = 0; i < 7; i++) {
        v[i] = get_be16(frame + 2 * i);
        st.run.failures += v[i] != want[i];
    }
    if (!st.calibrated) {
        calibrate(v + 4);
        return;
    }
    for (int i = 0; i < 3; i++) {
        st.out[i] = biquad(&st.filt[i], (float)v[i] / ACC_LSB_PER_G);
        st.out[3 + i] = biquad(&st.filt[3 + i], (float)(v[4 + i] - st.bias[i]) / GYRO_LSB_PER_DPS);
    }
}

__attribute__((noinline)) static void baro_update(uint32_t k)
{
    uint8_t frame[BARO_FRAME];
    uint32_t pressure = 101325u * 16u - k % 97u + wl_prng_below(&st.run.rng, 8);
    for (int i = 0; i < 3; i++)
        frame[i] = (uint8_t)(pressure >> (16 - 8 * i));
    frame[3] = frame[4] = frame[5] = 0;
    uint32_t p = (uint32_t)frame[0] << 16 | (uint32_t)frame[1] << 8 | frame[2];
    st.run.failures += p != (pressure & 0xffffffu);
    /* Altitude ~ (p0 - p) * 8.3 cm/Pa around sea level; exponential average. */
    float alt = (float)(101325.0 * 16.0 - (double)p) / 16.0f * 0.083f;
    st.alt_avg += 0.05f * (alt - st.alt_avg);
}

int sensors_round(void)
{
    wl_run_t *r = &st.run;
    uint32_t k = r->rounds;
    uint8_t dma[BURST * FRAME];
    int16_t raw[BURST][7];
    dma_read(k, dma, raw);
    for (int f = 0; f < BURST; f++)
        process_frame(dma + f * FRAME, raw[f]);
    if (k % 10u == 0)
        baro_update(k);
    if (st.calibrated && k >= CALIB_SAMPLES / BURST + 50u)
        r->failures += st.out[2] < 0.95f || st.out[2] > 1.05f;
    if (k == r->limit - 1) {
        r->failures += !st.calibrated;
        for (int i = 0; i < 3; i++)
            r->failures += st.bias[i] - gyro_bias[i] > 1 || gyro_bias[i] - st.bias[i] > 1;
    }
    for (int i = 0; i < 6; i++)
        r->sum = wl_mix32(r->sum, (uint32_t)(int32_t)(st.out[i] * 1000.0f));
    r->sum = wl_mix32(r->sum, (uint32_t)(int32_t)(st.alt_avg * 100.0f));
    return wl_run_next(r);
}

uint32_t sensors_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t sensors_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xf57489b2u, 0x33adfdceu};
    return wl_run_expected(expected, size_class);
}

const wl_program_t sensors_program = {"sensors", sensors_init, sensors_round, sensors_checksum,
                                      sensors_expected};
