/* wl_task.h: workload programs (common/wl_program.h) as blocking Cactus kernel tasks.
 *
 * A firmware built from a workload manifest has three kinds of tasks, all from wl_task.c:
 *   - workers, one per program; the task's `arg` is the program's index in the suite's list
 *     `wl_workload_programs[]` (the suite's workload*.c). A worker initialises its program
 *     with size class WL_SIZE (a build flag, 0 small / 1 full) and then runs one P_round per
 *     activation:
 *       wl_worker_main   (task body)   blocks on its input semaphore for every round; chunks
 *                                      come from a feeder (or from another task's job);
 *       wl_periodic_job  (job of a task with period_ms): one round per release;
 *       wl_periodic_main (task body, arg = index | period in ticks << 8): the same for
 *                                      periods that are not whole milliseconds (3.5 ms).
 *     When the program is done the worker records checksum and rounds, signals the
 *     coordinator and exits (its stack high water is reported at exit).
 *   - wl_feeder_job (job of a periodic task, usually the highest priority): every release
 *     gives one input chunk to each task whose id bit is set in its `arg` (bit i = task i),
 *     so workers wake while lower-priority rounds are mid-computation.
 *   - wl_coordinator_main (the lowest-priority task): `arg` = number of workers; waits until
 *     all have finished, prints one line per program in task order and `PASS <firmware>` or
 *     `FAIL <firmware>`, and ends the run with exit code 0 only if every checksum matched.
 * The printed lines depend on no timing, so the QEMU build prints exactly what the simulator
 * build prints. */
#ifndef WL_TASK_H
#define WL_TASK_H

#include "wl_program.h"

#ifndef WL_SIZE
#error "build workload firmware with -DWL_SIZE=0 (small) or -DWL_SIZE=1 (full)"
#endif

/** The suite's program list and its name (defined by the suite's workload*.c). */
extern const wl_program_t *const wl_workload_programs[];
extern const char wl_workload_name[];

/** Firmware init (the manifest's `firmware.init`): sets up semaphores and the result table. */
void wl_init(void);
/** Chunk-fed worker task body; arg = program index. */
void wl_worker_main(void *arg);
/** Periodic worker job; arg = program index. */
void wl_periodic_job(void *arg);
/** Periodic worker task body for periods that are not whole milliseconds (the manifest's
 *  period_ms is): arg = program index | period in ticks << 8. */
void wl_periodic_main(void *arg);
/** Feeder job; arg = bit mask of the task ids to give one chunk each release. */
void wl_feeder_job(void *arg);
/** Coordinator task body; arg = number of workers. */
void wl_coordinator_main(void *arg);

#endif
