/* Per-stacklet overhead scenario of `cactus bench segmented` (crates/bench/src/segmented), two
 * tasks running the same recursion through `level`, DEPTH + 1 frames:
 *   - `frame` (runs first) has a first stacklet that holds the whole recursion, so nothing
 *     moves: each level records its sp, and the difference of two consecutive levels is the
 *     frame's size, emitted as MARKER 3;
 *   - `deep` has a 128-byte first stacklet, and (stacklet_min = 64, no cache, overhead.toml)
 *     every level links a stacklet of its own. At the deepest level it reads the kernel's
 *     count of heap bytes the tasks hold (cactus_stacklet_heap_bytes,
 *     kernel/stack/segmented.c); back at the top it emits MARKER 2 with the growth since
 *     MARKER 1.
 * The bench counts deep's links (OVERFLOW events) between MARKER 1 and MARKER 2 in the trace:
 * overhead per stacklet = (growth - links x frame) / links, measured, not assumed. Nothing is
 * printed: kprintf's frame is pinned (its va_list escapes) and would not fit deep's first
 * stacklet. The sp is read with inline assembly, which pins no frame (taking a local's address
 * would). */
#include "cactus/cactus.h"
#include "cactus_firmware.h"
#include <stdint.h>

#define DEPTH 16

extern uint32_t cactus_stacklet_heap_bytes;

static uint32_t at_bottom;
static uintptr_t sp_at[DEPTH + 1];
static volatile uint32_t sink;

__attribute__((noinline)) static uint32_t level(uint32_t n)
{
    volatile uint32_t pad[8]; /* the frame: 32 bytes of locals, ra and s0 */
    uintptr_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    sp_at[n] = sp;
    pad[0] = n;
    pad[7] = n * 3u;
    if (n == 0) {
        at_bottom = cactus_stacklet_heap_bytes;
        return pad[0] + pad[7];
    }
    return level(n - 1) + pad[0] + pad[7];
}

/* Runs the recursion where nothing moves and emits the frame's size (MARKER 3); exits with 1 if
 * two levels' frames differ. */
void frame_main(void *arg)
{
    (void)arg;
    sink = level(DEPTH);
    uint32_t frame = (uint32_t)(sp_at[DEPTH] - sp_at[DEPTH - 1]);
    for (uint32_t n = DEPTH; n > 0; n--)
        if (sp_at[n] - sp_at[n - 1] != frame)
            cactus_exit(1);
    cactus_marker(3, frame);
}

void overhead_main(void *arg)
{
    (void)arg;
    uint32_t before = cactus_stacklet_heap_bytes;
    cactus_marker(1, before);
    sink = level(DEPTH);
    cactus_marker(2, at_bottom - before);
    cactus_exit(sink == 0 ? 2u : 0u);
}
