#!/usr/bin/env python3
"""Writes every workload manifest (workloads/<suite>/*.toml) from one description.

    python3 workloads/common/kernel/gen_manifests.py [--measured FILE...]

Without --measured, every task gets a generous stack budget (for measuring). With
--measured FILE... (JSON of `cactus workloads stacks --json FILE`), each task's budget is its
measured stack high water x 1.1 rounded up to 16 bytes, plus the static strategy's 16-byte
guard and CHECK_MARGIN bytes for the stack checks (at least 128, the manifest's minimum); a task the files do not cover keeps the
generous budget. With --margins FILE... (JSON of `cactus workloads margins --json FILE`), a
task listed there with a margin takes it instead of CHECK_MARGIN (docs/mtss.md, "The check
margin in the budgets"); --suite SUITE writes only that suite's manifests. Manifests come in pairs: NAME.toml
(full inputs, -DWL_SIZE=1) and NAME-small.toml (small inputs, -DWL_SIZE=0); each takes the
budgets measured for its own size class. The crazyflie-like suite also gets
crazyflie-allocated(-small).toml with the FreeRTOS-allocated stacks of profile.h, and the
malardalen-like and crazyflie-like suites malardalen-srp(-small).toml and
crazyflie-srp(-small).toml: the same programs as SRP jobs (kernel.scheduler = "srp",
docs/srp.md) with the budgets of their preemptive manifests;
--srp-only writes only those (from the budgets now in the preemptive manifests).
Every runner task gets the `stack_calls` annotation `cactus stack-report` needs for the
program's function pointers. --annotations-only rewrites only those lines of the existing
manifests (their budgets stay).
"""
import argparse
import json
import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
WL = os.path.dirname(os.path.dirname(HERE))  # workloads/
GUARD = 16
# Room for `cactus cc`'s stack checks (docs/stack-checks.md): a check demands a function's whole
# effective size (its frame, rolled callees, limited-size slack up to K) before anything is
# written, while the high water counts only written bytes. 384 bytes cover the largest such
# excess seen over the suites under every rolling variant (`cactus bench checks --size small`
# and `--size full` compare every variant's output with the unchecked build's and fail on any
# premature overflow).
CHECK_MARGIN = 384
# Per-task check margins ({firmware: {task: bytes}}) from `cactus workloads margins --json`:
# the largest excess of any check the task's code can reach over what the high water holds
# (the rolled callees' bytes below a checked frame, a dynamic allocation's demand). A task
# whose code is not known there (an indirect call no stack_calls annotation lists) keeps
# CHECK_MARGIN, and so does one whose derived margin is larger (a check before a large frame
# is allocated, which may precede an early return: the derivation then counts the whole
# frame, where the measured constant has held for every rolling variant).
MARGINS = {}
POOL = 48 * 1024 - 64

