//! The logical-stack pass's records in a linked firmware (`kernel.window = "sw"`,
//! docs/sensmart.md "The software variant"): sorted by start address, so that the kernel finds
//! the records of a moved task's pc by binary search (kernel/arch/rv32/window_sw.h,
//! `port_window_moved`) instead of reading all of them.
//!
//! Guarantee: after [`sort_elf`] the `cactus_lstack` section of the ELF holds the same 16-byte
//! records (start, end, what, kind) in ascending order of (start, end, what, kind); nothing else
//! in the file changes. A firmware without the section is left as it is. The kernel checks the
//! order itself at start-up and reads every record when it does not hold (an ELF linked
//! otherwise).

use crate::error::BuildError;
use std::path::Path;

/// The records' section (crates/cc/src/logical.rs `TABLE`).
pub const SECTION: &str = cactus_cc::logical::TABLE;
/// Bytes of one record.
pub const RECORD_BYTES: usize = 16;

/// Sorts the records of [`SECTION`] in the linked `elf` in place; returns how many there are.
pub fn sort_elf(elf: &Path) -> Result<usize, BuildError> {
    use object::{Object, ObjectSection};
    let io = |what: &'static str| {
        let path = elf.to_path_buf();
        move |error| BuildError::Io { what, path, error }
    };
    let bad = |problem: String| BuildError::Io {
        what: "cannot sort the logical-stack records of",
        path: elf.to_path_buf(),
        error: std::io::Error::other(problem),
    };
    let mut data = std::fs::read(elf).map_err(io("cannot read"))?;
    let range = {
        let file = object::File::parse(&*data).map_err(|e| bad(format!("not an ELF: {e}")))?;
        file.section_by_name(SECTION).and_then(|s| s.file_range())
    };
    let Some((offset, size)) = range else {
        return Ok(0);
    };
    let (offset, size) = (offset as usize, size as usize);
    if size % RECORD_BYTES != 0 || offset + size > data.len() {
        return Err(bad(format!(
            "{SECTION} is {size} bytes, not whole {RECORD_BYTES}-byte records"
        )));
    }
    let out = &mut data[offset..offset + size];
    let mut records = sorted(out);
    for (k, r) in records.iter_mut().enumerate() {
        for (j, w) in r.iter().enumerate() {
            let at = k * RECORD_BYTES + 4 * j;
            out[at..at + 4].copy_from_slice(&w.to_le_bytes());
        }
    }
    std::fs::write(elf, &data).map_err(io("cannot write"))?;
    Ok(size / RECORD_BYTES)
}

/// The records in `bytes` (little-endian words), sorted.
pub fn sorted(bytes: &[u8]) -> Vec<[u32; 4]> {
    let word = |b: &[u8], i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let mut records: Vec<[u32; 4]> = bytes
        .chunks_exact(RECORD_BYTES)
        .map(|c| [word(c, 0), word(c, 4), word(c, 8), word(c, 12)])
        .collect();
    records.sort_unstable();
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_sort_by_start_then_end() {
        let recs: [[u32; 4]; 3] = [
            [0x20, 0x28, 5, 1],
            [0x10, 0x30, 0x10, 0],
            [0x10, 0x18, 7, 1],
        ];
        let bytes: Vec<u8> = recs
            .iter()
            .flat_map(|r| r.iter().flat_map(|w| w.to_le_bytes()))
            .collect();
        assert_eq!(
            sorted(&bytes),
            vec![
                [0x10, 0x18, 7, 1],
                [0x10, 0x30, 0x10, 0],
                [0x20, 0x28, 5, 1]
            ]
        );
    }
}
