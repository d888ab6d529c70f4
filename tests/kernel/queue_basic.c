/* Queue semantics without blocking: FIFO order, item copying (the sender's buffer may change
 * after send), wrap-around of the ring, full and empty with NO_WAIT, argument checks. */
#include "ktest.h"

const char ktest_name[] = "queue_basic";

struct item {
    uint32_t seq;
    char tag[6];
};

static void task(void *arg)
{
    (void)arg;
    static struct item storage[3];
    cactus_queue q;
    struct item it = { 0, "abcde" }, out;
    CHECK_EQ(cactus_queue_init(&q, storage, 0, 3), CACTUS_EINVAL);
    CHECK_EQ(cactus_queue_init(&q, storage, sizeof(struct item), 0), CACTUS_EINVAL);
    CHECK_EQ(cactus_queue_init(&q, storage, sizeof(struct item), 3), CACTUS_OK);
    CHECK_EQ(cactus_queue_recv(&q, &out, CACTUS_NO_WAIT), CACTUS_ETIMEOUT);
    uint32_t next_out = 1;
    for (uint32_t seq = 1; seq <= 10; seq++) {
        it.seq = seq;
        it.tag[0] = (char)('a' + seq);
        CHECK_EQ(cactus_queue_send(&q, &it, CACTUS_NO_WAIT), CACTUS_OK);
        it.seq = 999; /* the queue holds a copy */
        if (cactus_queue_count(&q) == 3) {
            CHECK_EQ(cactus_queue_send(&q, &it, CACTUS_NO_WAIT), CACTUS_ETIMEOUT);
            for (int k = 0; k < 2; k++) {
                CHECK_EQ(cactus_queue_recv(&q, &out, CACTUS_NO_WAIT), CACTUS_OK);
                CHECK_EQ(out.seq, next_out);
                CHECK_EQ(out.tag[0], 'a' + next_out);
                CHECK_EQ(out.tag[1], 'b');
                next_out++;
            }
        }
    }
    while (cactus_queue_recv(&q, &out, CACTUS_NO_WAIT) == CACTUS_OK) {
        CHECK_EQ(out.seq, next_out);
        next_out++;
    }
    CHECK_EQ(next_out, 11);
    CHECK_EQ(cactus_queue_count(&q), 0);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "task", .entry = task, .stack_size = 1024, .prio = 3 },
};

int main(void)
{
    ktest_start(tasks, 1);
}
