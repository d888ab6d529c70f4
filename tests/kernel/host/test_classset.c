/* Task-id class set: membership, moves between classes, next-member scans across words, and
 * the last class taking every larger class. */
#include "htest.h"
#include "classset.h"

void test_classset_next_in_id_order(void)
{
    struct classset s;
    classset_init(&s);
    HT_CHECK(classset_next(&s, 0, -1) == -1);
    classset_put(&s, 39, 0);
    classset_put(&s, 3, 0);
    classset_put(&s, 32, 0);
    classset_put(&s, 31, 0);
    HT_CHECK(classset_next(&s, 0, -1) == 3);
    HT_CHECK(classset_next(&s, 0, 3) == 31);
    HT_CHECK(classset_next(&s, 0, 31) == 32); /* into the next word */
    HT_CHECK(classset_next(&s, 0, 32) == 39);
    HT_CHECK(classset_next(&s, 0, 39) == -1);
    HT_CHECK(classset_next(&s, 1, -1) == -1);
    HT_CHECK(classset_next(&s, 0, CACTUS_MAX_TASKS - 1) == -1);
}

void test_classset_moves_and_removes(void)
{
    struct classset s;
    classset_init(&s);
    classset_put(&s, 5, 0);
    classset_put(&s, 6, 0);
    classset_put(&s, 5, 2); /* moved: no longer in class 0 */
    HT_CHECK(classset_class(&s, 5) == 2);
    HT_CHECK(classset_next(&s, 0, -1) == 6);
    HT_CHECK(classset_next(&s, 2, -1) == 5);
    classset_put(&s, 6, 1000); /* beyond the last class: the last class */
    HT_CHECK(classset_class(&s, 6) == CLASSSET_CLASSES - 1);
    HT_CHECK(classset_next(&s, 0, -1) == -1);
    classset_remove(&s, 5);
    classset_remove(&s, 5); /* not a member: nothing */
    HT_CHECK(classset_class(&s, 5) == CLASSSET_NONE);
    HT_CHECK(classset_next(&s, 2, -1) == -1);
    HT_CHECK(s.summary[2] == 0 && s.summary[0] == 0);
    classset_remove(&s, 6);
    HT_CHECK(s.summary[CLASSSET_CLASSES - 1] == 0);
}
