/* The sensor: a periodic job (period_ms = 1 in demo.toml) producing one sample per release,
 * sending a block to the consumer every DEMO_BLOCK samples, and ending after DEMO_BLOCKS. */
#include "demo.h"

static struct demo_signal signal;
static struct demo_block block;
static uint32_t fill;  /* samples in `block` */
static int started;

void sensor_job(void *arg)
{
    (void)arg;
    if (!started) {
        demo_signal_init(&signal);
        started = 1;
    }
    block.s[fill++] = demo_signal_next(&signal);
    if (fill < DEMO_BLOCK)
        return;
    /* Blocks only if the consumer is four blocks behind: no sample is ever dropped. */
    cactus_queue_send(&demo_blocks, &block, CACTUS_FOREVER);
    block.seq++;
    fill = 0;
    if (block.seq == DEMO_BLOCKS)
        cactus_task_exit();
}
