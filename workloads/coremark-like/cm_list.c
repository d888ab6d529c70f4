/* cm_list.c: the list kernel. Per iteration: eight finds by low data byte (a found node moves
 * to the front; the list is reversed after every find), a merge sort by data, a change of
 * one node's data, and a merge sort back by idx. Checks: the data order is non-decreasing
 * after the first sort, and the idx order is exactly 0..63 after the second (the list is
 * still a permutation of the pool). CRC: find results, then every data value in sorted order. */
#include "coremark.h"

typedef int (*cm_cmp_t)(const cm_node_t *, const cm_node_t *);

static int cmp_data(const cm_node_t *a, const cm_node_t *b)
{
    return (a->data > b->data) - (a->data < b->data);
}

static int cmp_idx(const cm_node_t *a, const cm_node_t *b)
{
    return (a->idx > b->idx) - (a->idx < b->idx);
}

void cm_list_init(cm_state_t *s)
{
    wl_prng_t rng;
    wl_prng_seed(&rng, (uint32_t)s->seed1 << 16 | s->seed2);
    for (int i = 0; i < CM_LIST_NODES; i++) {
        s->nodes[i].idx = (int16_t)i;
        s->nodes[i].data = (int16_t)(wl_prng_next(&rng) & 0x7fffu);
        s->nodes[i].next = i + 1 < CM_LIST_NODES ? &s->nodes[i + 1] : NULL;
    }
    s->head = &s->nodes[0];
}

static cm_node_t *reverse(cm_node_t *list)
{
    cm_node_t *prev = NULL;
    while (list) {
        cm_node_t *next = list->next;
        list->next = prev;
        prev = list;
        list = next;
    }
    return prev;
}

/* Finds the first node whose low data byte is key; moves it to the front. Returns its
 * position (1-based) or 0 if absent. */
static uint32_t find_to_front(cm_node_t **head, uint8_t key)
{
    cm_node_t *prev = NULL, *n = *head;
    uint32_t pos = 1;
    while (n && (uint8_t)(n->data & 0xff) != key) {
        prev = n;
        n = n->next;
        pos++;
    }
    if (!n)
        return 0;
    if (prev) {
        prev->next = n->next;
        n->next = *head;
        *head = n;
    }
    return pos;
}

/* Bottom-up merge sort of a singly linked list (stable). */
static cm_node_t *merge_sort(cm_node_t *list, cm_cmp_t cmp)
{
    for (uint32_t width = 1;; width *= 2) {
        cm_node_t *p = list, *tail = NULL;
        uint32_t merges = 0;
        list = NULL;
        while (p) {
            merges++;
            cm_node_t *q = p;
            uint32_t psize = 0, qsize = width;
            while (psize < width && q) {
                psize++;
                q = q->next;
            }
            while (psize > 0 || (qsize > 0 && q)) {
                cm_node_t *e;
                if (psize == 0 || (qsize > 0 && q && cmp(q, p) < 0)) {
                    e = q;
                    q = q->next;
                    qsize--;
                } else {
                    e = p;
                    p = p->next;
                    psize--;
                }
                if (tail)
                    tail->next = e;
                else
                    list = e;
                tail = e;
            }
            p = q;
        }
        if (tail)
            tail->next = NULL;
        if (merges <= 1)
            return list;
    }
}

uint16_t cm_list_iterate(cm_state_t *s, uint32_t iteration, uint32_t *failures)
{
    uint16_t crc = 0;
    uint32_t found = 0, missed = 0, pos_sum = 0;
    for (uint32_t q = 0; q < 8; q++) {
        uint8_t key = (uint8_t)(iteration * 7u + q * 13u + s->seed3);
        uint32_t pos = find_to_front(&s->head, key);
        found += pos != 0;
        missed += pos == 0;
        pos_sum += pos;
        s->head = reverse(s->head);
    }
    crc = cm_crc16((uint16_t)found, crc);
    crc = cm_crc16((uint16_t)missed, crc);
    crc = cm_crc16((uint16_t)pos_sum, crc);
    s->head = merge_sort(s->head, cmp_data);
    uint32_t count = 0;
    for (const cm_node_t *n = s->head; n; n = n->next) {
        *failures += n->next && n->data > n->next->data;
        crc = cm_crc16((uint16_t)n->data, crc);
        count++;
    }
    *failures += count != CM_LIST_NODES;
    s->head->data = (int16_t)((s->head->data + (int32_t)(iteration * 31u + 1u)) & 0x7fff);
    s->head = merge_sort(s->head, cmp_idx);
    int16_t want = 0;
    for (const cm_node_t *n = s->head; n; n = n->next)
        *failures += n->idx != want++;
    *failures += want != CM_LIST_NODES;
    return crc;
}
