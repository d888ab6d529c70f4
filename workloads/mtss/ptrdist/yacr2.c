/* yacr2.c: a yacr2-like channel router. A channel has pins on its top and bottom edges; each
 * net spans the columns between its leftmost and rightmost pins and must get a horizontal
 * track. Where a column has net a on top and net b at the bottom, a's track must lie above b's
 * (vertical constraint graph, VCG). Steps per round (one channel): generate pins; build the
 * VCG; find cycles by recursive depth-first search and break each by dropping the back edge
 * (counted as a dogleg, which yacr2 would route with a jog); compute the channel density and
 * the VCG longest path (recursive, memoised) as lower bounds; assign tracks by the constrained
 * left-edge algorithm; lay the wires into a two-layer grid and maze-route (Lee) every bottom
 * pin whose straight vertical wire is blocked by a dropped constraint. Checks: nets sharing a
 * track never overlap, every kept constraint is honoured, the track count is at least both
 * lower bounds, and every maze path validates. */
#include "yacr2.h"

#include "wl_checksum.h"
#include "yacr2_maze.h"
#include "wl_prng.h"

#define MAX_COLS 160
#define MAX_NETS 48

static struct {
    uint8_t top[MAX_COLS], bot[MAX_COLS]; /* net id + 1, 0 = no pin */
    uint8_t left[MAX_NETS], right[MAX_NETS], used[MAX_NETS];
    uint8_t vcg[MAX_NETS][MAX_NETS];      /* 1 = constraint a above b kept */
    uint8_t color[MAX_NETS];              /* DFS: 0 white, 1 grey, 2 black */
    int16_t depth[MAX_NETS];              /* longest path memo, -1 unknown */
    maze_grid_t grid;
    uint32_t cols, nets, doglegs;
    uint32_t rounds;
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

static void place_pin(uint32_t net, uint32_t c)
{
    int on_top = (int)wl_prng_below(&st.rng, 2);
    for (uint32_t k = 0; k < 2 * st.cols; k++, on_top = !on_top) {
        uint32_t col = (c + k / 2) % st.cols;
        uint8_t *slot = on_top ? &st.top[col] : &st.bot[col];
        if (*slot == 0) {
            *slot = (uint8_t)(net + 1);
            return;
        }
    }
}

static void make_channel(void)
{
    for (uint32_t c = 0; c < st.cols; c++)
        st.top[c] = st.bot[c] = 0;
    for (uint32_t n = 0; n < st.nets; n++) {
        uint32_t span = 3 + wl_prng_below(&st.rng, st.cols / 4);
        uint32_t l = wl_prng_below(&st.rng, st.cols - span);
        place_pin(n, l);
        place_pin(n, l + span);
        for (uint32_t extra = wl_prng_below(&st.rng, 3); extra > 0; extra--)
            place_pin(n, l + wl_prng_below(&st.rng, span));
    }
    for (uint32_t n = 0; n < st.nets; n++) {
        st.left[n] = 0xff;
        st.right[n] = 0;
        st.used[n] = 0;
    }
    for (uint32_t c = 0; c < st.cols; c++) {
        const uint8_t pins[2] = {st.top[c], st.bot[c]};
        for (int p = 0; p < 2; p++) {
            if (!pins[p])
                continue;
            uint32_t n = pins[p] - 1u;
            st.used[n] = 1;
            if (c < st.left[n])
                st.left[n] = (uint8_t)c;
            if (c > st.right[n])
                st.right[n] = (uint8_t)c;
        }
    }
}

static void build_vcg(void)
{
    for (uint32_t a = 0; a < st.nets; a++)
        for (uint32_t b = 0; b < st.nets; b++)
            st.vcg[a][b] = 0;
    for (uint32_t c = 0; c < st.cols; c++)
        if (st.top[c] && st.bot[c] && st.top[c] != st.bot[c])
            st.vcg[st.top[c] - 1][st.bot[c] - 1] = 1;
}

/* DFS from a; drops (and counts) every edge that closes a cycle. */
static void break_cycles(uint32_t a)
{
    st.color[a] = 1;
    for (uint32_t b = 0; b < st.nets; b++) {
        if (!st.vcg[a][b])
            continue;
        if (st.color[b] == 1) {
            st.vcg[a][b] = 0;
            st.doglegs++;
        } else if (st.color[b] == 0) {
            break_cycles(b);
        }
    }
    st.color[a] = 2;
}

/* Number of nets on the longest constraint chain starting at a. */
static int32_t longest_from(uint32_t a)
{
    if (st.depth[a] >= 0)
        return st.depth[a];
    int32_t best = 0;
    for (uint32_t b = 0; b < st.nets; b++)
        if (st.vcg[a][b]) {
            int32_t d = longest_from(b);
            best = d > best ? d : best;
        }
    st.depth[a] = (int16_t)(best + 1);
    return best + 1;
}

/* Lays horizontal segments and unblocked vertical wires into the grid, then maze-routes the
 * blocked bottom pins; mixes routed/unrouted counts and path lengths into the checksum. */
static void detail_route(const uint8_t *track, uint32_t tracks)
{
    maze_grid_t *g = &st.grid;
    g->rows = tracks + 2u;
    g->cols = st.cols;
    for (uint32_t r = 0; r < g->rows; r++)
        for (uint32_t c = 0; c < g->cols; c++)
            g->h[r][c] = g->v[r][c] = 0;
    for (uint32_t n = 0; n < st.nets; n++)
        if (st.used[n])
            for (uint32_t c = st.left[n]; c <= st.right[n]; c++)
                g->h[track[n] + 1u][c] = (uint8_t)(n + 1u);
    for (uint32_t c = 0; c < st.cols; c++) {
        if (st.top[c])
            for (uint32_t r = 0; r <= track[st.top[c] - 1u] + 1u; r++)
                g->v[r][c] = st.top[c];
    }
    uint32_t routed = 0, unrouted = 0, total = 0;
    for (uint32_t c = 0; c < st.cols; c++) {
        if (!st.bot[c])
            continue;
        uint32_t b = st.bot[c] - 1u, from = track[b] + 1u;
        int blocked = 0;
        for (uint32_t r = from; r < g->rows; r++)
            blocked |= g->v[r][c] != 0 && g->v[r][c] != st.bot[c];
        if (!blocked) {
            for (uint32_t r = from; r < g->rows; r++)
                g->v[r][c] = st.bot[c];
            continue;
        }
        uint32_t len = 0;
        int rc = maze_route(g, b, g->rows - 1u, c, &len);
        if (rc == 2)
            st.failures++;
        routed += rc == 1;
        unrouted += rc == 0;
        total += len;
    }
    st.res.checksum = wl_mix32(st.res.checksum, routed << 20 | unrouted << 10 | total);
}

/* Constrained left-edge: fills tracks top-down; returns the number of tracks. */
static uint32_t left_edge(uint8_t *track)
{
    uint8_t order[MAX_NETS], placed_before[MAX_NETS];
    uint32_t n = 0;
    for (uint32_t i = 0; i < st.nets; i++) {
        track[i] = 0xff;
        placed_before[i] = 0;
        if (!st.used[i])
            continue;
        uint32_t j = n++; /* insertion sort by left end */
        while (j > 0 && st.left[order[j - 1]] > st.left[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = (uint8_t)i;
    }
    uint32_t remaining = n, tracks = 0;
    while (remaining > 0 && tracks < MAX_NETS) {
        int32_t last_right = -1;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t net = order[k];
            if (track[net] != 0xff || (int32_t)st.left[net] <= last_right)
                continue;
            int ready = 1;
            for (uint32_t p = 0; p < st.nets && ready; p++)
                if (st.vcg[p][net] && !placed_before[p])
                    ready = 0;
            if (!ready)
                continue;
            track[net] = (uint8_t)tracks;
            last_right = st.right[net];
            remaining--;
        }
        for (uint32_t k = 0; k < n; k++)
            if (track[order[k]] == tracks)
                placed_before[order[k]] = 1;
        tracks++;
    }
    if (remaining)
        st.failures++;
    return tracks;
}

void yacr2_init(uint32_t size_class)
{
    st.cols = size_class ? MAX_COLS : 40u;
    st.nets = size_class ? MAX_NETS : 12u;
    st.rounds = size_class ? 120u : 3u;
    st.failures = 0;
    wl_prng_seed(&st.rng, 0x7ac2u);
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

int yacr2_round(void)
{
    uint8_t track[MAX_NETS];
    make_channel();
    build_vcg();
    st.doglegs = 0;
    for (uint32_t i = 0; i < st.nets; i++) {
        st.color[i] = 0;
        st.depth[i] = -1;
    }
    for (uint32_t i = 0; i < st.nets; i++)
        if (st.color[i] == 0)
            break_cycles(i);
    int32_t chain = 0;
    for (uint32_t i = 0; i < st.nets; i++) {
        int32_t d = longest_from(i);
        chain = d > chain ? d : chain;
    }
    uint32_t density = 0;
    for (uint32_t c = 0; c < st.cols; c++) {
        uint32_t live = 0;
        for (uint32_t i = 0; i < st.nets; i++)
            live += st.used[i] && st.left[i] <= c && c <= st.right[i];
        density = live > density ? live : density;
    }
    uint32_t tracks = left_edge(track);
    for (uint32_t a = 0; a < st.nets; a++) {
        for (uint32_t b = 0; b < st.nets; b++) {
            if (a == b || !st.used[a] || !st.used[b])
                continue;
            if (track[a] == track[b] && st.left[a] <= st.right[b] && st.left[b] <= st.right[a])
                st.failures++;
            if (st.vcg[a][b] && track[a] >= track[b])
                st.failures++;
        }
    }
    if (tracks < density || (int32_t)tracks < chain || tracks > MAZE_MAX_TRACKS)
        st.failures++;
    else
        detail_route(track, tracks);
    st.res.checksum = wl_mix32(st.res.checksum, tracks << 16 | density << 8 | st.doglegs);
    st.res.checksum = wl_mix_bytes(st.res.checksum, track, st.nets);
    st.res.rounds_done++;
    return st.res.rounds_done < st.rounds;
}

uint32_t yacr2_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t yacr2_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x93092dbau, 0x357ac555u};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t yacr2_program = {"yacr2", yacr2_init, yacr2_round, yacr2_checksum,
                                    yacr2_expected};
