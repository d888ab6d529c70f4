//! Reading ELF inputs into [`Unit`]s: a relocatable object, every member of a static archive,
//! or a linked executable. Only 32-bit little-endian RISC-V ELF is accepted; archive members
//! that are not ELF (symbol indexes, LTO-only objects without code) contribute nothing.

use super::annotate::parse_annotations;
use super::error::MachineError;
use super::unit::{Binding, CodeSection, Function, Reloc, RelocTarget, SectionId, Unit};
use object::elf::{self, FileHeader32};
use object::read::archive::ArchiveFile;
use object::read::elf::ElfFile32;
use object::{
    LittleEndian, Object, ObjectKind, ObjectSection, ObjectSymbol, RelocationFlags,
    RelocationTarget, SectionKind, SymbolKind,
};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// ELF machine number of RISC-V.
const EM_RISCV: u16 = 243;
/// The section holding stack-depth annotations (see `docs/stack-analysis.md`).
pub const ANNOTATION_SECTION: &str = ".cactus.stack_depth";

/// Reads the file at `path` ([`load_bytes`]).
pub fn load_path(path: &Path) -> Result<Vec<Unit>, MachineError> {
    let bytes = std::fs::read(path).map_err(|error| MachineError::Io {
        what: "cannot read",
        path: path.to_path_buf(),
        error,
    })?;
    load_bytes(&bytes, &path.display().to_string())
}

/// Parses `bytes` (named `origin` in messages): an archive gives one unit per ELF member
/// that has code, in archive order; an ELF object or executable gives one unit.
pub fn load_bytes(bytes: &[u8], origin: &str) -> Result<Vec<Unit>, MachineError> {
    let malformed = |problem: String| MachineError::Malformed {
        origin: origin.to_string(),
        problem,
    };
    if bytes.starts_with(b"!<arch>\n") {
        let archive = ArchiveFile::parse(bytes).map_err(|e| malformed(e.to_string()))?;
        let mut units = Vec::new();
        for member in archive.members() {
            let member = member.map_err(|e| malformed(e.to_string()))?;
            let name = String::from_utf8_lossy(member.name()).into_owned();
            let data = member.data(bytes).map_err(|e| malformed(e.to_string()))?;
            if !data.starts_with(b"\x7fELF") || is_foreign_without_code(data) {
                continue;
            }
            let unit = load_elf(data, &format!("{origin}({name})"))?;
            if !unit.functions.is_empty() || !unit.annotations.is_empty() {
                units.push(unit);
            }
        }
        return Ok(units);
    }
    if !bytes.starts_with(b"\x7fELF") {
        return Err(malformed(
            "not an ELF file or a static archive (no `\\x7fELF` or `!<arch>` magic)".into(),
        ));
    }
    Ok(vec![load_elf(bytes, origin)?])
}

/// True for an ELF that is not RV32 (e.g. the 64-bit `empty.c.o` some picolibc packages ship
/// in rv32 archives) and defines no function: the linker never pulls it, so it is skipped.
/// A foreign member that defines functions is still an error ([`load_elf`]).
fn is_foreign_without_code(data: &[u8]) -> bool {
    let rv32 =
        data.len() >= 20 && data[4] == 1 && u16::from_le_bytes([data[18], data[19]]) == EM_RISCV;
    if rv32 {
        return false;
    }
    match object::File::parse(data) {
        Ok(file) => !file
            .symbols()
            .any(|s| s.kind() == SymbolKind::Text && !s.is_undefined()),
        Err(_) => false,
    }
}

/// One ELF file: checks class and machine, then reads sections, functions, relocations,
/// data references to code and annotations.
fn load_elf(data: &[u8], origin: &str) -> Result<Unit, MachineError> {
    let malformed = |problem: String| MachineError::Malformed {
        origin: origin.to_string(),
        problem,
    };
    if data.len() < 20 || data[4] != 1 || data[5] != 1 {
        return Err(malformed(
            "not a 32-bit little-endian ELF file (RV32 expected)".into(),
        ));
    }
    let machine = u16::from_le_bytes([data[18], data[19]]);
    if machine != EM_RISCV {
        return Err(malformed(format!(
            "ELF machine {machine}, not RISC-V ({EM_RISCV})"
        )));
    }
    let file = ElfFile32::<LittleEndian>::parse(data).map_err(|e| malformed(e.to_string()))?;
    let _: &FileHeader32<LittleEndian> = file.elf_header();
    let mut unit = Unit {
        origin: origin.to_string(),
        linked: file.kind() != ObjectKind::Relocatable,
        ..Unit::default()
    };
    for section in file.sections() {
        let name = section.name().unwrap_or("");
        if name == ANNOTATION_SECTION {
            let bytes = section.data().map_err(|e| malformed(e.to_string()))?;
            unit.annotations = parse_annotations(bytes, origin)?;
        }
        if section.kind() == SectionKind::Text {
            let bytes = section.data().map_err(|e| malformed(e.to_string()))?;
            unit.sections.insert(
                section.index().0,
                CodeSection {
                    address: section.address(),
                    data: bytes.to_vec(),
                },
            );
        }
    }
    unit.functions = functions(&file, &unit.sections);
    if !unit.linked {
        read_relocations(&file, &mut unit);
    }
    Ok(unit)
}

