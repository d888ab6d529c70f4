/* The demo as SRP jobs (demo-srp.toml, docs/srp.md): the same sensor, consumer and logger
 * work as demo.toml's tasks (sensor.c, consumer.c, logger.c), run to completion on one shared
 * stack. The queues stay, used without waiting: the sensor job sends a full block and
 * releases the consumer job, which filters one block per release and releases the logger
 * job, which reports one summary per release and ends the run after the last. A queue is
 * never full when a job sends: a block comes every DEMO_BLOCK releases of the sensor (32 ms)
 * and the consumer and logger jobs finish theirs long before the next; a send that failed,
 * or a release that found nothing to receive, is counted and fails the run. */
#include "demo.h"

static uint32_t lost;
static int sensor_done; /* every block sent: later releases do nothing */

static void check_lost(void)
{
    if (lost) {
        kprintf("FAIL demo: %u messages lost\n", lost);
        cactus_fw_finish(1);
    }
}

void demo_srp_sensor_job(void *arg)
{
    (void)arg;
    if (sensor_done)
        return;
    struct demo_block *b = demo_sensor_sample();
    if (!b)
        return;
    lost += cactus_queue_send(&demo_blocks, b, CACTUS_NO_WAIT) != CACTUS_OK;
    sensor_done = demo_sensor_sent();
    cactus_srp_release(FW_TASK_CONSUMER);
}

void demo_srp_consumer_job(void *arg)
{
    (void)arg;
    struct demo_block in;
    struct demo_summary out;
    if (cactus_queue_recv(&demo_blocks, &in, CACTUS_NO_WAIT) != CACTUS_OK) {
        lost++;
        check_lost();
        return;
    }
    demo_consume(&in, &out);
    lost += cactus_queue_send(&demo_summaries, &out, CACTUS_NO_WAIT) != CACTUS_OK;
    cactus_srp_release(FW_TASK_LOGGER);
}

void demo_srp_logger_job(void *arg)
{
    (void)arg;
    static int started;
    struct demo_summary s;
    if (!started) {
        demo_log_start();
        started = 1;
    }
    if (cactus_queue_recv(&demo_summaries, &s, CACTUS_NO_WAIT) != CACTUS_OK)
        lost++;
    check_lost();
    demo_log(&s);
}
