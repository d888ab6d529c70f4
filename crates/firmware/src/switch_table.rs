//! The ccs-sw switch table of a firmware (`kernel.switch = "ccs-sw"`, docs/ccs.md "The switch
//! table"): made once over the final assembly of every unit of the firmware (the analysis is
//! whole-program), linked as records in each unit plus one generated routine file, and sorted
//! by start address in the linked ELF.
//!
//! Guarantees: after [`sort_elf`] the `.cactus.switch` section of the ELF holds 16-byte records
//! (start, end, save routine, restore routine) sorted by start, each with start < end, none
//! overlapping the next, and its bucket index (`__cactus_switch_index`) is filled for them;
//! otherwise the build fails and names the record.

use crate::error::BuildError;
use crate::manifest::{Manifest, SwitchMode};
use cactus_asm::AsmFile;
use cactus_cc::switch::rename::pack_pages;
use cactus_cc::switch::table::{
    bucket_index, switch_table, SwitchTable, TableOptions, INDEX_HEADER_BYTES, INDEX_SYMBOL,
    RECORD_BYTES, SECTION,
};
use cactus_cc::switch::TaskEntry;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// File name of the generated routines in a build directory.
pub const ROUTINES_NAME: &str = "switch-table.S";
/// File name of the readable list of ranges (and the mutation, if any) in a build directory.
pub const LISTING_NAME: &str = "switch-table.txt";

fn fail(m: &Manifest, problem: String) -> BuildError {
    BuildError::Switch {
        firmware: m.name.clone(),
        problem,
    }
}

/// Makes the table of `m` over the final assembly `texts` of its C units (`units`: source and
/// whether it is the kernel library's, in the same order; `glue`: the generated glue's source).
/// Returns the texts with the ranges' labels and records, and writes the routines
/// ([`ROUTINES_NAME`]) and the listing ([`LISTING_NAME`]) into `dir`.
pub fn generate(
    m: &Manifest,
    units: &[(PathBuf, bool)],
    glue: &Path,
    texts: Vec<String>,
    dir: &Path,
) -> Result<(Vec<String>, PathBuf), BuildError> {
    let mut files = Vec::new();
    for ((source, library), text) in units.iter().zip(&texts) {
        let stem = source.file_name().unwrap_or_default().to_string_lossy();
        let origin = if *library {
            format!("{}{stem}", cactus_cc::switch::KERNEL_PREFIX)
        } else {
            stem.into_owned()
        };
        let file = AsmFile::parse(text, &origin)
            .map_err(|e| fail(m, format!("{}: {e}", source.display())))?;
        files.push(file);
    }
    let glue = units.iter().position(|(s, _)| s == glue);
    let tasks = task_entries(m);
    let rmcs = m.kernel.switch == SwitchMode::Rmcs;
    // rmcs: the renaming pass packs the switch states into the fewest register pages first;
    // the table is then computed over the renamed code (docs/ccs.md "rmcs").
    let renamed = if rmcs {
        pack_pages(&mut files, &tasks, glue).map_err(|e| fail(m, e.to_string()))?
    } else {
        Vec::new()
    };
    let opts = TableOptions {
        poison: m.kernel.switch_poison,
        mutate: m.kernel.switch_mutate,
        rmcs,
    };
    let table = switch_table(&files, &tasks, glue, opts).map_err(|e| fail(m, e.to_string()))?;
    let routines = dir.join(ROUTINES_NAME);
    write(&routines, &table.routines)?;
    let mut text = listing(&table, &files);
    for r in &renamed {
        let moves: Vec<String> = r.moves.iter().map(|(a, b)| format!("{a}->{b}")).collect();
        let _ = writeln!(
            text,
            "# renamed: {} in {}: {}",
            r.function,
            r.unit,
            moves.join(" ")
        );
    }
    write(&dir.join(LISTING_NAME), &text)?;
    Ok((table.texts, routines))
}

/// The switch analysis' view of `m`'s tasks: each task's name, entry function and
/// `stack_calls` (what its indirect calls reach), in manifest order.
pub fn task_entries(m: &Manifest) -> Vec<TaskEntry> {
    m.tasks
        .iter()
        .map(|t| TaskEntry {
            task: t.name.clone(),
            entry: t.entry.clone(),
            calls: t.stack_calls.clone(),
        })
        .collect()
}

fn write(path: &Path, text: &str) -> Result<(), BuildError> {
    std::fs::write(path, text).map_err(|error| BuildError::Io {
        what: "cannot write",
        path: path.to_path_buf(),
        error,
    })
}

/// One line per range: unit, function, kind, instructions, registers; then the mutation.
pub fn listing(table: &SwitchTable, files: &[AsmFile]) -> String {
    let mut s = String::from("# id unit function kind insts saved registers\n");
    for (k, r) in table.ranges.iter().enumerate() {
        let regs: Vec<&str> = r.mask.iter().map(cactus_isa::reg_name).collect();
        let _ = writeln!(
            s,
            "{k} {} {} {} {} {} {}",
            files[r.unit].origin,
            r.function,
            if r.point { "point" } else { "block" },
            r.insts,
            r.mask.len(),
            regs.join(",")
        );
    }
    if let Some(mu) = &table.mutation {
        let r = &table.ranges[mu.range];
        let _ = writeln!(
            s,
            "# mutation: {} dropped from range {} ({} in {})",
            mu.dropped, mu.range, r.function, files[r.unit].origin
        );
    }
    s
}

