/* The software-only overlay variant of Carousel (docs/carousel.md, "The overlay variant"), for
 * a core with a scratchpad (a TCM) but no translation unit: cactus-sim's `overlay-paper`
 * profile, the Carousel prototype without its tag registers.
 *
 * Every task is LINKED at fixed scratchpad addresses (its code and constants, its data if they
 * fit, its stack) with its load image in external RAM; the tasks' scratchpad ranges overlap.
 * An invocation (overlay_run_task) saves to external RAM the part of the scratchpad that the
 * tasks it may preempt use and that overlaps its own range, copies its image in, runs the task
 * on its scratchpad stack, writes its data back to its image and restores the saved range, so
 * whatever it preempted finds the scratchpad as it left it. Invocations must nest (LIFO), as
 * they do under SRP; the saved ranges form a stack in external RAM.
 *
 * Every copy goes through the DMA engine (kernel/arch/rv32/carousel_hw.h). An invocation is
 * two critical sections (interrupts masked) that queue their copies and wait for them before
 * they end; its copies and its work depend only on its descriptor, never on what it preempted,
 * so a task's invocation costs the same cycles whatever the scratchpad holds. */
#ifndef CACTUS_OVERLAY_H
#define CACTUS_OVERLAY_H

#include <stdint.h>
#include "cactus/carousel.h"

/* The scratchpad the tasks are linked into (`overlay-paper`: the `spm` memory). */
#ifndef OVERLAY_SPM_BASE
#define OVERLAY_SPM_BASE 0x30000000u
#endif
#ifndef OVERLAY_SPM_SIZE
#define OVERLAY_SPM_SIZE 0x800u
#endif

/* Bytes of external RAM for the saved ranges of nested invocations (at most one scratchpad
 * per nested invocation). A build may set its own. */
#ifndef OVERLAY_SAVE_MAX
#define OVERLAY_SAVE_MAX (16u * OVERLAY_SPM_SIZE)
#endif

/* A task as linked for the overlay. All lengths are multiples of 4 bytes; every scratchpad
 * range lies inside the scratchpad.
 * - [save, save + save_bytes): what the invocation saves and restores, the overlap of the
 *   task's scratchpad range with those of the tasks it may preempt (0: it preempts nothing);
 * - [image, image + image_bytes) in the scratchpad is loaded from image_lma in external RAM
 *   (code and constants, then data);
 * - its last data_bytes are written back to the image after the task ran (its data; the code
 *   and constants are read-only and discarded);
 * - the task runs entry(arg) with sp = stack_top (16-byte aligned: in the scratchpad, where its
 *   stack needs no copy in or out, or in external RAM for a task whose stack does not fit). */
typedef struct overlay_task {
    carousel_method entry;
    uint32_t save, save_bytes;
    uint32_t image, image_lma, image_bytes;
    uint32_t data_bytes;
    uint32_t stack_top;
} overlay_task;

/* Nothing saved. */
void overlay_init(void);

/* 0 if t's ranges are well-formed (inside the scratchpad, lengths multiples of 4, data within
 * the image, image_lma outside the scratchpad, stack_top 16-byte aligned), else -1. */
int overlay_check(const overlay_task *t);

/* The invocation: queues the copy of the save range out to the save stack and of the image in,
 * runs t->entry(arg) on the task's stack, queues the write-back of the data and the copy of the
 * saved range back, each section waiting for its copies. Must be called with sp outside the
 * scratchpad (the kernel's stack: an invocation's own frames must not be in a range it saves).
 * Returns the cycles the entry ran (mcycle), or -1 if the save stack is full or sp is in the
 * scratchpad: then nothing is copied or run. */
int32_t overlay_run_task(const overlay_task *t, void *arg);

/* Bytes of the save stack in use (0 outside every invocation). */
uint32_t overlay_saved_bytes(void);

#endif
