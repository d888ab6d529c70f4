//! The timeline as a Perfetto trace: the subset of Perfetto's `trace.proto` that TrackEvent
//! traces use (field numbers from google/perfetto's protos/perfetto/trace), encoded with
//! prost. Timestamps are the default trace clock (boot time, nanoseconds): simulated cycles at
//! the profile's clock, so the UI shows real time units.

use super::timeline::{Timeline, TrackKind, Unit, What};
use prost::Message;

/// `Trace`: the file is one of these.
#[derive(Clone, PartialEq, Message)]
pub struct Trace {
    /// `packet = 1`.
    #[prost(message, repeated, tag = "1")]
    pub packet: Vec<TracePacket>,
}

/// `TracePacket`, with the fields a TrackEvent trace needs.
#[derive(Clone, PartialEq, Message)]
pub struct TracePacket {
    /// `timestamp = 8`, nanoseconds.
    #[prost(uint64, optional, tag = "8")]
    pub timestamp: Option<u64>,
    /// `trusted_packet_sequence_id = 10`.
    #[prost(uint32, optional, tag = "10")]
    pub trusted_packet_sequence_id: Option<u32>,
    /// `track_event = 11`.
    #[prost(message, optional, tag = "11")]
    pub track_event: Option<TrackEvent>,
    /// `sequence_flags = 13` (1: incremental state cleared).
    #[prost(uint32, optional, tag = "13")]
    pub sequence_flags: Option<u32>,
    /// `track_descriptor = 60`.
    #[prost(message, optional, tag = "60")]
    pub track_descriptor: Option<TrackDescriptor>,
}

/// `TrackDescriptor`.
#[derive(Clone, PartialEq, Message)]
pub struct TrackDescriptor {
    /// `uuid = 1`.
    #[prost(uint64, optional, tag = "1")]
    pub uuid: Option<u64>,
    /// `name = 2`.
    #[prost(string, optional, tag = "2")]
    pub name: Option<String>,
    /// `process = 3`.
    #[prost(message, optional, tag = "3")]
    pub process: Option<ProcessDescriptor>,
    /// `thread = 4`.
    #[prost(message, optional, tag = "4")]
    pub thread: Option<ThreadDescriptor>,
    /// `parent_uuid = 5`.
    #[prost(uint64, optional, tag = "5")]
    pub parent_uuid: Option<u64>,
    /// `counter = 8`.
    #[prost(message, optional, tag = "8")]
    pub counter: Option<CounterDescriptor>,
}

/// `ProcessDescriptor`.
#[derive(Clone, PartialEq, Message)]
pub struct ProcessDescriptor {
    /// `pid = 1`.
    #[prost(int32, optional, tag = "1")]
    pub pid: Option<i32>,
    /// `process_name = 6`.
    #[prost(string, optional, tag = "6")]
    pub process_name: Option<String>,
}

/// `ThreadDescriptor`.
#[derive(Clone, PartialEq, Message)]
pub struct ThreadDescriptor {
    /// `pid = 1`.
    #[prost(int32, optional, tag = "1")]
    pub pid: Option<i32>,
    /// `tid = 2`.
    #[prost(int64, optional, tag = "2")]
    pub tid: Option<i64>,
    /// `thread_name = 5`.
    #[prost(string, optional, tag = "5")]
    pub thread_name: Option<String>,
}

/// `CounterDescriptor`.
#[derive(Clone, PartialEq, Message)]
pub struct CounterDescriptor {
    /// `unit = 3` (2: count, 3: bytes).
    #[prost(int32, optional, tag = "3")]
    pub unit: Option<i32>,
}

