/* Carousel: local memory reserved by the task that uses it (Whitham & Audsley, "Explicit
 * Reservation of Local Memory in a Predictable, Preemptive Multitasking Real-time System";
 * docs/carousel.md). The operations of the paper's section IV-D over the Carousel unit of
 * cactus-sim's `carousel-paper` profile (kernel/arch/rv32/carousel_hw.h).
 *
 * Carousel is a stack of 2^x-byte blocks whose top n live in the SPM; T is the index of the
 * next block to use. A method that needs y code blocks and z stack blocks is run with
 * carousel_call_method: it swaps out the y + z blocks at T (their contents written back to
 * external RAM and their tags pushed), opens its code and stack there, runs the method from the
 * SPM, closes them and swaps the earlier blocks back in (tags popped, contents copied back), so
 * whatever it preempted finds the SPM as it left it: the preempting method pays for the local
 * memory it uses, the preempted one pays nothing. Invocations must nest (LIFO), as they do
 * under SRP. Each operation is a critical section (interrupts masked); the method runs with
 * the interrupt state of its caller.
 *
 * The two improvements the paper uses: a code block is read-only, so closing it discards it
 * (no write-back); a stack block holds nothing live when opened and nothing live once closed,
 * so opening and closing it move no data. swap_in and swap_out always copy (an unused block
 * to and from a dummy block), so every operation takes the same time whatever the Carousel
 * holds. */
#ifndef CACTUS_CAROUSEL_H
#define CACTUS_CAROUSEL_H

#include <stdint.h>

/* What a block holds, which says what open and close must copy. */
typedef enum {
    CAROUSEL_CODE,  /* read-only: open copies in, close discards */
    CAROUSEL_DATA,  /* open copies in, close writes back */
    CAROUSEL_STACK, /* neither */
} carousel_kind;

/* Tags saved by swap_out and not yet restored (the push/pop stack of section IV-D): n per
 * nested invocation at most, so 16 nested invocations of a full 16-block Carousel (under SRP
 * one per preemption level). A build may set its own. */
#ifndef CAROUSEL_SAVED_MAX
#define CAROUSEL_SAVED_MAX 256
#endif

/* A method run by carousel_invoke / carousel_call_method. */
typedef void (*carousel_method)(void *arg);

/* Every tag UNUSED, T = 0, nothing saved. */
void carousel_init(void);

/* open(A, i): block i of the SPM serves the block of external RAM at A (2^x-aligned), its
 * bytes copied in unless it is a stack block. */
void carousel_open(uint32_t addr, unsigned block, carousel_kind kind);

/* close(i): data written back to the external RAM at r_i (code and stack blocks are not),
 * then r_i = UNUSED. Closing an unused block does nothing. */
void carousel_close(unsigned block, carousel_kind kind);

/* swap_out(p): pushes the tags of blocks T .. T+p-1 (mod n), writes each used one back
 * whatever it holds, and advances T by p. Returns -1 (nothing done) if p > n or the saved
 * stack is full. */
int carousel_swap_out(unsigned p);

/* swap_in(p): moves T back by p and reopens blocks T+p-1 .. T from the popped tags, copying
 * their bytes in. Returns -1 (nothing done) if fewer than p tags are saved. */
int carousel_swap_in(unsigned p);

/* T, the next block to use. */
unsigned carousel_top(void);

/* The task invocation of the paper's Figure 8 (steps 2-6), for the kernel: swap_out(y + z),
 * opens m's y code blocks (from m's address rounded down to a block) and the z stack blocks
 * below stack_top (rounded down to a block), runs m(arg) with sp there, closes them and
 * swaps the earlier blocks back in. Returns the cycles m itself ran (mcycle, the trampoline's
 * few instructions included), or -1 if the blocks do not fit (y + z > n or the saved stack is
 * full): then m is not run. */
int32_t carousel_invoke(carousel_method m, unsigned code_blocks, unsigned stack_blocks,
                        void *arg, uint32_t stack_top);

/* A task as the build lays it out (Table III): its code (read-only: code and constants), its
 * data and its stack, each a run of whole blocks in external RAM; `entry` may lie anywhere
 * (e.g. a trampoline in the OS scratchpad that calls into the code). A region with 0 blocks is
 * not opened: its bytes are reached in external RAM. */
typedef struct carousel_task {
    carousel_method entry;
    uint32_t code;       /* first code block (block-aligned) */
    uint32_t stack_top;  /* the stack's blocks are the stack_blocks below it (rounded down) */
    uint32_t data;       /* first data block (block-aligned) */
    uint8_t code_blocks;
    uint8_t data_blocks;
    uint8_t stack_blocks;
} carousel_task;

/* The task invocation of Figure 8 for a laid-out task: swap_out(y + d + z), opens its code,
 * data and stack blocks, runs t->entry(arg) on its stack, closes them (data written back,
 * code discarded, stack dropped) and swaps the earlier blocks back in. Returns the cycles the
 * entry ran (mcycle), or -1 if the blocks do not fit: then nothing is run. */
int32_t carousel_run_task(const carousel_task *t, void *arg);

/* call_method(A, y, z): runs m(arg) from the SPM with its y code blocks (from m's address,
 * rounded down to a block) and z stack blocks (below the caller's stack pointer rounded down
 * to a block: the method's stack starts there, so no live byte of its caller shares a block
 * with it): a subtask's call, on the calling task's stack. Returns the cycles m itself ran (mcycle), or -1 if the blocks do not fit
 * (y + z > n or the saved stack is full): then m is not run. */
int32_t carousel_call_method(carousel_method m, unsigned code_blocks, unsigned stack_blocks,
                             void *arg);

/* Runs fn(arg) with sp = stack (16-byte aligned), restoring the caller's sp after
 * (kernel/carousel/carousel_call.S). */
void carousel_call_on(uint32_t stack, carousel_method fn, void *arg);

#endif
