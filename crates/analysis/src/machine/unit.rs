//! What the machine-code analysis knows of one object file (a relocatable object, one member
//! of a static archive, or a linked ELF): its code sections, the functions in them, the
//! relocations that name call and jump targets, the addresses data refers to (jump tables)
//! and the stack-depth annotations it carries.

use std::collections::{BTreeMap, BTreeSet, HashMap};

/// ELF section index (as in the file).
pub type SectionId = usize;

/// One executable section's bytes.
#[derive(Clone, Debug)]
pub struct CodeSection {
    /// Address of the first byte (0 in a relocatable object).
    pub address: u64,
    /// The bytes.
    pub data: Vec<u8>,
}

/// How a name is bound, as the linker sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// Visible only inside its object.
    Local,
    /// Global, strong.
    Global,
    /// Global, weak: a strong definition elsewhere wins.
    Weak,
}

/// One function: a code range entered at its start.
#[derive(Clone, Debug)]
pub struct Function {
    /// Every symbol naming the start (aliases), with its binding.
    pub names: Vec<(String, Binding)>,
    /// The section holding it.
    pub section: SectionId,
    /// First byte (section-relative address space of [`CodeSection::address`]).
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
    /// True when the extent comes from an ELF symbol size (compiler output); false when it
    /// was inferred as "up to the next symbol" (hand-written assembly without `.size`).
    pub sized: bool,
}

impl Function {
    /// The first name (for messages).
    pub fn name(&self) -> &str {
        self.names.first().map(|(n, _)| n.as_str()).unwrap_or("?")
    }
}

/// Where a relocation points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RelocTarget {
    /// A global or undefined symbol, resolved by name across the whole program.
    Named(String),
    /// An address inside this object (local symbol or section symbol plus addend).
    Local {
        /// Section of the target.
        section: SectionId,
        /// Address within that section's address space.
        address: u64,
    },
    /// Something the analysis cannot use as a code address (absolute, data, ...).
    Other,
}

/// One relocation applied to code.
#[derive(Clone, Debug)]
pub struct Reloc {
    /// `r_type` (`R_RISCV_*`).
    pub r_type: u32,
    /// Its target.
    pub target: RelocTarget,
}

/// One analysed object file.
#[derive(Clone, Debug, Default)]
pub struct Unit {
    /// Where it came from: `path` or `archive.a(member.o)`.
    pub origin: String,
    /// True for a linked ELF: targets come from addresses, not relocations.
    pub linked: bool,
    /// Executable sections by index.
    pub sections: BTreeMap<SectionId, CodeSection>,
    /// Functions, sorted by (section, start).
    pub functions: Vec<Function>,
    /// Relocations on code, by (section, offset of the relocated instruction).
    pub relocs: HashMap<(SectionId, u64), Vec<Reloc>>,
    /// Code addresses stored in allocated data (jump tables, computed-goto labels).
    pub data_refs: BTreeMap<SectionId, BTreeSet<u64>>,
    /// `.cactus.stack_depth` entries: function name and its declared depth in bytes.
    pub annotations: Vec<(String, u32)>,
}

impl Unit {
    /// The function starting exactly at `address` in `section`.
    pub fn function_at(&self, section: SectionId, address: u64) -> Option<usize> {
        self.functions
            .iter()
            .position(|f| f.section == section && f.start == address)
    }

    /// The function whose range holds `address` in `section` (the latest start wins when
    /// ranges overlap, as they do for entry points sharing a tail).
    pub fn function_containing(&self, section: SectionId, address: u64) -> Option<usize> {
        self.functions
            .iter()
            .enumerate()
            .filter(|(_, f)| f.section == section && f.start <= address && address < f.end)
            .max_by_key(|(_, f)| f.start)
            .map(|(i, _)| i)
    }

    /// The executable section whose address range holds `address` (linked ELFs).
    pub fn section_of(&self, address: u64) -> Option<SectionId> {
        self.sections
            .iter()
            .find(|(_, s)| s.address <= address && address < s.address + s.data.len() as u64)
            .map(|(&id, _)| id)
    }

    /// The relocations at `offset` of `section`.
    pub fn relocs_at(&self, section: SectionId, offset: u64) -> &[Reloc] {
        self.relocs
            .get(&(section, offset))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }
}
