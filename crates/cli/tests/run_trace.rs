//! `cactus run MANIFEST --trace FILE.perfetto-trace`: the file is read back with a protobuf
//! wire-format reader of its own (not the writer's message types), and its tracks and events
//! are checked against the run's statistics: one running slice on the CPU track per switch
//! into each task, one slice on the traps track per trap, the waiter's "blocked on go" state
//! and its wake-up flow from `main`; the run takes the cycles it takes without a trace. The
//! Chrome format of the same run balances its slices.

use crate::support::*;
use std::collections::BTreeMap;

/// One protobuf field: its number and value (a varint, or the bytes of a length-delimited
/// field; fixed-width fields as their little-endian value).
#[derive(Debug)]
enum Field<'a> {
    Int(u64),
    Bytes(&'a [u8]),
}

fn varint(data: &[u8], at: &mut usize) -> u64 {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = data[*at];
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            break;
        }
    }
    v
}

fn fields(data: &[u8]) -> Vec<(u64, Field<'_>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < data.len() {
        let key = varint(data, &mut at);
        let (number, wire) = (key >> 3, key & 7);
        let value = match wire {
            0 => Field::Int(varint(data, &mut at)),
            1 => {
                let v = u64::from_le_bytes(data[at..at + 8].try_into().unwrap());
                at += 8;
                Field::Int(v)
            }
            2 => {
                let n = varint(data, &mut at) as usize;
                at += n;
                Field::Bytes(&data[at - n..at])
            }
            5 => {
                let v = u32::from_le_bytes(data[at..at + 4].try_into().unwrap());
                at += 4;
                Field::Int(u64::from(v))
            }
            w => panic!("wire type {w} at {at}"),
        };
        out.push((number, value));
    }
    out
}

fn int(fs: &[(u64, Field<'_>)], n: u64) -> Option<u64> {
    fs.iter().find_map(|(k, v)| match v {
        Field::Int(i) if *k == n => Some(*i),
        _ => None,
    })
}

fn text(fs: &[(u64, Field<'_>)], n: u64) -> Option<String> {
    fs.iter().find_map(|(k, v)| match v {
        Field::Bytes(b) if *k == n => Some(String::from_utf8_lossy(b).into_owned()),
        _ => None,
    })
}

fn message<'a>(fs: &[(u64, Field<'a>)], n: u64) -> Option<&'a [u8]> {
    fs.iter().find_map(|(k, v)| match v {
        Field::Bytes(b) if *k == n => Some(*b),
        _ => None,
    })
}

/// A TrackEvent: type, track, name, flow ids started and ended.
struct Ev {
    ty: u64,
    track: u64,
    name: Option<String>,
    value: Option<u64>,
    flows: Vec<u64>,
    ends: Vec<u64>,
}

