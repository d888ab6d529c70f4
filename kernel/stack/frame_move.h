/* Moving a function's frame to another block of memory at its failed entry check
 * (docs/stack-checks.md, docs/mtss.md): the move the `mtss` and `chunks` strategies share.
 *
 * At an entry check the function has lowered sp by F1 and written nothing below its entry sp;
 * its caller's outgoing stack arguments (ARGS bytes) lie at the entry sp. A move gives it a new
 * entry sp at the top of a block (below the copied arguments), points its return address at the
 * return trampoline (port_split_return; port_split_return_args_entry when arguments were
 * copied) and leaves the limit to the strategy; when the function returns, the trampoline calls
 * the strategy, which puts back the entry sp and return address it recorded (frame_move_back).
 *
 * Every strategy keeps its record of a move (at least the entry sp, then the real return
 * address, as two words) right above the copied arguments: at the moved frame's entry sp when
 * there are none, where the trampoline's call frame information reads them (split.S).
 *
 * Guarantees: sp stays 16-byte aligned when the block top is (the copy is rounded up to 16);
 * the block needs exactly frame_move_bytes() bytes below its top; only the block is written. */
#ifndef K_FRAME_MOVE_H
#define K_FRAME_MOVE_H

#include "stack.h"

/* What a move must remember to undo it. */
struct frame_move {
    uintptr_t entry_sp;    /* the function's entry sp where it was called */
    uintptr_t block_entry; /* its entry sp in the block (the sp it returns with) */
    uint32_t ra;           /* its real return address */
};

/* Bytes of stack arguments a move copies (ARGS rounded up to keep sp 16-byte aligned). */
static inline uint32_t frame_move_copy(const struct cactus_check_site *site)
{
    return (cactus_check_args(site) + 15u) & ~15u;
}

/* Bytes a block must have below its top for the frame of `site` and its copied arguments. */
static inline uint32_t frame_move_bytes(const struct cactus_check_site *site)
{
    uint32_t f1 = cactus_check_f1(site);
    uint32_t frame = site->need > f1 ? site->need : f1;
    return frame + frame_move_copy(site);
}

/* Moves the frame of the running task t (stopped at the entry check `site`) to the block whose
 * top is `top` (16-byte aligned): copies the stack arguments, sets t's sp into the block and its
 * return address to the trampoline. The caller sets t->stack.limit. Returns the record that
 * frame_move_back needs. */
static inline struct frame_move frame_move_to(struct k_tcb *t, const struct cactus_check_site *site,
                                              uintptr_t top)
{
    uint32_t f1 = cactus_check_f1(site);
    uint32_t copy = frame_move_copy(site);
    struct frame_move m = { .entry_sp = t->ctx.sp + f1, .block_entry = top - copy,
                            .ra = t->ctx.ra };
    const uint32_t *from = (const uint32_t *)m.entry_sp;
    uint32_t *to = (uint32_t *)m.block_entry;
    t->ctx.sp = m.block_entry - f1;
    /* Without copied arguments the record is at the moved frame's entry sp, where the
     * trampoline's call frame information finds it (split.S); with them, the other
     * trampoline, whose information ends a backtrace (set on the copy's own branch). */
    t->ctx.ra = (uint32_t)(uintptr_t)port_split_return;
    if (copy) {
        for (uint32_t i = 0; i < copy / 4; i++)
            to[i] = from[i]; /* the incoming stack arguments */
        t->ctx.ra = (uint32_t)(uintptr_t)port_split_return_args_entry;
    }
    return m;
}

/* t reached the trampoline: 1 if its sp is the one the moved frame `m` returns with. */
static inline int frame_move_returns(const struct k_tcb *t, const struct frame_move *m)
{
    return t->ctx.sp == m->block_entry;
}

/* Resumes t in its caller as if the moved frame had returned in place (sp, ra and pc). The
 * caller restores t->stack.limit. */
static inline void frame_move_back(struct k_tcb *t, const struct frame_move *m)
{
    t->ctx.sp = m->entry_sp;
    t->ctx.ra = m->ra;
    t->ctx.pc = m->ra;
}

#endif
