//! ELF loading: checks the header by hand (so each kind of wrong file gets its own error),
//! then reads program headers and symbols with the `object` crate. All segments are checked
//! before any byte is written.

use crate::error::LoadError;
use crate::memory::Memory;
use object::elf::{FileHeader32, PT_LOAD};
use object::read::elf::{FileHeader, ProgramHeader};
use object::{LittleEndian, Object, ObjectSymbol};
use serde::Serialize;

/// ELF machine number of RISC-V.
const EM_RISCV: u16 = 243;
/// ELF type of an executable.
const ET_EXEC: u16 = 2;

/// What was loaded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ElfInfo {
    /// Entry point (initial pc).
    pub entry: u32,
    /// Address of the `tohost` symbol, if defined.
    pub tohost: Option<u32>,
    /// Loaded segments: (physical address, memory size).
    pub segments: Vec<(u32, u32)>,
}

/// Checks the ELF identification and header fields the machine depends on.
fn check_header(bytes: &[u8]) -> Result<(), LoadError> {
    if bytes.len() < 4 || &bytes[..4] != b"\x7fELF" {
        return Err(LoadError::NotElf);
    }
    if bytes.len() < 52 {
        return Err(LoadError::Malformed(format!(
            "file too short ({} bytes) for an ELF32 header",
            bytes.len()
        )));
    }
    if bytes[4] != 1 {
        return Err(LoadError::WrongClass(bytes[4]));
    }
    match bytes[5] {
        1 => {}
        2 => return Err(LoadError::BigEndian),
        d => return Err(LoadError::Malformed(format!("unknown data encoding {d}"))),
    }
    let e_type = u16::from_le_bytes([bytes[16], bytes[17]]);
    let e_machine = u16::from_le_bytes([bytes[18], bytes[19]]);
    if e_machine != EM_RISCV {
        return Err(LoadError::WrongMachine(e_machine));
    }
    if e_type != ET_EXEC {
        return Err(LoadError::NotExecutable(e_type));
    }
    Ok(())
}

/// Parses `bytes` and copies its PT_LOAD segments into `mem` (zero-filling bss).
pub(crate) fn load_elf(mem: &mut Memory, bytes: &[u8]) -> Result<ElfInfo, LoadError> {
    check_header(bytes)?;
    let malformed = |e: object::Error| LoadError::Malformed(e.to_string());
    let header = FileHeader32::<LittleEndian>::parse(bytes).map_err(malformed)?;
    let endian = header.endian().map_err(malformed)?;
    let phdrs = header.program_headers(endian, bytes).map_err(malformed)?;
    let mut plan = Vec::new();
    for ph in phdrs {
        if ph.p_type(endian) != PT_LOAD || ph.p_memsz(endian) == 0 {
            continue;
        }
        let addr = ph.p_paddr(endian);
        let memsz = ph.p_memsz(endian);
        let filesz = ph.p_filesz(endian);
        if filesz > memsz {
            return Err(LoadError::Malformed(format!(
                "segment at {addr:#010x}: file size {filesz} exceeds memory size {memsz}"
            )));
        }
        let data = ph.data(endian, bytes).map_err(|()| {
            LoadError::Malformed(format!("segment at {addr:#010x}: data outside the file"))
        })?;
        let (region, off) = mem
            .find(addr, memsz)
            .ok_or(LoadError::SegmentOutsideMemory {
                vaddr: ph.p_vaddr(endian),
                size: memsz,
            })?;
        plan.push((region, off, data, memsz as usize, addr));
    }
    if plan.is_empty() {
        return Err(LoadError::Malformed("no loadable segment".to_string()));
    }
    for &(region, off, data, memsz, _) in &plan {
        let r = mem.region_mut(region);
        r.data[off..off + data.len()].copy_from_slice(data);
        r.data[off + data.len()..off + memsz].fill(0);
    }
    let file = object::read::elf::ElfFile32::<LittleEndian>::parse(bytes).map_err(malformed)?;
    let tohost = file
        .symbols()
        .find(|s| s.name() == Ok("tohost"))
        .map(|s| s.address() as u32);
    Ok(ElfInfo {
        entry: header.e_entry(endian),
        tohost,
        segments: plan.iter().map(|p| (p.4, p.3 as u32)).collect(),
    })
}
