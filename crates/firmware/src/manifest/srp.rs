//! The SRP scheduling mode's part of a manifest (`[kernel] scheduler = "srp"`, `srp_stack`,
//! every `[[resource]]`; docs/srp.md): validated so that an SRP firmware has the one stack
//! strategy it works with (`static`), no second kernel task (no `[[timer]]`), jobs that start
//! with the dispatcher, and resources whose users are tasks of the manifest.

use super::raw::{RawManifest, RawTask};
use super::validate::{is_c_ident, Ctx};
use super::{KernelOptions, StackStrategy, Task};
use crate::error::ManifestError;

/// The bytes the kernel pushes onto the shared stack when a trap starts a job on it
/// (`PORT_SRP_FRAME`, kernel/arch/rv32/port.h).
pub const TRAP_FRAME: u32 = 80;

/// The SRP settings of a manifest whose `kernel.scheduler` is `"srp"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Srp {
    /// The shared stack, bytes: `kernel.srp_stack` when given, else [`Srp::bound`] of the
    /// task budgets.
    pub stack: u32,
    /// Whether [`Srp::stack`] was written in the manifest (else it was computed).
    pub stack_given: bool,
    /// The resources, in manifest order (resource `i` is `FW_RES_<NAME>`).
    pub resources: Vec<Resource>,
    /// `kernel.srp_policy = "edf"`: earliest deadline first, levels from relative deadlines.
    pub edf: bool,
    /// Each task's preemption level, in manifest order: its `priority` (fixed priority), or
    /// under EDF 31 for the shortest relative deadline, 30 for the next, ... (equal deadlines,
    /// equal levels).
    pub levels: Vec<u8>,
    /// `kernel.carousel = true`: every job is invoked through Carousel on its own blocks
    /// (docs/carousel.md, "Under the kernel's SRP dispatcher"); the build lays each task's
    /// code, data and stack out in block-aligned regions (crate::carousel_link).
    pub carousel: bool,
}

/// One `[[resource]]`: a lock shared by jobs, with its ceiling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    /// Name: a C identifier, unique ignoring case.
    pub name: String,
    /// The tasks (jobs) that lock it, by name, in manifest order.
    pub users: Vec<String>,
    /// Its ceiling: the highest preemption level among its users.
    pub ceiling: u8,
}

impl Srp {
    /// A shared stack no run of these tasks can exceed if each job keeps within its `stack`
    /// budget: jobs nest only at strictly rising preemption levels, so at most one job per
    /// level is on the stack; each level adds its largest budget, and each job above the
    /// lowest level the trap frame that may start it.
    pub fn bound(tasks: &[Task], level_of: &[u8]) -> u32 {
        let mut levels: Vec<(u8, u32)> = Vec::new();
        for (t, &level) in tasks.iter().zip(level_of) {
            match levels.iter_mut().find(|(l, _)| *l == level) {
                Some((_, b)) => *b = (*b).max(t.stack),
                None => levels.push((level, t.stack)),
            }
        }
        let frames = (levels.len() as u32).saturating_sub(1) * TRAP_FRAME;
        (levels.iter().map(|(_, b)| b).sum::<u32>() + frames).div_ceil(16) * 16
    }

    /// The shared stack of a Carousel firmware: the jobs run on their own blocks, so it holds
    /// only the kernel's part of each nesting level (the dispatcher's and the invoker's frames,
    /// the [`CAROUSEL_LEVEL`] bytes below the invoker that `carousel_run_task` may use, a trap
    /// frame and the trampoline) above the dispatcher's own frames, [`CAROUSEL_BASE`].
    pub fn carousel_bound(level_of: &[u8]) -> u32 {
        let mut levels: Vec<u8> = level_of.to_vec();
        levels.sort_unstable();
        levels.dedup();
        CAROUSEL_BASE + levels.len() as u32 * CAROUSEL_LEVEL
    }
}

