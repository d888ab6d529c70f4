//! Frame recovery against GCC: for every function of the repo's C files that GCC's
//! `-fstack-usage` reports as `static`, our recovered static frame size equals GCC's.

use crate::common;
use cactus_asm::{AsmFile, Cfg, Frame, Function, Item};
use std::collections::BTreeMap;

/// Whether `f` writes sp inside inline assembly (`#APP` .. `#NO_APP`): GCC's `-fstack-usage`
/// does not look there and calls such a frame static, where we find it dynamic
/// (bench/sensmart/relocate.c runs a probe on an sp of its choosing).
fn inline_asm_moves_sp(file: &AsmFile, f: &Function) -> bool {
    let mut inside = false;
    for e in &file.entries[f.start..f.end] {
        match &e.item {
            Item::Verbatim(t) if t.trim() == "#APP" => inside = true,
            Item::Verbatim(t) if t.trim() == "#NO_APP" => inside = false,
            Item::Inst(s) if inside && s.writes().contains(2) => return true,
            _ => {}
        }
    }
    false
}

/// `name -> (bytes, kind)` from a `.su` file.
fn parse_su(text: &str) -> BTreeMap<String, (u32, String)> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let mut cols = line.split('\t');
        let (Some(loc), Some(bytes), Some(kind)) = (cols.next(), cols.next(), cols.next()) else {
            continue;
        };
        let name = loc.rsplit(':').next().unwrap_or(loc).to_string();
        if let Ok(b) = bytes.parse() {
            out.insert(name, (b, kind.to_string()));
        }
    }
    out
}

#[test]
fn static_frames_match_gcc_stack_usage() {
    if !common::toolchain_present() {
        return;
    }
    let results = common::par_map(common::corpus(), |e| {
        let c = e.compiled.as_ref()?;
        let origin = format!("{}{}", e.source.display(), e.opt);
        let file = AsmFile::parse(&c.asm, &origin).expect("parses");
        let su = parse_su(&c.stack_usage);
        let mut checked = 0;
        let mut unmatched = 0;
        let mut bad = Vec::new();
        let mut kinds = [0usize; 4];
        for f in file.functions() {
            let cfg = Cfg::build(&file, &f);
            let frame = Frame::recover(&file, &cfg);
            kinds[0] += usize::from(frame.static_size > 0);
            kinds[1] += usize::from(frame.frame_pointer);
            kinds[2] += usize::from(frame.dynamic);
            kinds[3] += usize::from(frame.incoming_args > 0);
            let size = frame.static_size as i32;
            if let Some(&(r, slot)) = frame.saved.iter().find(|&&(_, s)| s >= 0 || s < -size) {
                bad.push(format!(
                    "{origin}: {}: x{r} saved at {slot}, outside the {size}-byte frame",
                    f.name
                ));
            }
            match su.get(&f.name) {
                Some((_, kind)) if kind == "static" && inline_asm_moves_sp(&file, &f) => {
                    if !frame.dynamic {
                        bad.push(format!(
                            "{origin}: {}: inline assembly moves sp, we found no dynamic sp",
                            f.name
                        ));
                    }
                    checked += 1;
                }
                Some((bytes, kind)) if kind == "static" => {
                    checked += 1;
                    if frame.static_size != *bytes || frame.dynamic {
                        bad.push(format!("{origin}: {}: ours {frame:?}, gcc {bytes}", f.name));
                    }
                }
                Some((_, kind)) if kind.starts_with("dynamic") => {
                    if !frame.dynamic {
                        bad.push(format!(
                            "{origin}: {}: gcc says {kind}, we found no dynamic sp",
                            f.name
                        ));
                    }
                    checked += 1;
                }
                Some(_) => {}
                None => unmatched += 1,
            }
        }
        Some((checked, unmatched, bad, kinds))
    });
    let (mut checked, mut unmatched, mut bad, mut kinds) = (0, 0, Vec::new(), [0usize; 4]);
    for (c, u, b, k) in results.into_iter().flatten() {
        checked += c;
        unmatched += u;
        bad.extend(b);
        for (total, n) in kinds.iter_mut().zip(k) {
            *total += n;
        }
    }
    eprintln!(
        "frames: {} non-zero, {} with frame pointer, {} dynamic, {} reading stack arguments",
        kinds[0], kinds[1], kinds[2], kinds[3]
    );
    eprintln!("frames: {checked} functions cross-checked against -fstack-usage, {unmatched} without a .su entry, {} mismatches", bad.len());
    assert!(checked > 100, "too few functions checked: {checked}");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
