/* coremark.h: a CoreMark-like benchmark: each iteration runs three kernels over one instance's
 * 2 KB-class working set (a linked list of 64 nodes, three 10 x 10 matrices, a 240-byte
 * numeric text) and folds their results into a CRC-16, like CoreMark's validation. An instance
 * is fully described by its cm_state_t; programs coremark0..coremark3 are four instances with
 * different seeds (coremark0 alone is the single-task variant). */
#ifndef COREMARK_H
#define COREMARK_H

#include <stdint.h>

#include "wl_run.h"

#define CM_LIST_NODES 64
#define CM_MAT_N 10
#define CM_TEXT_BYTES 240

/** One list node: data is the payload, idx its original position (a permutation key). */
typedef struct cm_node {
    struct cm_node *next;
    int16_t data;
    int16_t idx;
} cm_node_t;

/** All state of one instance. */
typedef struct {
    wl_run_t run;
    uint16_t seed1, seed2, seed3; /* CoreMark-style seed set */
    uint16_t crc;                 /* running CRC-16 of every kernel result */
    /* list kernel */
    cm_node_t nodes[CM_LIST_NODES];
    cm_node_t *head;
    /* matrix kernel */
    int16_t ma[CM_MAT_N][CM_MAT_N], mb[CM_MAT_N][CM_MAT_N];
    int32_t mc[CM_MAT_N][CM_MAT_N];
    /* state-machine kernel */
    char text[CM_TEXT_BYTES + 1];
    uint32_t kind_count[8]; /* tokens generated per expected final state */
} cm_state_t;

/** CRC-16/ARC (reflected polynomial 0xa001) of a 16-bit value, continuing crc. */
uint16_t cm_crc16(uint16_t value, uint16_t crc);
/** CRC-16/ARC of n bytes, continuing crc. */
uint16_t cm_crc_bytes(const uint8_t *p, uint32_t n, uint16_t crc);

/** Builds the list from the seeds (nodes linked in idx order). */
void cm_list_init(cm_state_t *s);
/** One iteration of the list kernel; returns its CRC, adds failed self-checks to failures. */
uint16_t cm_list_iterate(cm_state_t *s, uint32_t iteration, uint32_t *failures);

/** Fills the matrices from the seeds. */
void cm_matrix_init(cm_state_t *s);
/** One iteration of the matrix kernel; returns its CRC, adds failed checks to failures. */
uint16_t cm_matrix_iterate(cm_state_t *s, uint32_t iteration, uint32_t *failures);

/** Generates the numeric text from the seeds. */
void cm_text_init(cm_state_t *s);
/** One iteration of the state-machine kernel; returns its CRC, adds failed checks. */
uint16_t cm_text_iterate(cm_state_t *s, uint32_t iteration, uint32_t *failures);

/** Resets instance s with its seed set and the iteration count of size_class. */
void cm_instance_init(cm_state_t *s, uint32_t instance, uint32_t size_class);
/** One CoreMark iteration of s; returns 1 while iterations remain. */
int cm_instance_round(cm_state_t *s);

WL_DECLARE_PROGRAM(coremark0);
WL_DECLARE_PROGRAM(coremark1);
WL_DECLARE_PROGRAM(coremark2);
WL_DECLARE_PROGRAM(coremark3);

#endif
