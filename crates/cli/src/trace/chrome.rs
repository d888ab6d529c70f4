//! The timeline in the Chrome trace-event JSON format (`chrome://tracing`, Perfetto's UI also
//! opens it): one thread per slice track, `B`/`E` slices, `i` instants, `C` counters, `s`/`f`
//! flow arrows; timestamps in microseconds of simulated time.

use super::timeline::{Timeline, TrackKind, What};
use serde_json::{json, Map, Value};

/// `t` as a Chrome trace-event document, the process named `process`.
pub fn encode(t: &Timeline, process: &str) -> Value {
    let us = |cycle: u64| t.ns(cycle) as f64 / 1000.0;
    let mut events = vec![json!({
        "ph": "M", "name": "process_name", "pid": 1, "tid": 0,
        "args": { "name": process }
    })];
    // Looked up once per track, not once per point.
    let tracks: std::collections::BTreeMap<u64, &super::timeline::Track> =
        t.tracks.iter().map(|k| (k.uuid, k)).collect();
    let tid_of = |uuid: u64| -> Option<u32> {
        tracks.get(&uuid).and_then(|k| match k.kind {
            TrackKind::Thread { tid } => Some(tid),
            _ => None,
        })
    };
    for track in &t.tracks {
        if let TrackKind::Thread { tid } = track.kind {
            events.push(json!({
                "ph": "M", "name": "thread_name", "pid": 1, "tid": tid,
                "args": { "name": track.name }
            }));
        }
    }
    for p in &t.points {
        let ts = us(p.cycle);
        match &p.what {
            What::Value(v) => {
                let name = tracks.get(&p.track).map(|k| k.name.clone());
                events.push(json!({
                    "ph": "C", "name": name.unwrap_or_default(), "pid": 1, "ts": ts,
                    "args": { "value": v }
                }));
            }
            What::Begin { name, args } => {
                let tid = tid_of(p.track).unwrap_or(0);
                events.push(json!({
                    "ph": "B", "name": name, "pid": 1, "tid": tid, "ts": ts,
                    "args": args_json(args)
                }));
            }
            What::End => {
                let tid = tid_of(p.track).unwrap_or(0);
                events.push(json!({ "ph": "E", "pid": 1, "tid": tid, "ts": ts }));
            }
            What::Instant {
                name,
                args,
                flows,
                ends,
            } => {
                let tid = tid_of(p.track).unwrap_or(0);
                events.push(json!({
                    "ph": "i", "s": "t", "name": name, "pid": 1, "tid": tid, "ts": ts,
                    "args": args_json(args)
                }));
                for id in flows {
                    events.push(json!({
                        "ph": "s", "name": "wake-up", "cat": "flow", "id": id,
                        "pid": 1, "tid": tid, "ts": ts
                    }));
                }
                for id in ends {
                    events.push(json!({
                        "ph": "f", "bp": "e", "name": "wake-up", "cat": "flow", "id": id,
                        "pid": 1, "tid": tid, "ts": ts
                    }));
                }
            }
        }
    }
    json!({ "traceEvents": events, "displayTimeUnit": "ns" })
}

fn args_json(args: &[(String, u64)]) -> Value {
    Value::Object(
        args.iter()
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect::<Map<_, _>>(),
    )
}