/// `TrackEvent`.
#[derive(Clone, PartialEq, Message)]
pub struct TrackEvent {
    /// `debug_annotations = 4`.
    #[prost(message, repeated, tag = "4")]
    pub debug_annotations: Vec<DebugAnnotation>,
    /// `type = 9`: 1 slice begin, 2 slice end, 3 instant, 4 counter.
    #[prost(int32, optional, tag = "9")]
    pub r#type: Option<i32>,
    /// `track_uuid = 11`.
    #[prost(uint64, optional, tag = "11")]
    pub track_uuid: Option<u64>,
    /// `categories = 22`.
    #[prost(string, repeated, tag = "22")]
    pub categories: Vec<String>,
    /// `name = 23`.
    #[prost(string, optional, tag = "23")]
    pub name: Option<String>,
    /// `counter_value = 30`.
    #[prost(int64, optional, tag = "30")]
    pub counter_value: Option<i64>,
    /// `flow_ids = 47` (proto2: not packed).
    #[prost(fixed64, repeated, packed = "false", tag = "47")]
    pub flow_ids: Vec<u64>,
    /// `terminating_flow_ids = 48` (proto2: not packed).
    #[prost(fixed64, repeated, packed = "false", tag = "48")]
    pub terminating_flow_ids: Vec<u64>,
}

/// `DebugAnnotation`.
#[derive(Clone, PartialEq, Message)]
pub struct DebugAnnotation {
    /// `uint_value = 3`.
    #[prost(uint64, optional, tag = "3")]
    pub uint_value: Option<u64>,
    /// `name = 10`.
    #[prost(string, optional, tag = "10")]
    pub name: Option<String>,
}

/// `TrackEvent.Type` values.
pub const SLICE_BEGIN: i32 = 1;
/// See [`SLICE_BEGIN`].
pub const SLICE_END: i32 = 2;
/// See [`SLICE_BEGIN`].
pub const INSTANT: i32 = 3;
/// See [`SLICE_BEGIN`].
pub const COUNTER: i32 = 4;

/// The one packet sequence of the file.
const SEQUENCE: u32 = 1;

/// `t` as a Perfetto trace, the process named `process`.
pub fn encode(t: &Timeline, process: &str) -> Vec<u8> {
    let mut packets = Vec::new();
    for track in &t.tracks {
        let mut d = TrackDescriptor {
            uuid: Some(track.uuid),
            name: Some(track.name.clone()),
            parent_uuid: track.parent,
            ..Default::default()
        };
        match track.kind {
            TrackKind::Process => {
                d.process = Some(ProcessDescriptor {
                    pid: Some(1),
                    process_name: Some(process.to_string()),
                });
                d.name = Some(process.to_string());
            }
            TrackKind::Thread { tid } => {
                d.thread = Some(ThreadDescriptor {
                    pid: Some(1),
                    tid: Some(i64::from(tid)),
                    thread_name: Some(track.name.clone()),
                });
                d.parent_uuid = None;
            }
            TrackKind::Counter(unit) => {
                d.counter = Some(CounterDescriptor {
                    unit: Some(match unit {
                        Unit::Count => 2,
                        Unit::Bytes => 3,
                    }),
                });
            }
        }
        packets.push(TracePacket {
            trusted_packet_sequence_id: Some(SEQUENCE),
            track_descriptor: Some(d),
            ..Default::default()
        });
    }
    for p in &t.points {
        let mut e = TrackEvent {
            track_uuid: Some(p.track),
            ..Default::default()
        };
        match &p.what {
            What::Begin { name, args } => {
                e.r#type = Some(SLICE_BEGIN);
                e.name = Some(name.clone());
                e.debug_annotations = annotations(args);
            }
            What::End => e.r#type = Some(SLICE_END),
            What::Instant {
                name,
                args,
                flows,
                ends,
            } => {
                e.r#type = Some(INSTANT);
                e.name = Some(name.clone());
                e.debug_annotations = annotations(args);
                e.flow_ids = flows.clone();
                e.terminating_flow_ids = ends.clone();
            }
            What::Value(v) => {
                e.r#type = Some(COUNTER);
                e.counter_value = Some(*v);
            }
        }
        packets.push(TracePacket {
            timestamp: Some(t.ns(p.cycle)),
            trusted_packet_sequence_id: Some(SEQUENCE),
            track_event: Some(e),
            ..Default::default()
        });
    }
    if let Some(first) = packets.first_mut() {
        first.sequence_flags = Some(1);
    }
    Trace { packet: packets }.encode_to_vec()
}

fn annotations(args: &[(String, u64)]) -> Vec<DebugAnnotation> {
    args.iter()
        .map(|(k, v)| DebugAnnotation {
            name: Some(k.clone()),
            uint_value: Some(*v),
        })
        .collect()
}