/// The dispatcher's own frames on a Carousel firmware's shared stack (bytes).
pub const CAROUSEL_BASE: u32 = 256;
/// What one nesting level of Carousel jobs takes on the shared stack (bytes): the
/// invoker's margin (`CACTUS_SRP_CAROUSEL_FRAMES`, 256) with the trap frame (80), the
/// trampoline's, the dispatcher's and the invoker's frames rounded up.
pub const CAROUSEL_LEVEL: u32 = 512;

/// The scheduler a manifest asks for: `Ok(true)` for SRP. Unknown names are an error.
pub(super) fn wants_srp(cx: &Ctx, raw: &RawManifest) -> Result<bool, ManifestError> {
    match &raw.kernel.scheduler {
        None => Ok(false),
        Some(s) => match s.get_ref().as_str() {
            "preemptive" => Ok(false),
            "srp" => Ok(true),
            other => Err(cx.at(
                s,
                "kernel.scheduler",
                format!("unknown scheduler \"{other}\"; known: \"preemptive\", \"srp\""),
            )),
        },
    }
}

/// Validates the SRP part of the manifest (None for the preemptive scheduler, which must then
/// have no `[[resource]]` and no `kernel.srp_stack`).
pub(super) fn srp(
    cx: &Ctx,
    raw: &RawManifest,
    kernel: &KernelOptions,
    tasks: &[Task],
) -> Result<Option<Srp>, ManifestError> {
    if !wants_srp(cx, raw)? {
        if let Some(v) = &raw.kernel.carousel {
            return Err(cx.at(
                v,
                "kernel.carousel",
                "Carousel reserves local memory for jobs nested in LIFO order: it needs \
                 kernel.scheduler = \"srp\"",
            ));
        }
        if let Some(v) = &raw.kernel.srp_stack {
            return Err(cx.at(v, "kernel.srp_stack", NOT_SRP));
        }
        if let Some(v) = &raw.kernel.srp_policy {
            return Err(cx.at(v, "kernel.srp_policy", NOT_SRP));
        }
        if let Some(r) = raw.resource.first() {
            return Err(cx.at(&r.name, "resource[0]", NOT_SRP));
        }
        return Ok(None);
    }
    let key = raw.kernel.scheduler.as_ref().map(|s| s.span());
    if kernel.stack != StackStrategy::Static {
        return Err(cx.err(
            key,
            "kernel.scheduler",
            format!(
                "the srp scheduler runs every job on one shared stack of the static strategy; \
                 this manifest uses stack = \"{}\"",
                kernel.stack.name()
            ),
        ));
    }
    if let Some(t) = raw.timer.first() {
        return Err(cx.at(
            &t.name,
            "timer[0]",
            "software timers need the timer task, a second kernel task; under the srp \
             scheduler use a job with period_ms instead",
        ));
    }
    for (i, t) in raw.task.iter().enumerate() {
        job_shape(cx, i, t)?;
    }
    let edf = match &raw.kernel.srp_policy {
        None => false,
        Some(p) => match p.get_ref().as_str() {
            "fp" => false,
            "edf" => true,
            other => {
                return Err(cx.at(
                    p,
                    "kernel.srp_policy",
                    format!("unknown srp policy \"{other}\"; known: \"fp\", \"edf\""),
                ))
            }
        },
    };
    let levels = if edf {
        edf_levels(cx, raw, tasks)?
    } else {
        tasks.iter().map(|t| t.priority).collect()
    };
    let carousel = carousel(cx, raw, kernel)?;
    let mut resources: Vec<Resource> = Vec::new();
    for (i, r) in raw.resource.iter().enumerate() {
        let name = r.name.get_ref().clone();
        if !is_c_ident(&name) {
            return Err(cx.at(
                &r.name,
                &format!("resource[{i}].name"),
                format!("\"{name}\" is not a C identifier of at most 31 characters"),
            ));
        }
        if resources.iter().any(|o| o.name.eq_ignore_ascii_case(&name)) {
            return Err(cx.at(
                &r.name,
                &format!("resource[{i}].name"),
                format!(
                    "resource name \"{name}\" is used twice (names are compared ignoring case)"
                ),
            ));
        }
        if r.users.get_ref().is_empty() {
            return Err(cx.at(
                &r.users,
                &format!("resource[{i}].users"),
                "a resource needs at least one user (the tasks that lock it)",
            ));
        }
        let mut users = Vec::new();
        let mut ceiling = 0;
        for (j, u) in r.users.get_ref().iter().enumerate() {
            let Some(t) = tasks.iter().find(|t| &t.name == u.get_ref()) else {
                let known: Vec<&str> = tasks.iter().map(|t| t.name.as_str()).collect();
                return Err(cx.at(
                    u,
                    &format!("resource[{i}].users[{j}]"),
                    format!("no task \"{}\"; tasks: {}", u.get_ref(), known.join(", ")),
                ));
            };
            let k = tasks.iter().position(|x| x.name == t.name).unwrap_or(0);
            ceiling = ceiling.max(levels[k]);
            users.push(t.name.clone());
        }
        resources.push(Resource {
            name,
            users,
            ceiling,
        });
    }
    let (stack, stack_given) = match &raw.kernel.srp_stack {
        Some(v) => {
            let n = cx.int(
                v,
                "kernel.srp_stack",
                256..i64::from(kernel.usable_pool_bytes()) + 1,
            )?;
            (n.div_ceil(16) * 16, true)
        }
        None if carousel => (Srp::carousel_bound(&levels), false),
        None => (Srp::bound(tasks, &levels), false),
    };
    if stack > kernel.usable_pool_bytes() {
        return Err(cx.err(
            None,
            "kernel.srp_stack",
            format!(
                "the shared stack computed from the task budgets ({stack} bytes) does not fit \
                 the stack pool ({} bytes): set kernel.srp_stack or kernel.pool_kib",
                kernel.usable_pool_bytes()
            ),
        ));
    }
    Ok(Some(Srp {
        stack,
        stack_given,
        resources,
        edf,
        levels,
        carousel,
    }))
}

