/* Per-stacklet overhead scenario of `cactus bench segmented` (crates/bench/src/segmented): one
 * task recurses DEPTH levels through `level`, whose frame does not fit what is left of its
 * stacklet, so (with stacklet_min = 64 and no cache, overhead.toml) every level links a
 * stacklet of its own. At the deepest level the task reads the kernel's count of heap bytes the
 * tasks hold (cactus_stacklet_heap_bytes, kernel/stack/segmented.c); back at the top it emits
 * MARKER 2 with the growth since MARKER 1. The bench takes the links (OVERFLOW events) between
 * the two markers and their frames' bytes (each event's requested bytes) from the trace:
 * overhead per stacklet = (growth - frame bytes) / links, measured, not assumed. */
#include "cactus/cactus.h"
#include "cactus_firmware.h"
#include <stdint.h>

#define DEPTH 16

extern uint32_t cactus_stacklet_heap_bytes;

static uint32_t at_bottom;
static volatile uint32_t sink;

__attribute__((noinline)) static uint32_t level(uint32_t n)
{
    volatile uint32_t pad[8]; /* the frame: 32 bytes of locals, ra and s0 */
    pad[0] = n;
    pad[7] = n * 3u;
    if (n == 0) {
        at_bottom = cactus_stacklet_heap_bytes;
        return pad[0] + pad[7];
    }
    return level(n - 1) + pad[0] + pad[7];
}

void overhead_main(void *arg)
{
    (void)arg;
    uint32_t before = cactus_stacklet_heap_bytes;
    cactus_marker(1, before);
    sink = level(DEPTH);
    cactus_marker(2, at_bottom - before);
    kprintf("segmented overhead: %u levels, heap grew %u bytes\n", DEPTH + 1u, at_bottom - before);
    cactus_exit(sink == 0 ? 1u : 0u);
}
