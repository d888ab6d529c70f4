/* The kernel side of the isolate pass (docs/sensmart.md "Memory isolation"). Code built with
 * `cactus cc --isolate` checks its stores, jumps and C library writer calls against the
 * running task's windows in cactus_iso_win; a check that fails there enters
 * k_isolate_trap through port_isolate_<kind>_<A>_<B> (arch/rv32/isolate.S), interrupts
 * masked, on the kernel stack, with the task's registers in its context.
 *
 * A task's regions: its own globals (the .data/.bss/.sdata/.sbss of the source units only it
 * lists, which the firmware's link script gathers per task), its stack extent (the stack
 * strategy's region) and the shared globals (units several tasks list, and the generated
 * glue: pool buffers and kernel objects the manifest declares). Code it may jump to: the
 * application's (every task's units, the shared units, the glue: all of it instrumented, so
 * whichever task's function runs, its stores are checked against the *running* task's regions)
 * and port_task_return_to, where its entry function returns; never the kernel's or libgcc's,
 * which are not instrumented.
 *
 * Guarantees: a store, a library writer's destination range or a jump target that lies inside
 * one of the running task's regions (the application code, for a jump) resumes the task after
 * its check (the check's windows are the same regions, so the slow path only sees what the
 * inline check cannot decide: a narrower store in a region's last word, strcpy);
 * anything else is reported (task, pc, address, what lies there) and the task's fault policy
 * applies with reason CACTUS_FAULT_ISOLATION, nothing written. Kernel code, interrupt handlers
 * and tasks the manifest does not declare (the timer task) are not restricted. */
#include "k.h"
#include "../stack/stack.h"

/* The link script's table (crates/firmware/src/isolate_link.rs): the number of manifest tasks
 * N; the shared data [lo, hi) and shared text [lo, hi); then per manifest task its data
 * [lo, hi) and text [lo, hi). Absent (weak) in a firmware built without isolation. */
extern const uint32_t cactus_iso_table[] __attribute__((weak));
extern const char port_task_return_to[];

/* The running task's windows, read by every check site (crates/cc/src/isolate.rs): [0] own
 * globals lo, [1] own globals hi - 4, [2] its stack lo, [3] its hi - 4, [4] the shared globals
 * lo, [5] their hi - 4, [6] application code lo, [7] its hi. Until the first task runs
 * everything is inside them. Small data: one gp-relative load each. */
#define ISO_WORDS 8
uint32_t cactus_iso_win[ISO_WORDS] __attribute__((section(".sdata.cactus_iso_win"))) = {
    0, 0xfffffffcu, 0, 0xfffffffcu, 0, 0xfffffffcu, 0, 0xffffffffu,
};

/* Each task's windows while it does not run. */
static uint32_t iso_win[CACTUS_MAX_TASKS][ISO_WORDS];
static uint8_t iso_ready[CACTUS_MAX_TASKS];

uint32_t k_isolate_slow;       /* slow-path entries that were allowed (for measurements) */
uint32_t k_isolate_violations; /* accesses refused */

/* The manifest index of t (its descriptor's place in the configuration), or -1. */
static int manifest_index(const struct k_tcb *t)
{
    if (!cactus_iso_table || !k_cfg || !t->desc)
        return -1;
    int i = (int)(t->desc - k_cfg->tasks);
    if (t->desc < k_cfg->tasks || i >= (int)cactus_iso_table[0])
        return -1;
    return i;
}

static const uint32_t *task_entry(int i)
{
    return &cactus_iso_table[5 + 4 * i];
}

static void set_window(uint32_t *w, uint32_t lo, uint32_t hi)
{
    w[0] = lo;
    w[1] = hi >= lo + 4 ? hi - 4 : lo - 1; /* an empty or tiny region: nothing passes inline */
}

/* The application code: every manifest task's text and the shared text (the link script
 * places them together, so one span covers them). */
static void code_span(uint32_t *lo, uint32_t *hi)
{
    *lo = cactus_iso_table[3];
    *hi = cactus_iso_table[4];
    for (int i = 0; i < (int)cactus_iso_table[0]; i++) {
        const uint32_t *e = task_entry(i);
        if (e[2] < e[3] && e[2] < *lo)
            *lo = e[2];
        if (e[2] < e[3] && e[3] > *hi)
            *hi = e[3];
    }
}

static int in_app_code(uint32_t a)
{
    if (a >= cactus_iso_table[3] && a < cactus_iso_table[4])
        return 1;
    for (int i = 0; i < (int)cactus_iso_table[0]; i++) {
        const uint32_t *e = task_entry(i);
        if (a >= e[2] && a < e[3])
            return 1;
    }
    return 0;
}