/// `kernel.carousel` of an SRP manifest: what the Carousel firmware needs beyond SRP. The
/// Carousel unit is cactus-sim's (`target = "sim"`; `cactus run` checks the profile has it);
/// a job runs on its own blocks, off the shared stack, where stack checks against the shared
/// stack's limit would check nothing (`checks = "none"`).
fn carousel(cx: &Ctx, raw: &RawManifest, kernel: &KernelOptions) -> Result<bool, ManifestError> {
    let Some(v) = &raw.kernel.carousel else {
        return Ok(false);
    };
    if !*v.get_ref() {
        return Ok(false);
    }
    if kernel.target != super::Target::Sim {
        return Err(cx.at(
            v,
            "kernel.carousel",
            "the Carousel unit is cactus-sim's (profile carousel-paper): needs target = \"sim\"",
        ));
    }
    if kernel.checks != cactus_cc::CheckMode::None {
        return Err(cx.at(
            v,
            "kernel.carousel",
            format!(
                "Carousel jobs run on their own blocks, off the shared stack whose limit the \
                 stack checks compare against: needs checks = \"none\" (this manifest has \
                 \"{}\")",
                kernel.checks.name()
            ),
        ));
    }
    if kernel.ram_kib.is_some() {
        return Err(cx.at(
            v,
            "kernel.carousel",
            "a Carousel firmware is linked into the OS scratchpad and external RAM \
             (crate::carousel_link): kernel.ram_kib does not apply",
        ));
    }
    Ok(true)
}

