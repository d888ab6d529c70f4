/* yacr2_maze.c: Lee breadth-first maze routing on a two-layer channel grid (see yacr2_maze.h).
 * The search state is (layer, row, column) inside a window of 2 * MAZE_REACH + 1 columns; the
 * window's distance map and the BFS queue live on the stack, as in yacr2's maze routines. */
#include "yacr2_maze.h"

#define WIN (2 * MAZE_REACH + 1)
#define STATES (2 * MAZE_ROWS * WIN)
#define UNSEEN 0xffu

static uint32_t state_of(uint32_t layer, uint32_t row, uint32_t wc)
{
    return (layer * MAZE_ROWS + row) * WIN + wc;
}

static int usable(const maze_grid_t *g, uint32_t layer, uint32_t row, uint32_t col, uint32_t own)
{
    uint8_t cell = layer ? g->h[row][col] : g->v[row][col];
    return cell == 0 || cell == own;
}

int maze_route(maze_grid_t *g, uint32_t net, uint32_t row, uint32_t col, uint32_t *length)
{
    uint8_t dist[STATES];
    uint16_t queue[STATES];
    uint32_t own = net + 1u, c0 = col >= MAZE_REACH ? col - MAZE_REACH : 0u;
    uint32_t width = c0 + WIN <= g->cols ? WIN : g->cols - c0;
    for (uint32_t i = 0; i < STATES; i++)
        dist[i] = UNSEEN;
    uint32_t head = 0, tail = 0, goal = STATES;
    dist[state_of(0, row, col - c0)] = 0;
    queue[tail++] = (uint16_t)state_of(0, row, col - c0);
    while (head < tail && goal == STATES) {
        uint32_t s = queue[head++];
        uint32_t wc = s % WIN, r = (s / WIN) % MAZE_ROWS, layer = s / (WIN * MAZE_ROWS);
        /* Neighbours: vertical moves on layer 0, horizontal on layer 1, a via to the other. */
        int32_t nb[3][3] = {{(int32_t)layer, (int32_t)r - (layer == 0), (int32_t)wc - (layer == 1)},
                            {(int32_t)layer, (int32_t)r + (layer == 0), (int32_t)wc + (layer == 1)},
                            {(int32_t)(1u - layer), (int32_t)r, (int32_t)wc}};
        for (int k = 0; k < 3; k++) {
            int32_t nl = nb[k][0], nr = nb[k][1], nc = nb[k][2];
            if (nr < 0 || nr >= (int32_t)g->rows || nc < 0 || nc >= (int32_t)width)
                continue;
            uint32_t t = state_of((uint32_t)nl, (uint32_t)nr, (uint32_t)nc);
            if (dist[t] != UNSEEN || dist[s] + 1u >= UNSEEN ||
                !usable(g, (uint32_t)nl, (uint32_t)nr, c0 + (uint32_t)nc, own))
                continue;
            dist[t] = (uint8_t)(dist[s] + 1u);
            queue[tail++] = (uint16_t)t;
            if (nl == 1 && g->h[nr][c0 + (uint32_t)nc] == own) {
                goal = t;
                break;
            }
        }
    }
    if (goal == STATES)
        return 0;
    /* Walk back by decreasing distance, validating and marking each cell. */
    uint32_t s = goal, steps = 0;
    while (dist[s] != 0) {
        uint32_t wc = s % WIN, r = (s / WIN) % MAZE_ROWS, layer = s / (WIN * MAZE_ROWS);
        if (!usable(g, layer, r, c0 + wc, own))
            return 2;
        if (layer)
            g->h[r][c0 + wc] = (uint8_t)own;
        else
            g->v[r][c0 + wc] = (uint8_t)own;
        uint32_t cand[4] = {state_of(1u - layer, r, wc), STATES, STATES, STATES};
        if (layer == 0) {
            if (r > 0)
                cand[1] = state_of(0, r - 1, wc);
            if (r + 1 < g->rows)
                cand[2] = state_of(0, r + 1, wc);
        } else {
            if (wc > 0)
                cand[1] = state_of(1, r, wc - 1);
            if (wc + 1 < width)
                cand[2] = state_of(1, r, wc + 1);
        }
        uint32_t prev = STATES;
        for (int k = 0; k < 3 && prev == STATES; k++)
            if (cand[k] != STATES && dist[cand[k]] + 1u == dist[s])
                prev = cand[k];
        if (prev == STATES)
            return 2;
        s = prev;
        steps++;
    }
    g->v[row][col] = (uint8_t)own;
    *length = steps + 1u;
    return 1;
}
