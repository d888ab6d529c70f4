//! One function's code as the stack walk reads it: instructions decoded from the section
//! bytes ([`cactus_isa::decode`], 16- and 32-bit forms), and where a jump, branch or call
//! goes: inside the function, to another function (through a relocation in an object, by
//! address in a linked ELF), or nowhere usable (an error naming the place).

use super::unit::{Function, RelocTarget, SectionId, Unit};
use cactus_isa::{decode, Inst};

/// A callee named by a relocation or found at an address.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    /// A global or undefined symbol: resolved by name across the program.
    Named(String),
    /// A function of the same unit, by index.
    Local(usize),
}

/// Where a jump or call goes.
pub enum Dest {
    /// An address inside the function being walked.
    Intra(u64),
    /// The entry of a function.
    Callee(Callee),
}

/// A function of a unit, for decoding and resolving targets.
pub struct Code<'u> {
    /// The unit holding it.
    pub unit: &'u Unit,
    /// The function.
    pub f: &'u Function,
}

impl Code<'_> {
    /// `name+0xOFF` of `pc`, for messages.
    pub fn at(&self, pc: u64) -> String {
        format!("{}+{:#x}", self.f.name(), pc - self.f.start)
    }

    /// The instruction at `pc` and its length, or why the bytes there do not decode.
    pub fn decode_at(&self, pc: u64) -> Result<(Inst, u64), String> {
        let code = &self.unit.sections[&self.f.section];
        let off = (pc - code.address) as usize;
        let bytes = code.data.get(off..).unwrap_or(&[]);
        let undecodable = |why: &str| format!("undecodable bytes at {}: {why}", self.at(pc));
        if bytes.len() < 2 {
            return Err(undecodable("end of section"));
        }
        let low = u32::from(u16::from_le_bytes([bytes[0], bytes[1]]));
        let raw = if low & 3 == 3 {
            if bytes.len() < 4 {
                return Err(undecodable(
                    "a 32-bit instruction cut by the end of section",
                ));
            }
            u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
        } else {
            low
        };
        let d = decode(raw).map_err(|e| undecodable(&e.to_string()))?;
        Ok((d.inst, u64::from(d.len)))
    }

    /// The destination named by a relocation of one of `types` at `pc`, if there is one.
    pub fn reloc_dest(&self, pc: u64, types: &[u32]) -> Result<Option<Dest>, String> {
        let Some(r) = self
            .unit
            .relocs_at(self.f.section, pc)
            .iter()
            .find(|r| types.contains(&r.r_type))
        else {
            return Ok(None);
        };
        match &r.target {
            RelocTarget::Named(name) => Ok(Some(Dest::Callee(Callee::Named(name.clone())))),
            RelocTarget::Local { section, address } => {
                self.local_dest(pc, *section, *address).map(Some)
            }
            RelocTarget::Other => Err(format!(
                "jump through a relocation to a non-code target at {}",
                self.at(pc)
            )),
        }
    }

    /// The destination of a direct jump/branch/`jal` at `pc` with offset `imm`.
    pub fn dest(&self, pc: u64, imm: i32, types: &[u32]) -> Result<Dest, String> {
        if let Some(d) = self.reloc_dest(pc, types)? {
            return Ok(d);
        }
        self.address_dest(pc, pc.wrapping_add(imm as i64 as u64) & 0xffff_ffff)
    }

    pub fn address_dest(&self, pc: u64, to: u64) -> Result<Dest, String> {
        let section = if self.unit.linked {
            self.unit.section_of(to)
        } else {
            Some(self.f.section)
        };
        match section {
            Some(s) => self.local_dest(pc, s, to),
            None => Err(format!(
                "jump to {to:#x}, outside the code, at {}",
                self.at(pc)
            )),
        }
    }

    pub fn local_dest(&self, pc: u64, section: SectionId, to: u64) -> Result<Dest, String> {
        if section == self.f.section && self.f.start <= to && to < self.f.end {
            return Ok(Dest::Intra(to));
        }
        if let Some(i) = self.unit.function_at(section, to) {
            return Ok(Dest::Callee(Callee::Local(i)));
        }
        match self.unit.function_containing(section, to) {
            Some(i) => Err(format!(
                "jump into the middle of {} at {}",
                self.unit.functions[i].name(),
                self.at(pc)
            )),
            None => Err(format!(
                "jump to {to:#x}, outside every function, at {}",
                self.at(pc)
            )),
        }
    }
}
