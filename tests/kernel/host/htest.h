/* Minimal host unit-test harness: HT_CHECK records failures; each test is a function listed
 * in main.c. */
#ifndef HTEST_H
#define HTEST_H
#include <stdio.h>

extern int ht_failed_checks;
#define HT_CHECK(c)                                                                                \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            printf("  check failed: %s:%d: %s\n", __FILE__, __LINE__, #c);                         \
            ht_failed_checks++;                                                                    \
        }                                                                                          \
    } while (0)

void test_readyq_empty(void);
void test_readyq_priority_order(void);
void test_readyq_fifo_and_rotate(void);
void test_readyq_remove(void);
void test_readyq_unlink(void);
void test_readyq_all_levels(void);
void test_readyq_top_cache(void);
void test_readyq_insert_top(void);
void test_timerq_sorted(void);
void test_timerq_fifo_equal(void);
void test_timerq_wraparound(void);
void test_timerq_remove(void);
void test_extent_first_fit(void);
void test_extent_coalesce(void);
void test_extent_exhaust(void);
void test_regions_alloc_free(void);
void test_regions_surplus(void);
void test_regions_give_from_below(void);
void test_regions_give_from_above(void);
void test_classset_next_in_id_order(void);
void test_classset_moves_and_removes(void);
void test_tlsf_layout(void);
void test_tlsf_init_exhaust(void);
void test_tlsf_split_coalesce(void);
void test_tlsf_tag(void);
void test_tlsf_oversize(void);
void test_tlsf_residue(void);
void test_tlsf_pool_max(void);
void test_tlsf_good_fit(void);
void test_tlsf_property(void);
#endif
