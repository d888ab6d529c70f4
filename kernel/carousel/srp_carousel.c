/* The SRP dispatcher's Carousel invoker (cactus/srp_carousel.h says what it guarantees;
 * docs/carousel.md how the build lays the jobs out). */
#include "cactus/srp_carousel.h"
#include "cactus/carousel.h"
#include "../core/k.h"
#include "../trace/ktrace.h"

/* Jobs invoked so far, per job index (the markers' values). */
static uint32_t invoked[256];

static inline uint32_t current_sp(void)
{
    uint32_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    return sp;
}

/* Figure 8 for one job, on the shared stack: the markers bracket the whole invocation (the
 * paper counts it as part of the task). */
static void invoke_here(const cactus_srp_job *job, uint32_t index)
{
    uint32_t outer = cactus_srp_spill;
    cactus_srp_spill = (current_sp() - CACTUS_SRP_CAROUSEL_FRAMES) & ~15u;
    uint32_t n = invoked[index & 255u]++;
    ktrace_marker(CACTUS_SRP_MARK_JOB_START + index, n);
    int32_t ran = carousel_run_task((const carousel_task *)job->mem, job->arg);
    ktrace_marker(CACTUS_SRP_MARK_JOB_END + index, n);
    cactus_srp_spill = outer;
    if (ran < 0)
        k_panic("carousel: a job's blocks do not fit the Carousel");
}

typedef struct {
    const cactus_srp_job *job;
    uint32_t index;
} call;

static void invoke_call(void *arg)
{
    const call *c = arg;
    invoke_here(c->job, c->index);
}

void cactus_srp_carousel(const cactus_srp_job *job, uint32_t index)
{
    if (cactus_srp_spill && !cactus_srp_on_shared_stack(current_sp())) {
        /* Started from a job on its own blocks: run the invocation below the shared stack's
         * live part, as a trap would. */
        call c = { job, index };
        carousel_call_on(cactus_srp_spill, invoke_call, &c);
        return;
    }
    invoke_here(job, index);
}