#[test]
fn the_perfetto_trace_agrees_with_the_statistics() {
    if no_cross_compiler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("run.perfetto-trace");
    let stats = dir.path().join("stats.json");
    let out = run_fixture_firmware(
        dir.path(),
        "threads",
        &[
            "--trace",
            trace.to_str().unwrap(),
            "--stats-out",
            stats.to_str().unwrap(),
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let data = std::fs::read(&trace).unwrap();
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();

    let mut names = BTreeMap::new();
    let mut events = Vec::new();
    let mut last_ts = 0;
    for (n, packet) in fields(&data) {
        assert_eq!(n, 1, "Trace has only packets");
        let Field::Bytes(p) = packet else {
            panic!("packet")
        };
        let pf = fields(p);
        if let Some(d) = message(&pf, 60) {
            let df = fields(d);
            names.insert(int(&df, 1).unwrap(), text(&df, 2).unwrap_or_default());
        }
        if let Some(e) = message(&pf, 11) {
            let ts = int(&pf, 8).expect("a timestamp on every event");
            assert!(ts >= last_ts, "time goes back at {ts}");
            last_ts = ts;
            let ef = fields(e);
            let ids = |n| {
                ef.iter()
                    .filter_map(|(k, v)| match v {
                        Field::Int(i) if *k == n => Some(*i),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
            };
            events.push(Ev {
                ty: int(&ef, 9).unwrap(),
                track: int(&ef, 11).unwrap(),
                name: text(&ef, 23),
                value: int(&ef, 30),
                flows: ids(47),
                ends: ids(48),
            });
        }
    }
    let track = |name: &str| {
        *names
            .iter()
            .find(|(_, n)| n.as_str() == name)
            .unwrap_or_else(|| panic!("no track {name}: {names:?}"))
            .0
    };
    let slices = |t: u64, name: &str| {
        events
            .iter()
            .filter(|e| e.track == t && e.ty == 1 && e.name.as_deref() == Some(name))
            .count()
    };
    // One running slice on the CPU track per switch into each task.
    let cpu = track("CPU");
    for task in stats["stats"]["tasks"].as_array().unwrap() {
        let name = task["name"].as_str().unwrap();
        let switches = task["switches"].as_u64().unwrap() as usize;
        assert_eq!(slices(cpu, name), switches, "{name}");
        if switches > 0 {
            assert!(slices(track(name), "running") > 0, "{name}'s own track");
        }
    }
    // One slice per trap.
    let traps: u64 = stats["stats"]["traps_by_cause"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    let trap_track = track("traps");
    let trap_slices = events
        .iter()
        .filter(|e| e.track == trap_track && e.ty == 1)
        .count();
    assert_eq!(trap_slices as u64, traps);
    // Begins and ends balance on every track.
    for &t in names.keys() {
        let b = events.iter().filter(|e| e.track == t && e.ty == 1).count();
        let e = events.iter().filter(|e| e.track == t && e.ty == 2).count();
        assert_eq!(b, e, "track {}", names[&t]);
    }
    // The waiter blocked on the semaphore `go`, slept, and main's give woke it (a flow).
    let waiter = track("waiter");
    assert_eq!(slices(waiter, "blocked on go"), 1);
    assert!(slices(track("sleeper"), "sleeping") >= 1);
    let woken = events
        .iter()
        .find(|e| e.track == waiter && e.name.as_deref() == Some("woken by main"))
        .expect("the waiter's wake-up");
    let from_main = events
        .iter()
        .find(|e| e.track == track("main") && e.name.as_deref() == Some("wakes waiter"))
        .expect("main's give");
    assert!(!woken.ends.is_empty() && woken.ends == from_main.flows);
    // Every kernel API call is an instant on the calling task's track, named by its object:
    // the waiter's take, main's give (a give that wakes no one shows the same way).
    let instants = |t: u64, name: &str| {
        events
            .iter()
            .filter(|e| e.track == t && e.ty == 3 && e.name.as_deref() == Some(name))
            .count()
    };
    assert_eq!(instants(waiter, "sem take go"), 1);
    assert_eq!(instants(track("main"), "sem give go"), 1);
    assert_eq!(instants(waiter, "sem give go"), 0);
    // Stack in use is a counter of bytes under each task.
    assert!(
        names.values().any(|n| n == "waiter stack bytes"),
        "{names:?}"
    );

    // Each task's energy so far is a counter, set when it is switched away from: its last
    // value is the task's energy unless the task still ran at the end.
    let mut equal = 0;
    for task in stats["stats"]["tasks"].as_array().unwrap() {
        let name = task["name"].as_str().unwrap();
        let energy = task["energy_nj"].as_f64().unwrap().round() as u64;
        let Some(&t) = names
            .iter()
            .find(|(_, n)| **n == format!("{name} energy nJ"))
            .map(|(t, _)| t)
        else {
            continue;
        };
        let values: Vec<u64> = events
            .iter()
            .filter(|e| e.track == t && e.ty == 4)
            .map(|e| e.value.expect("a counter value"))
            .collect();
        assert!(
            values.windows(2).all(|w| w[0] <= w[1]),
            "{name}: {values:?}"
        );
        let last = *values.last().expect("set at a switch");
        assert!(last > 0 && last <= energy, "{name}: {last} of {energy} nJ");
        equal += usize::from(last == energy);
    }
    assert!(equal >= 2, "the tasks that ended before the run did");

    // The probe reads without a cost: the same run without a trace takes as long.
    let plain = dir.path().join("plain.json");
    let out = run_fixture_firmware(
        dir.path(),
        "threads",
        &["--stats-out", plain.to_str().unwrap()],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let plain: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&plain).unwrap()).unwrap();
    for key in ["cycles", "instructions", "energy_nj"] {
        assert_eq!(plain["stats"][key], stats["stats"][key], "{key}");
    }
}

#[test]
fn the_chrome_trace_of_a_run_balances_its_slices() {
    if no_cross_compiler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("run.json");
    let out = run_fixture_firmware(
        dir.path(),
        "threads",
        &[
            "--trace",
            trace.to_str().unwrap(),
            "--trace-format",
            "chrome",
            "--stats",
            "none",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    let mut depth: BTreeMap<u64, i64> = BTreeMap::new();
    for e in doc["traceEvents"].as_array().unwrap() {
        let d = depth.entry(e["tid"].as_u64().unwrap_or(0)).or_default();
        match e["ph"].as_str().unwrap() {
            "B" => *d += 1,
            "E" => *d -= 1,
            _ => {}
        }
        assert!(*d >= 0);
    }
    assert!(depth.values().all(|d| *d == 0), "{depth:?}");
}
