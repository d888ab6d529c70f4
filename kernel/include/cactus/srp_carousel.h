/* The SRP dispatcher's Carousel invoker (docs/carousel.md, "Under the kernel's SRP
 * dispatcher"): a firmware built with `[kernel] carousel = true` sets it as its
 * cactus_srp_config.invoke, and every job then runs as the paper's Figure 8 invokes a task:
 * swap_out, open its code, data and stack blocks, run it on its own stack from the SPM, close,
 * swap_in (carousel_run_task). Each job's memory (`cactus_srp_job.mem`) is its
 * carousel_task, laid out and emitted by `cactus build` (Table III).
 *
 * Linked only into such firmware (kernel/carousel/srp_carousel.c, carousel.c,
 * carousel_call.S), which runs on a machine with the Carousel unit (`carousel-paper`). */
#ifndef CACTUS_SRP_CAROUSEL_H
#define CACTUS_SRP_CAROUSEL_H

#include <stdint.h>
#include "cactus/srp.h"

/* Trace markers around every invocation (value: the job's number, counted per job from 0):
 * START + index before swap_out, END + index after swap_in. `cactus run` measures each job
 * between them, less the interrupt windows and the jobs nested in it. */
#define CACTUS_SRP_MARK_JOB_START 0xCAC70500u
#define CACTUS_SRP_MARK_JOB_END 0xCAC70600u

/* Bytes below the invoker's sp that carousel_run_task and carousel_call_on may use before the
 * job switches to its own stack; cactus_srp_spill is set that far below it. */
#define CACTUS_SRP_CAROUSEL_FRAMES 256u

/* The invoker: runs job `index` through carousel_run_task on its own Carousel stack, with
 * cactus_srp_spill below the invocation's frames on the shared stack. Called from a job (a
 * release or unlock that starts another job), it first moves to the shared stack, so nested
 * invocations never grow a job's own blocks. A job whose blocks do not fit is a kernel
 * panic (the build refuses such a layout). */
void cactus_srp_carousel(const cactus_srp_job *job, uint32_t index);

#endif
