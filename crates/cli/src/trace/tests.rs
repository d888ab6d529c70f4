use super::perfetto::{self, Trace};
use super::timeline::{build, Names, What, CPU};
use super::{chrome, TraceFormat};
use cactus_sim::{Event, EventKind};
use prost::Message;
use std::path::Path;

struct Objects;

impl Names for Objects {
    fn object(&self, addr: u32) -> Option<String> {
        (0x2000..0x2010)
            .contains(&addr)
            .then(|| format!("sem+{}", addr - 0x2000))
    }
}

fn ev(cycle: u64, kind: EventKind) -> Event {
    Event {
        cycle,
        instret: cycle,
        pc: 0x8000_0000,
        kind,
    }
}

fn sample(task: u32, state: u32, wait_on: u32, sp: u32) -> EventKind {
    EventKind::TaskSample {
        task,
        state,
        prio: 5,
        wait_on,
        sp,
    }
}

/// Task a runs, blocks on a semaphore, b runs and wakes it, a runs again.
fn run() -> Vec<Event> {
    let create = |task, name: &str| EventKind::TaskCreate {
        task,
        priority: 5,
        name: name.into(),
    };
    vec![
        ev(0, create(0, "a")),
        ev(0, create(1, "b")),
        ev(
            0,
            EventKind::RegionAssign {
                base: 0x1000,
                size: 256,
                owner: 0,
            },
        ),
        ev(10, EventKind::TaskSwitch { task: 0 }),
        ev(20, sample(0, 3, 0x2004, 0x10c0)),
        ev(20, EventKind::TaskSwitch { task: 1 }),
        ev(
            25,
            EventKind::Trap {
                cause: 0x8000_0007,
                tval: 0,
            },
        ),
        ev(25, EventKind::IsrEnter { source: 10 }),
        ev(26, EventKind::IsrLeave),
        ev(
            27,
            EventKind::Mret {
                target: 0x8000_0100,
            },
        ),
        ev(30, sample(0, 1, 0, 0x10c0)),
        ev(40, EventKind::TaskSwitch { task: 0 }),
        ev(50, EventKind::Marker { id: 1, value: 7 }),
    ]
}

fn slices(t: &super::timeline::Timeline, track: u64) -> Vec<String> {
    t.slices(track)
        .into_iter()
        .map(|(name, _, _)| name)
        .collect()
}

#[test]
fn a_task_track_shows_its_states_and_who_woke_it() {
    let t = build(&run(), 100_000_000, &Objects);
    let a = t.track("a").expect("a's track").uuid;
    assert_eq!(
        slices(&t, a),
        ["ready", "running", "blocked on sem+4", "ready", "running"]
    );
    assert_eq!(slices(&t, CPU), ["a", "b", "a"]);
    // The wake-up is a flow from b's track to a's.
    let b = t.track("b").unwrap().uuid;
    let start = t.on(b).find_map(|p| match &p.what {
        What::Instant { name, flows, .. } if name == "wakes a" => flows.first().copied(),
        _ => None,
    });
    let end = t.on(a).find_map(|p| match &p.what {
        What::Instant { name, ends, .. } if name == "woken by b" => ends.first().copied(),
        _ => None,
    });
    assert!(start.is_some() && start == end, "{start:?} {end:?}");
    // a's stack in use when it left (the sample before the switch): region top 0x1100 - sp
    // 0x10c0, at cycle 20.
    let stack = t.track("a stack bytes").expect("counter").uuid;
    let first = t.on(stack).next().map(|p| (p.cycle, p.what.clone()));
    assert_eq!(first, Some((20, What::Value(64))));
    assert_eq!(
        slices(&t, super::timeline::TRAPS),
        ["machine timer interrupt"]
    );
    assert_eq!(
        slices(&t, super::timeline::ISRS),
        ["interrupt source 10 handler"]
    );
}

#[test]
fn every_slice_ends_on_its_own_track() {
    let t = build(&run(), 100_000_000, &Objects);
    for track in &t.tracks {
        let mut depth = 0i32;
        for p in t.on(track.uuid) {
            match p.what {
                What::Begin { .. } => depth += 1,
                What::End => depth -= 1,
                _ => {}
            }
            assert!((0..=1).contains(&depth), "{} overlaps", track.name);
        }
        assert_eq!(depth, 0, "{} left open", track.name);
    }
}

#[test]
fn the_perfetto_file_decodes_to_the_same_tracks_and_events() {
    let t = build(&run(), 100_000_000, &Objects);
    let trace = Trace::decode(perfetto::encode(&t, "demo").as_slice()).unwrap();
    let described: Vec<String> = trace
        .packet
        .iter()
        .filter_map(|p| p.track_descriptor.as_ref()?.name.clone())
        .collect();
    for name in ["demo", "CPU", "a", "b", "traps", "a stack bytes"] {
        assert!(described.iter().any(|n| n == name), "{name}: {described:?}");
    }
    let events: Vec<_> = trace
        .packet
        .iter()
        .filter_map(|p| p.track_event.as_ref())
        .collect();
    assert_eq!(events.len(), t.points.len());
    let count = |ty| events.iter().filter(|e| e.r#type == Some(ty)).count();
    assert_eq!(count(perfetto::SLICE_BEGIN), count(perfetto::SLICE_END));
    // 10 ns per cycle at 100 MHz; timestamps never go back.
    let ts: Vec<u64> = trace.packet.iter().filter_map(|p| p.timestamp).collect();
    assert!(ts.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(ts.last(), Some(&500));
    assert_eq!(trace.packet[0].sequence_flags, Some(1));
}

#[test]
fn the_chrome_file_balances_its_slices_per_thread() {
    let t = build(&run(), 100_000_000, &Objects);
    let doc = chrome::encode(&t, "demo");
    let events = doc["traceEvents"].as_array().unwrap();
    let mut depth = std::collections::BTreeMap::new();
    for e in events {
        let d = depth.entry(e["tid"].as_u64().unwrap_or(0)).or_insert(0i64);
        match e["ph"].as_str().unwrap() {
            "B" => *d += 1,
            "E" => *d -= 1,
            _ => {}
        }
    }
    assert!(depth.values().all(|d| *d == 0), "{depth:?}");
    assert!(events.iter().any(|e| e["ph"] == "s") && events.iter().any(|e| e["ph"] == "f"));
}

#[test]
fn the_format_follows_the_file_name_unless_given() {
    let auto = TraceFormat::Auto;
    assert_eq!(
        auto.for_path(Path::new("a.perfetto-trace")),
        TraceFormat::Perfetto
    );
    assert_eq!(auto.for_path(Path::new("a.pftrace")), TraceFormat::Perfetto);
    assert_eq!(auto.for_path(Path::new("a.json")), TraceFormat::Cactus);
    assert_eq!(
        TraceFormat::Chrome.for_path(Path::new("a.json")),
        TraceFormat::Chrome
    );
}