fn binding<'d>(sym: &impl ObjectSymbol<'d>) -> Binding {
    if sym.is_weak() {
        Binding::Weak
    } else if sym.is_global() {
        Binding::Global
    } else {
        Binding::Local
    }
}

/// Functions from symbols: sized `STT_FUNC` symbols keep their extent; `STT_NOTYPE` labels
/// and unsized `STT_FUNC` symbols outside every sized function (hand-written assembly
/// without `.size`) extend to the next such symbol or the end of the section. Assembler
/// locals (`.L*`) and mapping symbols (`$x`, `$d`) are never functions.
fn functions(
    file: &ElfFile32<LittleEndian>,
    sections: &BTreeMap<SectionId, CodeSection>,
) -> Vec<Function> {
    let mut sized: BTreeMap<(SectionId, u64), Function> = BTreeMap::new();
    let mut labels: BTreeMap<(SectionId, u64), Vec<(String, Binding)>> = BTreeMap::new();
    for sym in file.symbols() {
        let Some(section) = sym.section_index().map(|i| i.0) else {
            continue;
        };
        if !sections.contains_key(&section) || sym.is_undefined() {
            continue;
        }
        let Ok(name) = sym.name() else { continue };
        if name.is_empty() || name.starts_with(".L") || name.starts_with('$') {
            continue;
        }
        let entry = (name.to_string(), binding(&sym));
        match sym.kind() {
            SymbolKind::Text if sym.size() > 0 => {
                let f = sized.entry((section, sym.address())).or_insert(Function {
                    names: Vec::new(),
                    section,
                    start: sym.address(),
                    end: sym.address() + sym.size(),
                    sized: true,
                });
                f.end = f.end.max(sym.address() + sym.size());
                f.names.push(entry);
            }
            SymbolKind::Text | SymbolKind::Unknown => {
                labels
                    .entry((section, sym.address()))
                    .or_default()
                    .push(entry);
            }
            _ => {}
        }
    }
    let inside_sized = |section: SectionId, at: u64| {
        sized
            .values()
            .any(|f| f.section == section && f.start <= at && at < f.end)
    };
    labels.retain(|&(section, at), _| !inside_sized(section, at));
    let boundaries: BTreeSet<(SectionId, u64)> =
        sized.keys().chain(labels.keys()).copied().collect();
    let mut out: Vec<Function> = sized.into_values().collect();
    for ((section, start), names) in labels {
        let code = &sections[&section];
        let section_end = code.address + code.data.len() as u64;
        let end = boundaries
            .range((section, start + 1)..(section, u64::MAX))
            .next()
            .map_or(section_end, |&(_, next)| next.min(section_end));
        out.push(Function {
            names,
            section,
            start,
            end,
            sized: false,
        });
    }
    out.sort_by_key(|f| (f.section, f.start));
    out
}

/// Relocations on code sections (call and jump targets) and the `R_RISCV_32` (absolute) and
/// `R_RISCV_ADD32` (label differences) relocations in allocated data pointing into code
/// (jump tables).
fn read_relocations(file: &ElfFile32<LittleEndian>, unit: &mut Unit) {
    for section in file.sections() {
        let index = section.index().0;
        let is_code = unit.sections.contains_key(&index);
        let is_data = matches!(
            section.kind(),
            SectionKind::Data
                | SectionKind::ReadOnlyData
                | SectionKind::ReadOnlyDataWithRel
                | SectionKind::ReadOnlyString
        ) && section.name().is_ok_and(|n| n != ".eh_frame");
        if !is_code && !is_data {
            continue;
        }
        for (offset, reloc) in section.relocations() {
            let RelocationFlags::Elf { r_type } = reloc.flags() else {
                continue;
            };
            let target = reloc_target(file, reloc.target(), reloc.addend());
            if is_code {
                unit.relocs.entry((index, offset)).or_default().push(Reloc {
                    r_type: r_type.0,
                    target,
                });
            } else if r_type == elf::R_RISCV_32 || r_type == elf::R_RISCV_ADD32 {
                if let RelocTarget::Local { section, address } = target {
                    if unit.sections.contains_key(&section) {
                        unit.data_refs.entry(section).or_default().insert(address);
                    }
                }
            }
        }
    }
}

fn reloc_target(
    file: &ElfFile32<LittleEndian>,
    target: RelocationTarget,
    addend: i64,
) -> RelocTarget {
    let at = |base: u64| base.wrapping_add(addend as u64) & 0xffff_ffff;
    match target {
        RelocationTarget::Section(s) => RelocTarget::Local {
            section: s.0,
            address: at(0),
        },
        RelocationTarget::Symbol(i) => {
            let Ok(sym) = file.symbol_by_index(i) else {
                return RelocTarget::Other;
            };
            let name = sym.name().unwrap_or("");
            if sym.is_undefined() {
                return RelocTarget::Named(name.to_string());
            }
            let Some(section) = sym.section_index().map(|s| s.0) else {
                return RelocTarget::Other;
            };
            if sym.kind() == SymbolKind::Section || sym.is_local() || addend != 0 {
                RelocTarget::Local {
                    section,
                    address: at(sym.address()),
                }
            } else {
                RelocTarget::Named(name.to_string())
            }
        }
        _ => RelocTarget::Other,
    }
}
