/* The demo's kernel objects, set up by main before the kernel starts (firmware.init). */
#include "demo.h"

cactus_queue demo_blocks;
cactus_queue demo_summaries;

static struct demo_block block_buf[4];
static struct demo_summary summary_buf[4];

void demo_init(void)
{
    demo_crc32_setup();
    cactus_queue_init(&demo_blocks, block_buf, sizeof(block_buf[0]), 4);
    cactus_queue_init(&demo_summaries, summary_buf, sizeof(summary_buf[0]), 4);
}
