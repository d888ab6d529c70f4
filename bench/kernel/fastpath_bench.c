/* Fast-path benchmark firmware (cactus-sim only; `cactus bench kernel` runs it): kernel calls
 * that switch no task, measured in pairs as an application makes them.
 *   - message pair: cactus_queue_send then cactus_queue_recv of one 16-byte message (a
 *     word-aligned struct) on a queue of four such items, no timeout, nobody waiting;
 *   - pool pair: cactus_pool_alloc then cactus_pool_free of one 32-byte block of an 8-block
 *     pool, no timeout, nobody waiting: the block just freed (SAMPLES times), and once before
 *     them the first use of a block (a never-used one, taken by the out-of-line part).
 * One task alone does both. The message pair is bracketed like MARKED_CALL (marked.h): a
 * MARKER store right before the first call and one as the second instruction after the second
 * call returns, with every marker value and argument in callee-saved registers, so the span is
 * the two calls with their argument set-up (3 instructions each, as a C caller has) and nothing
 * else. The pool calls are inline functions (cactus.h): their pair is the C code between two
 * marker stores. The host subtracts the calibrated marker stores and drops a sample with a
 * trap (the tick) inside. Links the no-trace kernel library, like switch_bench.c. */
#include "cactus/cactus.h"
#include "ids.h"
#include "fastpath_ids.h"
#include "marked.h"

#define SAMPLES 100

struct msg {
    uint32_t w[4];
};
_Static_assert(sizeof(struct msg) == 16, "a 16-byte message");

static struct msg ring[4];
static cactus_queue q;
static uint32_t blocks[8 * 32 / 4];
static cactus_pool pool;

/* send(q, out, 0); recv(q, in, 0) between two markers; returns recv's status. */
static int marked_msg_pair(struct msg *out, struct msg *in)
{
    register uintptr_t a0_ __asm__("a0");
    register uint32_t tb_ __asm__("s2") = CACTUS_TRACE_BASE;
    register uint32_t ev_ __asm__("s3") = CACTUS_EV_MARKER;
    register uint32_t idb_ __asm__("s4") = BID_MSG_BEFORE;
    register uint32_t ida_ __asm__("s5") = BID_MSG_AFTER;
    register uintptr_t send_ __asm__("s6") = (uintptr_t)cactus_queue_send;
    register uintptr_t recv_ __asm__("s7") = (uintptr_t)cactus_queue_recv;
    register uintptr_t q_ __asm__("s8") = (uintptr_t)&q;
    register uintptr_t out_ __asm__("s9") = (uintptr_t)out;
    register uintptr_t in_ __asm__("s10") = (uintptr_t)in;
    __asm__ volatile("sw %[idb], 0x10(%[tb])\n\t"
                     "sw %[ev], 0x20(%[tb])\n\t"
                     "mv a0, %[q]\n\t"
                     "mv a1, %[out]\n\t"
                     "li a2, 0\n\t"
                     "jalr %[send]\n\t"
                     "mv a0, %[q]\n\t"
                     "mv a1, %[in]\n\t"
                     "li a2, 0\n\t"
                     "jalr %[recv]\n\t"
                     "sw %[ida], 0x10(%[tb])\n\t"
                     "sw %[ev], 0x20(%[tb])"
                     : "=r"(a0_)
                     : [tb] "r"(tb_), [ev] "r"(ev_), [idb] "r"(idb_), [ida] "r"(ida_),
                       [send] "r"(send_), [recv] "r"(recv_), [q] "r"(q_), [out] "r"(out_),
                       [in] "r"(in_)
                     : "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a1", "a2", "a3", "a4",
                       "a5", "a6", "a7", "memory");
    return (int)a0_;
}

/* b = alloc(&pool, 0); free(&pool, b) between two markers, as a C caller writes it (both
 * calls are inline in cactus.h); returns free's status (EINVAL if the alloc gave no block).
 * The marker values are inputs of the first marker's asm, so they are in their registers
 * before it; the compiler may place the pool's address there too (a caller keeps it in a
 * register as well). */
static int marked_pool_pair(uint32_t before, uint32_t after)
{
    register uint32_t tb_ __asm__("s2") = CACTUS_TRACE_BASE;
    register uint32_t ev_ __asm__("s3") = CACTUS_EV_MARKER;
    register uint32_t idb_ __asm__("s4") = before;
    register uint32_t ida_ __asm__("s5") = after;
    __asm__ volatile("sw %[idb], 0x10(%[tb])\n\t"
                     "sw %[ev], 0x20(%[tb])"
                     : [tb] "+r"(tb_), [ev] "+r"(ev_), [ida] "+r"(ida_)
                     : [idb] "r"(idb_)
                     : "memory");
    void *b = cactus_pool_alloc(&pool, CACTUS_NO_WAIT);
    int r = cactus_pool_free(&pool, b);
    __asm__ volatile("sw %[ida], 0x10(%[tb])\n\t"
                     "sw %[ev], 0x20(%[tb])"
                     :
                     : [tb] "r"(tb_), [ev] "r"(ev_), [ida] "r"(ida_), "r"(r)
                     : "memory");
    return r;
}

static void runner(void *arg)
{
    (void)arg;
    static struct msg out, in;
    for (uint32_t i = 0; i < SAMPLES; i++) {
        for (int k = 0; k < 4; k++)
            out.w[k] = i * 4 + (uint32_t)k;
        if (marked_msg_pair(&out, &in) != CACTUS_OK || in.w[0] != i * 4 || in.w[3] != i * 4 + 3)
            cactus_exit(1);
    }
    /* The first use of a block (a fresh one: the out-of-line part), then the block just freed. */
    if (marked_pool_pair(BID_POOL_FIRST_BEFORE, BID_POOL_FIRST_AFTER) != CACTUS_OK)
        cactus_exit(1);
    for (uint32_t i = 0; i < SAMPLES; i++)
        if (marked_pool_pair(BID_POOL_BEFORE, BID_POOL_AFTER) != CACTUS_OK)
            cactus_exit(1);
    if (cactus_pool_high_water(&pool) != 1 || cactus_queue_count(&q) != 0)
        cactus_exit(1);
    bench_marker(BID_FAST_DONE, SAMPLES);
    cactus_exit(0);
}

static const cactus_task_desc tasks[] = {
    { .name = "runner", .entry = runner, .stack_size = 512, .prio = 5 },
};

int main(void)
{
    static cactus_config cfg = { .tick_hz = 1000, .tasks = tasks, .ntasks = 1 };
    for (int i = 0; i < 4; i++)
        CALIBRATE(BID_CAL_FIRST, BID_CAL_SECOND);
    if (cactus_queue_init(&q, ring, sizeof(struct msg), 4) != CACTUS_OK ||
        cactus_pool_init(&pool, blocks, 32, 8) != CACTUS_OK)
        cactus_exit(1);
    cactus_start(&cfg);
}