static void init_windows(struct k_tcb *t)
{
    int id = k_id(t), i = manifest_index(t);
    uint32_t *w = iso_win[id];
    if (i < 0) {
        /* Not a manifest task (the timer task): unrestricted. */
        for (int k = 0; k < 6; k += 2) {
            w[k] = 0;
            w[k + 1] = 0xfffffffcu;
        }
        w[6] = 0;
        w[7] = 0xffffffffu;
    } else {
        const uint32_t *e = task_entry(i);
        cactus_stack_info s;
        stack_usage(t, &s);
        set_window(&w[0], e[0], e[1]);
        set_window(&w[2], s.base, s.base + s.size);
        set_window(&w[4], cactus_iso_table[1], cactus_iso_table[2]);
        code_span(&w[6], &w[7]);
    }
    iso_ready[id] = 1;
}

void k_isolate_switch(struct k_tcb *t)
{
    int id = k_id(t);
    if (!iso_ready[id])
        init_windows(t);
    for (int k = 0; k < ISO_WORDS; k++)
        cactus_iso_win[k] = iso_win[id][k];
}

static int inside(uint32_t a, uint32_t n, uint32_t lo, uint32_t hi)
{
    return a >= lo && a <= hi && n <= hi - a;
}

/* Prints what lies at address a, for the report. */
static void describe(uint32_t a)
{
    for (int id = 0; id < CACTUS_MAX_TASKS; id++) {
        const struct k_tcb *u = &k_tasks[id];
        uintptr_t lo = (uintptr_t)u;
        if (a >= lo && a < lo + sizeof *u) {
            k_report("the TCB of task %d", id);
            return;
        }
        if (!k_alive(u))
            continue;
        int i = manifest_index(u);
        cactus_stack_info s;
        stack_usage(u, &s);
        if (a >= s.base && a < s.base + s.size) {
            k_report("the stack of task %d '%s'", id, u->desc->name);
            return;
        }
        if (i >= 0) {
            const uint32_t *e = task_entry(i);
            if (a >= e[0] && a < e[1]) {
                k_report("the globals of task %d '%s'", id, u->desc->name);
                return;
            }
            if (a >= e[2] && a < e[3]) {
                k_report("the code of task %d '%s'", id, u->desc->name);
                return;
            }
        }
    }
    k_report("kernel or unowned memory");
}

/* Kinds (isolate.S): 1, 2, 4 a store of that many bytes; 8 a jump; 9 a write of
 * [a0, a0 + a2); 10 strcpy's [a0, a0 + strlen(a1) + 1). */
void k_isolate_trap(uint32_t addr, uint32_t kind)
{
    struct k_tcb *cur = k_cur();
    int id = k_id(cur), i = manifest_index(cur);
    uint32_t n = kind <= 4 ? kind : 1;
    const char *what = "store";
    if (kind == 9) {
        addr = cur->ctx.a0;
        n = cur->ctx.a2;
        what = "library write";
    } else if (kind == 10) {
        addr = cur->ctx.a0;
        n = 1;
        for (const char *p = (const char *)(uintptr_t)cur->ctx.a1; *p; p++)
            n++;
        what = "strcpy";
    } else if (kind == 8) {
        what = "jump";
    }
    if (!iso_ready[id])
        init_windows(cur);
    if (i < 0) {
        k_isolate_slow++;
        return;
    }
    const uint32_t *e = task_entry(i);
    const uint32_t *shared = &cactus_iso_table[1];
    if (kind == 8) {
        if (in_app_code(addr) || addr == (uint32_t)(uintptr_t)port_task_return_to) {
            k_isolate_slow++;
            return;
        }
    } else {
        /* The inline check tries the same three regions; it misses a narrower store in a
         * region's last word, a write crossing into the next region, strcpy. */
        cactus_stack_info s;
        stack_usage(cur, &s);
        if (inside(addr, n, e[0], e[1]) || inside(addr, n, s.base, s.base + s.size) ||
            inside(addr, n, shared[0], shared[1])) {
            k_isolate_slow++;
            return;
        }
    }
    k_isolate_violations++;
    /* The stub's `jal` is 4 bytes before the resume address. */
    uint32_t pc = cur->ctx.pc - 4;
    k_report("cactus: isolate: task %d '%s' pc=%08x: %s of %u bytes at %08x is outside its "
            "regions (",
            id, cur->desc->name, pc, what, kind == 8 ? 0 : n, addr);
    describe(addr);
    k_report(")\n");
    cactus_fault f = {
        .reason = CACTUS_FAULT_ISOLATION, .pc = pc, .tval = addr, .sp = cur->ctx.sp,
    };
    k_fault(cur, &f);
    k_reschedule();
}