/// The file offset and size of the bucket index's object ([`INDEX_SYMBOL`]) in `file`, if it
/// has one.
fn index_range(file: &object::File) -> Result<Option<(usize, usize)>, String> {
    use object::{Object, ObjectSection, ObjectSymbol};
    let Some(sym) = file.symbols().find(|s| s.name() == Ok(INDEX_SYMBOL)) else {
        return Ok(None);
    };
    let section = sym
        .section_index()
        .and_then(|i| file.section_by_index(i).ok())
        .ok_or_else(|| format!("{INDEX_SYMBOL} is in no section"))?;
    let (offset, _) = section
        .file_range()
        .ok_or_else(|| format!("{INDEX_SYMBOL}'s section has no bytes in the file"))?;
    let at = offset + (sym.address() - section.address());
    Ok(Some((at as usize, sym.size() as usize)))
}

/// What [`sort_elf`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sorted {
    /// Records in the table.
    pub records: usize,
    /// The pc range (start, end) of the mutated record, in a `kernel.switch_mutate` build.
    pub mutated: Option<(u32, u32)>,
}

/// Sorts the records of the `.cactus.switch` section of the linked `elf` by start address, in
/// place, checks them, fills the kernel's bucket index over them (see the module documentation); appends the mutated record's range,
/// if any, to the listing beside the ELF ([`LISTING_NAME`]).
pub fn sort_elf(m: &Manifest, elf: &Path) -> Result<Sorted, BuildError> {
    use object::{Object, ObjectSection};
    let io = |what: &'static str| {
        let path = elf.to_path_buf();
        move |error| BuildError::Io { what, path, error }
    };
    let mut data = std::fs::read(elf).map_err(io("cannot read"))?;
    let (offset, size, mutated_save, index) = {
        let file = object::File::parse(&*data)
            .map_err(|e| fail(m, format!("{}: not an ELF: {e}", elf.display())))?;
        let index = index_range(&file).map_err(|e| fail(m, format!("{}: {e}", elf.display())))?;
        let Some(section) = file.section_by_name(SECTION) else {
            return Err(fail(m, format!("{}: no {SECTION} section", elf.display())));
        };
        let mutated_save = m.kernel.switch_mutate;
        match section.file_range() {
            Some((o, s)) => (o as usize, s as usize, mutated_save, index),
            None => {
                return Ok(Sorted {
                    records: 0,
                    mutated: None,
                })
            }
        }
    };
    if size % RECORD_BYTES != 0 || offset + size > data.len() {
        return Err(fail(
            m,
            format!("{SECTION} is {size} bytes, not whole {RECORD_BYTES}-byte records"),
        ));
    }
    let word = |b: &[u8], i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let bytes = &data[offset..offset + size];
    let mut records: Vec<[u32; 4]> = bytes
        .chunks_exact(RECORD_BYTES)
        .map(|c| [word(c, 0), word(c, 4), word(c, 8), word(c, 12)])
        .collect();
    records.sort_by_key(|r| r[0]);
    for (k, r) in records.iter().enumerate() {
        if r[0] >= r[1] {
            return Err(fail(
                m,
                format!("record {k}: empty range {:#x}..{:#x}", r[0], r[1]),
            ));
        }
        if let Some(next) = records.get(k + 1) {
            if r[1] > next[0] {
                return Err(fail(
                    m,
                    format!(
                        "records overlap: {:#x}..{:#x} and {:#x}..{:#x}",
                        r[0], r[1], next[0], next[1]
                    ),
                ));
            }
        }
    }
    let out = &mut data[offset..offset + size];
    for (k, r) in records.iter().enumerate() {
        for (j, w) in r.iter().enumerate() {
            out[k * RECORD_BYTES + 4 * j..k * RECORD_BYTES + 4 * j + 4]
                .copy_from_slice(&w.to_le_bytes());
        }
    }
    if let Some((at, len)) = index {
        let buckets = len.saturating_sub(INDEX_HEADER_BYTES) / 2;
        let spans: Vec<(u32, u32)> = records.iter().map(|r| (r[0], r[1])).collect();
        let bytes = bucket_index(&spans, buckets.saturating_sub(1))
            .filter(|b| b.len() == len && at + len <= data.len())
            .ok_or_else(|| {
                fail(
                    m,
                    format!(
                        "{INDEX_SYMBOL} ({len} bytes) cannot index {} records",
                        records.len()
                    ),
                )
            })?;
        data[at..at + len].copy_from_slice(&bytes);
    }
    std::fs::write(elf, &data).map_err(io("cannot write"))?;
    let mutated = mutated_save
        .and_then(|id| records.iter().find(|r| r[3] == id))
        .map(|r| (r[0], r[1]));
    if let (Some((start, end)), Some(dir)) = (mutated, elf.parent()) {
        let listing = dir.join(LISTING_NAME);
        let mut text = std::fs::read_to_string(&listing).unwrap_or_default();
        let _ = writeln!(text, "# mutated range: {start:#x}..{end:#x}");
        write(&listing, &text)?;
    }
    Ok(Sorted {
        records: records.len(),
        mutated,
    })
}