/// EDF preemption levels: by relative deadline (`deadline_ms`, else `period_ms`), the shortest
/// highest; every job needs one, and at most 32 distinct deadlines fit the levels.
fn edf_levels(cx: &Ctx, raw: &RawManifest, tasks: &[Task]) -> Result<Vec<u8>, ManifestError> {
    let mut deadlines = Vec::new();
    for (i, t) in tasks.iter().enumerate() {
        match t.deadline_ms.or(t.period_ms) {
            Some(d) => deadlines.push(d),
            None => {
                return Err(cx.at(
                    &raw.task[i].name,
                    &format!("task[{i}].deadline_ms"),
                    format!(
                        "under srp_policy = \"edf\" every job needs a relative deadline \
                         (deadline_ms, or period_ms); task \"{}\" has neither",
                        t.name
                    ),
                ))
            }
        }
    }
    let mut distinct = deadlines.clone();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() > 32 {
        return Err(cx.err(
            None,
            "kernel.srp_policy",
            format!(
                "{} distinct relative deadlines; EDF levels hold at most 32",
                distinct.len()
            ),
        ));
    }
    Ok(deadlines
        .iter()
        .map(|d| 31 - distinct.iter().position(|x| x == d).unwrap_or(0) as u8)
        .collect())
}

const NOT_SRP: &str = "only the srp scheduler has a shared stack and resources: set \
                       kernel.scheduler = \"srp\"";

