/* yacr2_maze.h: two-layer maze routing (Lee's breadth-first search) of one channel pin, used by
 * the yacr2-like router for pins whose straight vertical wire is blocked (its doglegs). */
#ifndef MTSS_YACR2_MAZE_H
#define MTSS_YACR2_MAZE_H

#include <stdint.h>

/** Grid bounds: rows are the top pin row, up to MAZE_MAX_TRACKS tracks, the bottom pin row. */
#define MAZE_MAX_TRACKS 48
#define MAZE_ROWS (MAZE_MAX_TRACKS + 2)
#define MAZE_COLS 160
/** Columns searched on either side of the pin's column. */
#define MAZE_REACH 2

/** Channel occupancy: net id + 1 per cell on the horizontal and vertical layers, 0 = free. */
typedef struct {
    uint8_t h[MAZE_ROWS][MAZE_COLS];
    uint8_t v[MAZE_ROWS][MAZE_COLS];
    uint32_t rows, cols;
} maze_grid_t;

/** Routes net's pin at (row, col) on the vertical layer to any horizontal-layer cell of net,
 * through free cells or cells of net, within MAZE_REACH columns of col. On success marks the
 * path in the grid, stores its length in cells and returns 1; returns 0 if no route exists and
 * 2 if the found path failed its own validation (a fault). */
int maze_route(maze_grid_t *g, uint32_t net, uint32_t row, uint32_t col, uint32_t *length);

#endif
