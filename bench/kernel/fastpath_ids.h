/* Marker ids of bench/kernel/fastpath_bench.c; crates/bench/src/kernel/fastpath.rs decodes the
 * same values. A pair's markers: BEFORE is committed by the store right before the first call,
 * AFTER by the second instruction after the second call returns. The calibration pair is
 * ids.h's (BID_CAL_FIRST, BID_CAL_SECOND). */
#ifndef BENCH_FASTPATH_IDS_H
#define BENCH_FASTPATH_IDS_H

#define BID_MSG_BEFORE 0x210u  /* cactus_queue_send + cactus_queue_recv of one 16-byte message */
#define BID_MSG_AFTER 0x211u
#define BID_POOL_BEFORE 0x220u /* cactus_pool_alloc + cactus_pool_free of one block */
#define BID_POOL_AFTER 0x221u
#define BID_POOL_FIRST_BEFORE 0x222u /* the same, the first use of a block (a never-used one) */
#define BID_POOL_FIRST_AFTER 0x223u
#define BID_FAST_DONE 0x2FFu   /* value: samples requested per pair */

#endif
