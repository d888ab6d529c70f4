/* Host unit tests of the kernel's pure policy code: prints one line per test and
 * "N passed, M failed"; exits non-zero on failure. */
#include "htest.h"

int ht_failed_checks;

static const struct {
    const char *name;
    void (*fn)(void);
} tests[] = {
    { "readyq_empty", test_readyq_empty },
    { "readyq_priority_order", test_readyq_priority_order },
    { "readyq_fifo_and_rotate", test_readyq_fifo_and_rotate },
    { "readyq_remove", test_readyq_remove },
    { "readyq_unlink", test_readyq_unlink },
    { "readyq_all_levels", test_readyq_all_levels },
    { "readyq_top_cache", test_readyq_top_cache },
    { "readyq_insert_top", test_readyq_insert_top },
    { "timerq_sorted", test_timerq_sorted },
    { "timerq_fifo_equal", test_timerq_fifo_equal },
    { "timerq_wraparound", test_timerq_wraparound },
    { "timerq_remove", test_timerq_remove },
    { "extent_first_fit", test_extent_first_fit },
    { "extent_coalesce", test_extent_coalesce },
    { "extent_exhaust", test_extent_exhaust },
    { "regions_alloc_free", test_regions_alloc_free },
    { "regions_surplus", test_regions_surplus },
    { "regions_give_from_below", test_regions_give_from_below },
    { "regions_give_from_above", test_regions_give_from_above },
    { "classset_next_in_id_order", test_classset_next_in_id_order },
    { "classset_moves_and_removes", test_classset_moves_and_removes },
    { "tlsf_layout", test_tlsf_layout },
    { "tlsf_init_exhaust", test_tlsf_init_exhaust },
    { "tlsf_split_coalesce", test_tlsf_split_coalesce },
    { "tlsf_tag", test_tlsf_tag },
    { "tlsf_oversize", test_tlsf_oversize },
    { "tlsf_residue", test_tlsf_residue },
    { "tlsf_pool_max", test_tlsf_pool_max },
    { "tlsf_good_fit", test_tlsf_good_fit },
    { "tlsf_property", test_tlsf_property },
};

int main(void)
{
    int passed = 0, failed = 0;
    for (unsigned i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
        int before = ht_failed_checks;
        tests[i].fn();
        int ok = ht_failed_checks == before;
        printf("%s %s\n", ok ? "PASS" : "FAIL", tests[i].name);
        ok ? passed++ : failed++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
