/* The sensor: a periodic job (period_ms = 1 in demo.toml) producing one sample per release,
 * sending a block to the consumer every DEMO_BLOCK samples, and ending after DEMO_BLOCKS.
 * demo_sensor_sample is the part the SRP variant's job (srp_jobs.c) shares. */
#include "demo.h"

static struct demo_signal signal;
static struct demo_block block;
static uint32_t fill;  /* samples in `block` */
static int started;

struct demo_block *demo_sensor_sample(void)
{
    if (!started) {
        demo_signal_init(&signal);
        started = 1;
    }
    block.s[fill++] = demo_signal_next(&signal);
    return fill < DEMO_BLOCK ? 0 : &block;
}

int demo_sensor_sent(void)
{
    block.seq++;
    fill = 0;
    return block.seq == DEMO_BLOCKS;
}

void sensor_job(void *arg)
{
    (void)arg;
    struct demo_block *b = demo_sensor_sample();
    if (!b)
        return;
    /* Blocks only if the consumer is four blocks behind: no sample is ever dropped. */
    cactus_queue_send(&demo_blocks, b, CACTUS_FOREVER);
    if (demo_sensor_sent())
        cactus_task_exit();
}
