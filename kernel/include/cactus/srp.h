/* The SRP scheduling mode (docs/srp.md): jobs that run to completion, nested in LIFO order on
 * one shared stack, under Baker's stack resource policy: fixed-priority preemption levels, or
 * EDF (levels from relative deadlines, the earliest absolute deadline above the ceiling first).
 *
 * A firmware in this mode has one kernel task, the dispatcher (`cactus_srp_main`, its stack
 * is the shared stack), and a table of jobs. A job's entry is called once per release: every
 * `period` ticks, and whenever `cactus_srp_release` names it (from a job or an interrupt
 * handler). A released job starts at once, on the running job's stack, if its preemption level
 * is above the system ceiling (the running job's level, raised by the resources it holds);
 * otherwise it waits until the ceiling drops below its level. A job must never block: it runs
 * from release to completion (`cactus build` refuses a job that can reach a blocking call).
 *
 * Linked only into SRP firmware (kernel/core/srp.c, kernel/arch/rv32/srp.S). */
#ifndef CACTUS_SRP_H
#define CACTUS_SRP_H

#include <stdint.h>

/* One job, as the firmware declares it (static const; the table must outlive the run). */
typedef struct cactus_srp_job {
    const char *name;
    void (*entry)(void *arg);
    void *arg;
    uint32_t period;   /* ticks between releases; 0: released only by cactus_srp_release */
    uint32_t deadline; /* relative deadline in ticks; 0: none (no miss is counted) */
    uint8_t level;     /* preemption level 0..31 (fixed priority: the priority; EDF: higher for a
                        * shorter relative deadline) */
    uint32_t offset;   /* periodic jobs: ticks from the dispatcher's start to the first release
                        * (a manifest's start_delay_ms); later ones follow every period */
    const void *mem;   /* for the config's invoker: the job's memory (the Carousel invoker: its
                        * carousel_task, the layout `cactus build` emits); NULL without one */
} cactus_srp_job;

/* How the dispatcher runs a job (cactus_srp_config.invoke): called with interrupts enabled,
 * returns when the job has completed. NULL: the job's entry is called on the current stack.
 * An invoker that runs the job on a stack of its own must keep cactus_srp_spill (below). */
typedef void (*cactus_srp_invoker)(const cactus_srp_job *job, uint32_t index);

/* What the kernel keeps per job (zero-initialised storage the firmware provides). */
typedef struct cactus_srp_job_state {
    uint32_t releases;     /* releases so far */
    uint32_t misses;       /* jobs that completed at or after their deadline's tick */
    uint32_t pending;      /* releases not yet started */
    uint32_t release_tick; /* release of the oldest pending one */
    uint32_t next_release; /* periodic jobs: the tick of the next release */
} cactus_srp_job_state;

/* A resource shared by jobs: locking it raises the system ceiling to `ceiling`, the highest
 * preemption level among its users, so no other user can start while it is held and no user
 * ever blocks on it. Initialise with CACTUS_SRP_RESOURCE(ceiling). */
typedef struct cactus_srp_resource {
    uint8_t ceiling;
    uint8_t saved; /* the system ceiling before the lock (locks nest LIFO) */
} cactus_srp_resource;
#define CACTUS_SRP_RESOURCE(c) { (uint8_t)(c), 0 }

/* The dispatcher's argument: the job table and its state, `njobs` entries each. */
typedef struct cactus_srp_config {
    const cactus_srp_job *jobs;
    cactus_srp_job_state *state;
    uint8_t *order; /* scratch: njobs bytes, the jobs by falling level */
    uint32_t njobs;
    /* 0: fixed priority (the highest level above the ceiling starts first). 1: EDF: among the
     * pending jobs above the ceiling whose absolute deadline (release + deadline) is earlier
     * than the running job's, the earliest starts first. */
    uint32_t edf;
    /* How each job is run: NULL calls its entry on the shared stack; cactus_srp_carousel
     * (cactus/srp_carousel.h) invokes it through Carousel on its own stack. */
    cactus_srp_invoker invoke;
} cactus_srp_config;

/* For an invoker that runs a job off the shared stack: while such a job runs, the lowest live
 * byte of the shared stack (16-byte aligned), where a trap that starts jobs nested on it
 * pushes its frame and runs them (not on the job's own stack); 0 when no job runs off the
 * shared stack. The invoker sets it before the job and restores the previous value after
 * (invocations nest LIFO). */
extern uint32_t cactus_srp_spill;
/* Whether sp lies on the shared stack (the dispatcher's: from its limit to the dispatcher's
 * own frame). */
int cactus_srp_on_shared_stack(uint32_t sp);

/* The dispatcher: the body of the firmware's one kernel task, whose stack is the shared stack.
 * Makes the first release of every periodic job, then runs released jobs for ever. */
void cactus_srp_main(void *config) __attribute__((noreturn));
/* Releases job `job` once (from a job, an interrupt handler or the firmware's init code once
 * the dispatcher runs). From a job the released job runs before this call returns if its
 * level is above the system ceiling; from a handler it runs when the handler returns. Returns
 * CACTUS_OK, or CACTUS_EINVAL for an unknown job. */
int cactus_srp_release(int job);
/* Locks r (a job only): the system ceiling becomes max(ceiling, r->ceiling). Never blocks. */
void cactus_srp_lock(cactus_srp_resource *r);
/* Unlocks the resource locked last: the ceiling drops back and the released jobs now above it
 * run before this call returns. */
void cactus_srp_unlock(cactus_srp_resource *r);
/* The running job's index, or -1 outside any job. */
int cactus_srp_job_self(void);
/* The system ceiling now (the running job's level, raised by held resources; -1: no job). */
int cactus_srp_ceiling(void);
/* Releases and deadline misses of job `job` so far (0 for an unknown job). */
uint32_t cactus_srp_releases(int job);
uint32_t cactus_srp_misses(int job);
/* Jobs started so far, and how many of them preempted a running job (ran nested on it). */
uint32_t cactus_srp_dispatches(void);
uint32_t cactus_srp_preemptions(void);

#endif