MTSS = {
    "automotive": ["basicmath", "qsort", "bitcount", "susan"],
    "security": ["blowfish", "pgp", "rijndael", "sha"],
    "telecomm": ["adpcm", "fft", "crc32", "gsm"],
    "network": ["dijkstra", "patricia", "treeadd", "tsp"],
    "mediabench": ["histogram", "edgedetect", "g721", "pegwit"],
    "ptrdist": ["anagram", "ks", "ft", "yacr2"],
}
# Runner-measured stack (README tables), the base of the generous budgets only.
RUNNER_STACK = {
    "basicmath": 1252, "qsort": 38884, "bitcount": 1172, "susan": 8504, "blowfish": 5064,
    "pgp": 34584, "rijndael": 1200, "sha": 8848, "adpcm": 1200, "fft": 1828, "crc32": 1024,
    "gsm": 2232, "dijkstra": 1100, "patricia": 1128, "treeadd": 568, "tsp": 2640,
    "histogram": 1312, "edgedetect": 1736, "g721": 1248, "pegwit": 9296, "anagram": 1316,
    "ks": 1476, "ft": 1008, "yacr2": 1792, "ej": 196, "lu": 164, "tri": 196, "mmul": 1124,
    "dct2d": 1352, "coremark": 424, "stabilizer": 284, "sensors": 244, "crtp_rx": 204,
    "crtp_tx": 176,
}
# Programs whose runner stack is smaller with small inputs (recursion depth follows the input).
RUNNER_STACK_SMALL = {"qsort": 3492, "patricia": 888, "treeadd": 308, "tsp": 1616}
CCS_PROGRAMS = ["ej", "lu", "tri", "mmul", "dct2d", "adpcm", "g721", "sha", "susan"]
CCS_SETS = {
    "a2": ["ej", "lu"], "a3": ["ej", "lu", "tri"], "a4": ["ej", "lu", "tri", "mmul"],
    "b2": ["dct2d", "adpcm"], "b3": ["dct2d", "adpcm", "sha"],
    "b4": ["dct2d", "adpcm", "sha", "susan"],
}
CCS_MTSS_DIR = {"adpcm": "telecomm", "g721": "mediabench", "sha": "security",
                "susan": "automotive"}
MALARDALEN = [  # program, period (ms); priorities are rate monotonic
    ("binarysearch", 1), ("bsort100", 10), ("cnt", 2), ("compress", 40), ("crc", 2),
    ("duff", 1), ("expint", 10), ("fdct", 20), ("fir", 40), ("insertsort", 2),
    ("janne_complex", 4), ("jfdctint", 10), ("matmult", 20),
]
# Crazyflie core tasks: program, priority, period_ms (None = event-driven), profile.h stack.
CRAZYFLIE = [
    ("stabilizer", 25, 1, 3600), ("sensors", 24, 1, 2400), ("crtp_rx", 12, 3.5, 2400),
    ("crtp_tx", 11, None, 1200),
]


def flags(size):
    """Size class; no loop-to-memset rewriting. (cactus build itself keeps the kernel's
    memory functions for the LTO link: crates/firmware/src/toolchain.rs LINK_FLAGS.)"""
    return [f"-DWL_SIZE={size}", "-fno-tree-loop-distribute-patterns"]


