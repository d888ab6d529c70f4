/* Timer queue: deadline order, FIFO among equal deadlines, 32-bit wrap-around, removal. */
#include "htest.h"
#include "timerq.h"

static struct timer_node t[8];

void test_timerq_sorted(void)
{
    struct timerq q;
    timerq_init(&q);
    timerq_insert(&q, &t[0], 30);
    timerq_insert(&q, &t[1], 10);
    timerq_insert(&q, &t[2], 20);
    HT_CHECK(timerq_pop_expired(&q, 9) == NULL);
    HT_CHECK(timerq_pop_expired(&q, 25) == &t[1]);
    HT_CHECK(timerq_pop_expired(&q, 25) == &t[2]);
    HT_CHECK(timerq_pop_expired(&q, 25) == NULL);
    HT_CHECK(timerq_first(&q) == &t[0]);
    HT_CHECK(timerq_pop_expired(&q, 30) == &t[0]);
    HT_CHECK(timerq_first(&q) == NULL);
}

void test_timerq_fifo_equal(void)
{
    struct timerq q;
    timerq_init(&q);
    for (int i = 0; i < 4; i++)
        timerq_insert(&q, &t[i], 50);
    for (int i = 0; i < 4; i++)
        HT_CHECK(timerq_pop_expired(&q, 50) == &t[i]);
}

void test_timerq_wraparound(void)
{
    struct timerq q;
    timerq_init(&q);
    timerq_insert(&q, &t[0], 5);           /* after the wrap */
    timerq_insert(&q, &t[1], 0xFFFFFFF0u); /* before it */
    HT_CHECK(timerq_first(&q) == &t[1]);
    HT_CHECK(timerq_pop_expired(&q, 0xFFFFFFF8u) == &t[1]);
    HT_CHECK(timerq_pop_expired(&q, 0xFFFFFFF8u) == NULL);
    HT_CHECK(timerq_pop_expired(&q, 5) == &t[0]);
}

void test_timerq_remove(void)
{
    struct timerq q;
    timerq_init(&q);
    for (int i = 0; i < 3; i++)
        timerq_insert(&q, &t[i], (uint32_t)(10 * (i + 1)));
    HT_CHECK(timerq_remove(&q, &t[1]) == 1);
    HT_CHECK(timerq_remove(&q, &t[1]) == 0);
    HT_CHECK(timerq_remove(&q, &t[0]) == 1);
    HT_CHECK(timerq_first(&q) == &t[2]);
    HT_CHECK(timerq_remove(&q, &t[2]) == 1);
    HT_CHECK(timerq_first(&q) == NULL);
}