/// A task under SRP is a job released by the dispatcher: a periodic job's `start_delay_ms` is
/// its first release's offset from the dispatcher's start; a sporadic job cannot have one, and
/// no job can start suspended (a kernel-task state).
fn job_shape(cx: &Ctx, i: usize, t: &RawTask) -> Result<(), ManifestError> {
    if let Some(v) = &t.start_delay_ms {
        if *v.get_ref() != 0 && t.period_ms.is_none() {
            return Err(cx.at(
                v,
                &format!("task[{i}].start_delay_ms"),
                "under the srp scheduler a start delay is the first release's offset of a \
                 periodic job; a job without period_ms is released only by \
                 cactus_srp_release",
            ));
        }
    }
    if let Some(v) = &t.start {
        if v.get_ref() != "ready" {
            return Err(cx.at(
                v,
                &format!("task[{i}].start"),
                "under the srp scheduler a job without period_ms is released by \
                 cactus_srp_release; it cannot be created suspended",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::Manifest;

    /// Parses a manifest with two tasks (levels 3 and 7) and `extra` appended, in a directory
    /// holding its source; the error text on failure.
    fn parse(kernel: &str, extra: &str) -> Result<Manifest, String> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.c"), "").unwrap();
        let text = format!(
            "[firmware]\nname = \"fw\"\n[kernel]\n{kernel}\n\
             [[task]]\nname = \"lo\"\nsources = [\"a.c\"]\nentry = \"lo\"\npriority = 3\n\
             stack = 512\nperiod_ms = 10\n\
             [[task]]\nname = \"hi\"\nsources = [\"a.c\"]\nentry = \"hi\"\npriority = 7\n\
             stack = 256\n{extra}"
        );
        let path = dir.path().join("m.toml");
        std::fs::write(&path, &text).unwrap();
        Manifest::load(&path).map_err(|e| e.to_string())
    }

    #[test]
    fn srp_takes_its_stack_from_the_manifest_or_computes_it() {
        let m = parse("scheduler = \"srp\"", "").unwrap();
        let srp = m.srp.unwrap();
        assert_eq!((srp.stack, srp.stack_given), (512 + 256 + 80, false));
        let m = parse("scheduler = \"srp\"\nsrp_stack = 1000", "").unwrap();
        assert_eq!(m.srp.unwrap().stack, 1008);
        assert!(parse("scheduler = \"preemptive\"", "")
            .unwrap()
            .srp
            .is_none());
    }

    #[test]
    fn a_resource_ceiling_is_its_highest_user_level() {
        let m = parse(
            "scheduler = \"srp\"",
            "[[resource]]\nname = \"bus\"\nusers = [\"lo\", \"hi\"]\n\
             [[resource]]\nname = \"log\"\nusers = [\"lo\"]\n",
        )
        .unwrap();
        let r = &m.srp.unwrap().resources;
        assert_eq!((r[0].ceiling, r[1].ceiling), (7, 3));
    }

    #[test]
    fn a_stack_override_other_than_static_is_refused() {
        let mut m = parse("scheduler = \"srp\"", "").unwrap();
        let over = crate::Overrides {
            stack: Some("mtss".into()),
            ..crate::Overrides::default()
        };
        let e = m.apply(&over).unwrap_err().to_string();
        assert!(e.contains("one shared stack of the static strategy"), "{e}");
        assert_eq!(m.kernel.stack, crate::StackStrategy::Static);
    }

    #[test]
    fn edf_levels_come_from_relative_deadlines() {
        // lo: period 10 (its deadline); hi: sporadic, so it needs a deadline.
        let e = parse("scheduler = \"srp\"\nsrp_policy = \"edf\"", "").unwrap_err();
        assert!(e.contains("every job needs a relative deadline"), "{e}");
        let m = parse(
            "scheduler = \"srp\"\nsrp_policy = \"edf\"",
            "deadline_ms = 20\n[[resource]]\nname = \"bus\"\nusers = [\"hi\"]\n",
        )
        .unwrap();
        let srp = m.srp.unwrap();
        assert!(srp.edf);
        // lo's deadline (10) is the shorter: the higher level, whatever the priorities say.
        assert_eq!(srp.levels, vec![31, 30]);
        assert_eq!(srp.resources[0].ceiling, 30);
    }

    #[test]
    fn srp_keys_and_shapes_it_cannot_run_are_refused() {
        let e = parse("scheduler = \"edf-ish\"", "").unwrap_err();
        assert!(e.contains("`kernel.scheduler`: unknown scheduler"), "{e}");
        let e = parse("srp_stack = 1024", "").unwrap_err();
        assert!(e.contains("set kernel.scheduler"), "{e}");
        let e = parse(
            "scheduler = \"srp\"\nstack = \"mtss\"\nchecks = \"mtss\"",
            "",
        )
        .unwrap_err();
        assert!(e.contains("shared stack of the static strategy"), "{e}");
        let e = parse(
            "scheduler = \"srp\"",
            "[[resource]]\nname = \"bus\"\nusers = [\"lo\", \"nobody\"]\n",
        )
        .unwrap_err();
        assert!(
            e.contains("`resource[0].users[1]`: no task \"nobody\""),
            "{e}"
        );
        let e = parse("", "[[resource]]\nname = \"bus\"\nusers = [\"lo\"]\n").unwrap_err();
        assert!(e.contains("only the srp scheduler"), "{e}");
        let e = parse(
            "scheduler = \"srp\"",
            "[[timer]]\nname = \"t\"\nperiod_ms = 5\ncallback = \"cb\"\n",
        )
        .unwrap_err();
        assert!(e.contains("software timers need the timer task"), "{e}");
    }

    #[test]
    fn a_start_delay_is_a_periodic_jobs_release_offset_only() {
        // `hi` has no period: a start delay on it is refused, naming the key.
        let e = parse("scheduler = \"srp\"", "start_delay_ms = 4\n").unwrap_err();
        assert!(e.contains("`task[1].start_delay_ms`"), "{e}");
        assert!(
            e.contains("first release's offset of a periodic job"),
            "{e}"
        );
        // On the periodic `lo` it is accepted and kept.
        let m = parse(
            "scheduler = \"srp\"\ntick_hz = 1000",
            "[[task]]\nname = \"late\"\nsources = [\"a.c\"]\nentry = \"late\"\n\
             priority = 5\nstack = 256\nperiod_ms = 10\nstart_delay_ms = 4\n",
        )
        .unwrap();
        assert_eq!(m.tasks[2].start_delay_ms, 4);
    }
}