def generous(program, size=1):
    base = RUNNER_STACK.get(program, 1024)
    if size == 0:
        base = RUNNER_STACK_SMALL.get(program, base)
    return min(base + base // 4 + 512, 40000)


def budget(measured, manifest, task, fallback):
    if measured and task in measured.get(manifest, {}):
        hwm = measured[manifest][task]
        # The manifest's smallest stack is 128 bytes.
        margin = MARGINS.get(manifest, {}).get(task)
        margin = CHECK_MARGIN if margin is None else min(margin, CHECK_MARGIN)
        return max(int(math.ceil(hwm * 1.1 / 16.0)) * 16 + GUARD + margin, 128)
    return fallback


def q(s):
    return json.dumps(s)


def arr(items):
    return "[" + ", ".join(q(i) for i in items) + "]"


class Manifest:
    def __init__(self, path, name, comment, includes, cflags, tick_hz=1000):
        self.path, self.name, self.comment = path, name, comment
        self.includes, self.cflags, self.tick_hz = includes, cflags, tick_hz
        self.tasks = []
        self.ram_kib = None
        self.init = "wl_init"
        self.scheduler = None

    def task(self, **kw):
        self.tasks.append(kw)

    def text(self):
        out = [f"# {line}".rstrip() for line in self.comment.splitlines()]
        out.append("# Generated by workloads/common/kernel/gen_manifests.py: edit that, not this.")
        out += ["", "[firmware]", f"name = {q(self.name)}"]
        if self.init:
            out.append(f"init = {q(self.init)}")
        out += [f"cflags = {arr(self.cflags)}", f"include = {arr(self.includes)}", "",
                "[kernel]", 'stack = "static"', f"tick_hz = {self.tick_hz}", "slice_ticks = 1",
                'target = "sim"']
        if self.scheduler:
            out.append(f"scheduler = {q(self.scheduler)}")
        total = sum(t["stack"] for t in self.tasks)
        if total > POOL:  # a larger pool: the next multiple of 16 KiB that holds every budget
            out.append(f"pool_kib = {(total + 64 + 16383) // 16384 * 16}")
        if self.ram_kib:
            out.append(f"ram_kib = {self.ram_kib}")
        for t in self.tasks:
            out += ["", "[[task]]"]
            for k in ["name", "sources", "entry", "priority", "stack", "period_ms",
                      "deadline_ms", "on_fault", "arg"]:
                if k in t and t[k] is not None:
                    v = t[k]
                    out.append(f"{k} = {arr(v) if isinstance(v, list) else q(v)}")
            calls = stack_calls(self, t)
            if calls:
                out.append(calls)
        return "\n".join(out) + "\n"


PROGRAM_RE = re.compile(r'const\s+wl_program_t\s+(\w+)\s*=\s*\{\s*"[^"]*"\s*,\s*(\w+)\s*,'
                        r'\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*\}')
LIST_RE = re.compile(r'wl_workload_programs\[\d*\]\s*=\s*\{([^}]*)\}')


def stack_calls(m, t):
    """The `stack_calls` line of task t for `cactus stack-report` (docs/cli.md): the functions
    the workload runner's indirect calls reach on this task's stack, read from the program
    descriptors (`const wl_program_t X = {"name", init, round, checksum, expected}`) and the
    program list (`wl_workload_programs`) in the manifest's sources. Workers call their
    program's init and round, and its checksum from wl_task.c's finish; the coordinator every
    program's expected."""
    base = os.path.dirname(m.path)
    descriptors, order = {}, []
    for src in sorted({s for task in m.tasks for s in task["sources"]}):
        with open(os.path.join(base, src)) as f:
            text = f.read()
        for d in PROGRAM_RE.finditer(text):
            descriptors[d.group(1)] = d.group(2, 3, 4, 5)
        lst = LIST_RE.search(text)
        if lst:
            order = [x.strip().lstrip("&") for x in lst.group(1).split(",") if x.strip()]
    entry = t["entry"]
    if entry in ("wl_worker_main", "wl_periodic_job", "wl_periodic_main"):
        init, rnd, checksum, _ = descriptors[order[t["arg"] & 0xFF]]
        return f"stack_calls = {{ {entry} = {arr([init, rnd])}, finish = {arr([checksum])} }}"
    if entry == "wl_coordinator_main" or entry == "wl_srp_coordinator_job":
        targets = [descriptors[p][3] for p in order]
        return f"stack_calls = {{ {entry} = {arr(targets)} }}"
    if entry == "wl_srp_job":
        init, rnd, checksum, _ = descriptors[order[t["arg"] & 0xFF]]
        return (f"stack_calls = {{ {entry} = {arr([init, rnd])}, "
                f"wl_srp_record = {arr([checksum])} }}")
    return None


def fed_workload(m, workers, measured, wsources, extra_coord_sources, common_rel, size):
    """Workers at decreasing priorities fed every ms by a feeder; coordinator lowest."""
    task_c = f"{common_rel}/kernel/wl_task.c"
    mask = 0
    for i, (name, index, prio, srcs) in enumerate(workers):
        mask |= 1 << i
        m.task(name=name, sources=srcs, entry="wl_worker_main", priority=prio,
               stack=budget(measured, m.name, name, generous(wsources(name), size)),
               on_fault="halt", arg=index)
    n = len(workers)
    m.task(name="feeder", sources=[task_c], entry="wl_feeder_job", priority=30,
           stack=budget(measured, m.name, "feeder", 512), period_ms=1, on_fault="halt",
           arg=mask)
    m.task(name="coordinator", sources=[task_c] + extra_coord_sources,
           entry="wl_coordinator_main", priority=1,
           stack=budget(measured, m.name, "coordinator", 1024), on_fault="halt", arg=n)


ANNOTATIONS_ONLY = False


def write(m):
    text = m.text()
    if ANNOTATIONS_ONLY:
        text = with_annotations(m.path, text)
    with open(m.path, "w") as f:
        f.write(text)


def with_annotations(path, generated):
    """The manifest at path with each task's `stack_calls` line taken from `generated` (the
    same manifest as generated now) and every other line kept."""
    def blocks(text):
        return text.split("\n[[task]]\n")
    old, new = blocks(open(path).read()), blocks(generated)
    assert len(old) == len(new), path
    out = [old[0]]
    for o, n in zip(old[1:], new[1:]):
        keep = [l for l in o.rstrip("\n").split("\n") if not l.startswith("stack_calls = ")]
        add = [l for l in n.rstrip("\n").split("\n") if l.startswith("stack_calls = ")]
        out.append("\n".join(keep + add) + "\n")
    return "\n[[task]]\n".join(out)


def sizes(base):
    return [(base, 1, "full inputs (benchmarks)"), (base + "-small", 0, "small inputs (tests)")]


# Workloads whose static data does not fit the kernel linker script's 1 MiB RAM region:
# RAM region for their link, in KiB (treeadd's node pool alone is 1 MiB).
RAM_KIB = {"network": 2048}


def gen_mtss(measured):
    for w, progs in MTSS.items():
        srcdir = os.path.join(WL, "mtss", w)
        files = sorted(f for f in os.listdir(srcdir) if f.endswith(".c"))
        for stem, size, what in sizes(w):
            m = Manifest(os.path.join(WL, "mtss", stem + ".toml"), stem.replace("-", "_"),
                         f"MTSS Table I, {w} workload: four programs as blocking tasks, {what}.\n"
                         "Each worker waits for an input chunk (the feeder gives one per ms),\n"
                         "runs one round and blocks again; the coordinator checks every checksum.",
                         ["../common", "../common/kernel", w], flags(size))
            m.ram_kib = RAM_KIB.get(w)
            workers = []
            for i, p in enumerate(progs):
                srcs = [f"{w}/{f}" for f in files if f == p + ".c" or f.startswith(p + "_")]
                workers.append((p, i, 10 - i, srcs))
            fed_workload(m, workers, measured, lambda p: p,
                         [f"{w}/workload.c", "../common/wl_pool.c", "../common/wl_math.c"],
                         "../common", size)
            write(m)


def gen_coremark(measured):
    for variant, lst, n in [("single", "workload_single.c", 1), ("quad", "workload_quad.c", 4)]:
        for stem, size, what in sizes("coremark-" + variant):
            m = Manifest(os.path.join(WL, "coremark-like", stem + ".toml"),
                         stem.replace("-", "_"),
                         f"CoreMark-like, {variant} variant ({n} task(s)), {what}.\n"
                         "One iteration per input chunk (the feeder gives one per ms).",
                         ["../common", "../common/kernel", "."], flags(size))
            core = ["coremark.c", "cm_list.c", "cm_matrix.c", "cm_text.c", "cm_crc.c"]
            workers = [(f"coremark{i}", i, 10 - i, core) for i in range(n)]
            fed_workload(m, workers, measured, lambda p: "coremark",
                         [lst, "../common/wl_pool.c", "../common/wl_math.c"], "../common", size)
            write(m)


def gen_ccs(measured):
    inc = ["../common", "../common/kernel", "."] + [f"../mtss/{d}" for d in
                                                    sorted(set(CCS_MTSS_DIR.values()))]
    def src(p):
        return f"../mtss/{CCS_MTSS_DIR[p]}/{p}.c" if p in CCS_MTSS_DIR else f"{p}.c"
    every = [src(p) for p in CCS_PROGRAMS]
    for s, progs in CCS_SETS.items():
        for unroll in [False, True]:
            base = f"ccs-{s}" + ("-unroll" if unroll else "")
            for stem, size, what in sizes(base):
                cflags = flags(size) + (["-funroll-loops"] if unroll else [])
                setting = "-O2 -funroll-loops (aggressive)" if unroll else "-O2 (scalar-only)"
                m = Manifest(os.path.join(WL, "ccs", stem + ".toml"), stem.replace("-", "_"),
                             f"CCS task set {s.upper()} ({', '.join(progs)}), {setting}, {what}.",
                             inc, cflags)
                workers = [(p, CCS_PROGRAMS.index(p), 10 - i, [src(p)])
                           for i, p in enumerate(progs)]
                fed_workload(m, workers, measured, lambda p: p,
                             ["workload.c"] + every + ["../common/wl_pool.c",
                                                       "../common/wl_math.c"], "../common", size)
                write(m)


def gen_malardalen(measured):
    for stem, size, what in sizes("malardalen"):
        m = Manifest(os.path.join(WL, "malardalen-like", stem + ".toml"), stem.replace("-", "_"),
                     f"Malardalen-like single-path tasks (Carousel Table II), {what}.\n"
                     "Thirteen periodic tasks, rate-monotonic priorities, one activation per release.",
                     ["../common", "../common/kernel", "."], flags(size))
        order = sorted(range(len(MALARDALEN)), key=lambda i: (MALARDALEN[i][1], i))
        prio = {i: 28 - r for r, i in enumerate(order)}
        for i, (p, period) in enumerate(MALARDALEN):
            m.task(name=p, sources=[f"{p}.c"], entry="wl_periodic_job", priority=prio[i],
                   stack=budget(measured, m.name, p, 1024), period_ms=period,
                   deadline_ms=period, on_fault="halt", arg=i)
        m.task(name="coordinator",
               sources=["../common/kernel/wl_task.c", "workload.c", "mal_dct.c",
                        "../common/wl_pool.c", "../common/wl_math.c"],
               entry="wl_coordinator_main", priority=1,
               stack=budget(measured, m.name, "coordinator", 1024), on_fault="halt",
               arg=len(MALARDALEN))
        write(m)


def stacks_of(path):
    """Task name -> stack budget of the manifest at path (as it is now)."""
    out, name, in_task = {}, None, False
    for line in open(path):
        if line.startswith("["):
            in_task, name = line.strip() == "[[task]]", None
        m = re.match(r'(name|stack) = (.*)', line.strip())
        if not in_task or not m:
            continue
        if m.group(1) == "name":
            name = json.loads(m.group(2))
        elif name is not None:
            out[name] = int(m.group(2))
    return out


def gen_malardalen_srp():
    """The malardalen-like programs as SRP jobs: preemption levels rate monotonic with one
    level per period (jobs of one period never preempt each other), the coordinator a
    sporadic job at the lowest level; budgets those of the preemptive manifest."""
    for stem, size, what in sizes("malardalen"):
        budgets = stacks_of(os.path.join(WL, "malardalen-like", stem + ".toml"))
        srp_stem = stem.replace("malardalen", "malardalen-srp")
        m = Manifest(os.path.join(WL, "malardalen-like", srp_stem + ".toml"),
                     srp_stem.replace("-", "_"),
                     f"Malardalen-like single-path tasks as SRP jobs (docs/srp.md), {what}.\n"
                     "Thirteen periodic jobs on one shared stack, one level per period (rate\n"
                     "monotonic), one round per release; the coordinator job checks the checksums.",
                     ["../common", "../common/kernel", "."], flags(size))
        m.init = None
        m.scheduler = "srp"
        periods = sorted({period for _, period in MALARDALEN})
        level = {period: 28 - r for r, period in enumerate(periods)}
        for i, (p, period) in enumerate(MALARDALEN):
            m.task(name=p, sources=[f"{p}.c"], entry="wl_srp_job", priority=level[period],
                   stack=budgets[p], period_ms=period, deadline_ms=period, on_fault="halt",
                   arg=i)
        m.task(name="coordinator",
               sources=["../common/kernel/wl_srp.c", "workload.c", "mal_dct.c",
                        "../common/wl_pool.c", "../common/wl_math.c"],
               entry="wl_srp_coordinator_job", priority=1, stack=budgets["coordinator"],
               on_fault="halt", arg=len(MALARDALEN))
        write(m)


def gen_crazyflie_srp():
    """The crazyflie-like core tasks as SRP jobs: levels = the preemptive priorities; the
    event-driven CRTP TX a sporadic job the link job releases every 2 ms; budgets those of
    the preemptive manifest. CRTP RX runs every 4 ms: an SRP job's period is whole
    milliseconds, and the preemptive manifest's 3.5 ms comes from a task that keeps its own
    period in ticks (wl_periodic_main), which a job cannot."""
    for stem, size, what in sizes("crazyflie"):
        budgets = stacks_of(os.path.join(WL, "crazyflie-like", stem + ".toml"))
        srp_stem = stem.replace("crazyflie", "crazyflie-srp")
        m = Manifest(os.path.join(WL, "crazyflie-like", srp_stem + ".toml"),
                     srp_stem.replace("-", "_"),
                     f"Crazyflie-like core tasks as SRP jobs (docs/srp.md), {what}.\n"
                     "stabilizer and sensors every 1 ms, CRTP RX every 4 ms (3.5 ms preemptive:\n"
                     "an SRP period is whole milliseconds), CRTP TX one round per release by the\n"
                     "link job every 2 ms; the coordinator job checks the checksums.",
                     ["../common", "../common/kernel", "."], flags(size), tick_hz=2000)
        m.init = None
        m.scheduler = "srp"
        workers = 0
        for i, (p, prio, period, _) in enumerate(CRAZYFLIE):
            pms = None if period is None else int(-(-period // 1))
            m.task(name=p, sources=[f"{p}.c"], entry="wl_srp_job", priority=prio,
                   stack=budgets[p], period_ms=pms, deadline_ms=pms, on_fault="halt", arg=i)
            workers += 1
        fed = sum(1 << i for i, (_, _, period, _) in enumerate(CRAZYFLIE) if period is None)
        m.task(name="link", sources=["../common/kernel/wl_srp.c"], entry="wl_srp_feeder_job",
               priority=20, stack=budgets["link"], period_ms=2, on_fault="halt", arg=fed)
        m.task(name="coordinator",
               sources=["../common/kernel/wl_srp.c", "workload.c", "profile.c",
                        "../common/wl_pool.c", "../common/wl_math.c"],
               entry="wl_srp_coordinator_job", priority=1, stack=budgets["coordinator"],
               on_fault="halt", arg=workers)
        write(m)


def gen_crazyflie(measured):
    for kind in ["measured", "allocated"]:
        base = "crazyflie" if kind == "measured" else "crazyflie-allocated"
        for stem, size, what in sizes(base):
            how = ("stack budgets = measured high water x 1.1 (the paper's safety factor)\n"
                   "+ 384 bytes for the stack checks"
                   if kind == "measured" else
                   "stack budgets = the FreeRTOS-allocated stacks of profile.h (Table 1)")
            m = Manifest(os.path.join(WL, "crazyflie-like", stem + ".toml"),
                         stem.replace("-", "_"),
                         f"Crazyflie-like core tasks (segmented-stack paper, Table 1), {what};\n"
                         f"{how}. stabilizer and sensors every 1 ms, CRTP RX every 3.5 ms,\n"
                         "CRTP TX event-driven (an outgoing event every 2 ms from the link feeder).",
                         ["../common", "../common/kernel", "."], flags(size),
                         tick_hz=2000)
            measured_name = stem.replace("-allocated", "").replace("-", "_")
            for i, (p, prio, period, alloc) in enumerate(CRAZYFLIE):
                st = alloc if kind == "allocated" else budget(measured, measured_name, p,
                                                              generous(p))
                if period is None:  # event-driven: fed by the link task
                    entry, arg, pms = "wl_worker_main", i, None
                elif period == int(period):
                    entry, arg, pms = "wl_periodic_job", i, int(period)
                else:  # 3.5 ms = 7 ticks at 2 kHz: the task keeps its own period
                    entry, arg, pms = "wl_periodic_main", i | (int(period * 2) << 8), None
                m.task(name=p, sources=[f"{p}.c"], entry=entry, priority=prio, stack=st,
                       period_ms=pms, deadline_ms=pms, on_fault="halt", arg=arg)
            m.task(name="link", sources=["../common/kernel/wl_task.c"], entry="wl_feeder_job",
                   priority=20, stack=budget(measured, measured_name, "link", 512),
                   period_ms=2, on_fault="halt", arg=1 << 3)
            m.task(name="coordinator",
                   sources=["../common/kernel/wl_task.c", "workload.c", "profile.c",
                            "../common/wl_pool.c", "../common/wl_math.c"],
                   entry="wl_coordinator_main", priority=1,
                   stack=budget(measured, measured_name, "coordinator", 1024),
                   on_fault="halt", arg=4)
            write(m)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--measured", nargs="+", metavar="FILE",
                    help="JSON files of `cactus workloads stacks --json FILE`")
    ap.add_argument("--margins", nargs="+", metavar="FILE",
                    help="JSON files of `cactus workloads margins --json FILE`")
    ap.add_argument("--suite", metavar="SUITE",
                    help="only write this suite's manifests (mtss, coremark-like, ccs, "
                         "malardalen-like, crazyflie-like)")
    ap.add_argument("--srp-only", action="store_true",
                    help="only write the SRP manifests, from the preemptive manifests' budgets")
    ap.add_argument("--annotations-only", action="store_true",
                    help="only (re)write each task's stack_calls line, keeping the budgets")
    args = ap.parse_args()
    global ANNOTATIONS_ONLY
    ANNOTATIONS_ONLY = args.annotations_only
    if args.srp_only:
        gen_malardalen_srp()
        gen_crazyflie_srp()
        return
    measured = None
    if args.measured:
        measured = {}
        for path in args.measured:
            with open(path) as f:
                data = json.load(f)
            for row in data["rows"]:
                if row.get("stack_hwm") is not None:
                    measured.setdefault(row["firmware"], {})[row["task"]] = row["stack_hwm"]
    for path in args.margins or []:
        with open(path) as f:
            data = json.load(f)
        for row in data["rows"]:
            # The harness tasks keep CHECK_MARGIN: the experiments leave them out (PRS keeps
            # their budgets), and the coordinator prints through the variadic, hence pinned,
            # kprintf, whose frame no strategy can move when scripts/hybrid-check shrinks it.
            if row["task"] in ("feeder", "coordinator"):
                continue
            MARGINS.setdefault(row["firmware"], {})[row["task"]] = row["check_margin"]
    suites = {
        "mtss": [lambda: gen_mtss(measured)],
        "coremark-like": [lambda: gen_coremark(measured)],
        "ccs": [lambda: gen_ccs(measured)],
        "malardalen-like": [lambda: gen_malardalen(measured), gen_malardalen_srp],
        "crazyflie-like": [lambda: gen_crazyflie(measured), gen_crazyflie_srp],
    }
    if args.suite and args.suite not in suites:
        ap.error(f"--suite: no suite {args.suite!r}; suites: {', '.join(suites)}")
    for name, gens in suites.items():
        if args.suite in (None, name):
            for gen in gens:
                gen()


if __name__ == "__main__":
    main()
