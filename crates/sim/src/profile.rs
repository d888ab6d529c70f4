//! Machine profiles: clock, memory regions and the per-class cycle and energy tables, read from
//! TOML (`docs/profiles.md` documents every key). A [`Profile`] that exists has been validated:
//! nonzero clocks, non-empty, non-overlapping regions that stay clear of the fixed device
//! windows, and access strings made of `r`, `w`, `x`.

use crate::cost::{CostClass, COST_CLASSES};
use crate::error::ProfileError;
use crate::ext::spec::{CacheSpec, CarouselSpec, DmaSpec, ExtSpecs, ExternalSpec};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The built-in default profile (embedded `profiles/mcu.toml`).
const MCU_TOML: &str = include_str!("../../../profiles/mcu.toml");
/// The built-in "ideal" profile: every instruction one cycle (embedded `profiles/ideal.toml`).
const IDEAL_TOML: &str = include_str!("../../../profiles/ideal.toml");
/// The Carousel paper's prototype: external RAM behind a 49/4/64 bus, Carousel (n = 16,
/// x = 7), an OS scratchpad and DMA (embedded `profiles/carousel-paper.toml`).
const CAROUSEL_PAPER_TOML: &str = include_str!("../../../profiles/carousel-paper.toml");
/// The paper's cache machine, write-through (embedded `profiles/cache-wt.toml`).
const CACHE_WT_TOML: &str = include_str!("../../../profiles/cache-wt.toml");
/// The Carousel prototype without its tag unit: a plain 2 KiB scratchpad for the software-only
/// overlay variant (embedded `profiles/overlay-paper.toml`).
const OVERLAY_PAPER_TOML: &str = include_str!("../../../profiles/overlay-paper.toml");
/// The cache machine, write-back (embedded `profiles/cache-wb.toml`).
const CACHE_WB_TOML: &str = include_str!("../../../profiles/cache-wb.toml");

/// What a misaligned (non-AMO) load or store does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Misaligned {
    /// Performed in "hardware", like QEMU (byte by byte, same cost as an aligned access).
    Emulate,
    /// Raises load (4) or store/AMO (6) address-misaligned.
    Trap,
}

/// One memory region of the machine (RAM, flash, SRAM...).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MemoryRegion {
    /// Name used in statistics.
    pub name: String,
    /// First address.
    pub base: u32,
    /// Size in bytes (nonzero; base + size fits in 33 bits).
    pub size: u32,
    /// Permissions: a subset of "rwx".
    pub access: String,
    /// Extra cycles per data access (added to the load/store class cycles).
    #[serde(default)]
    pub latency: u32,
    /// Energy per data access in pJ (added to the instruction's class energy).
    #[serde(default)]
    pub energy: f64,
}

impl MemoryRegion {
    /// True if `access` contains `c`.
    pub fn allows(&self, c: char) -> bool {
        self.access.contains(c)
    }
}

/// Cycles per instruction class.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct CycleTable {
    pub alu: u32,
    pub branch_taken: u32,
    pub branch_not_taken: u32,
    pub jump: u32,
    pub load: u32,
    pub store: u32,
    pub mul: u32,
    pub div: u32,
    pub csr: u32,
    pub amo: u32,
    pub fence: u32,
    pub system: u32,
    pub trap_entry: u32,
    pub mret: u32,
}

/// Energy per instruction class in pJ.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct EnergyTable {
    pub alu: f64,
    pub branch_taken: f64,
    pub branch_not_taken: f64,
    pub jump: f64,
    pub load: f64,
    pub store: f64,
    pub mul: f64,
    pub div: f64,
    pub csr: f64,
    pub amo: f64,
    pub fence: f64,
    pub system: f64,
    pub trap_entry: f64,
    pub mret: f64,
}

macro_rules! by_class {
    ($t:expr, $class:expr) => {
        match $class {
            CostClass::Alu => $t.alu,
            CostClass::BranchTaken => $t.branch_taken,
            CostClass::BranchNotTaken => $t.branch_not_taken,
            CostClass::Jump => $t.jump,
            CostClass::Load => $t.load,
            CostClass::Store => $t.store,
            CostClass::Mul => $t.mul,
            CostClass::Div => $t.div,
            CostClass::Csr => $t.csr,
            CostClass::Amo => $t.amo,
            CostClass::Fence => $t.fence,
            CostClass::System => $t.system,
            CostClass::TrapEntry => $t.trap_entry,
            CostClass::Mret => $t.mret,
            CostClass::Trace => Default::default(),
        }
    };
}

impl CycleTable {
    /// Cycles of one instruction of `class` (trace-device accesses cost 0).
    pub fn get(&self, class: CostClass) -> u32 {
        by_class!(self, class)
    }
}

impl EnergyTable {
    /// Energy in pJ of one instruction of `class` (trace-device accesses cost 0).
    pub fn get(&self, class: CostClass) -> f64 {
        by_class!(self, class)
    }
}

/// A validated machine profile.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    name: String,
    #[serde(default)]
    description: String,
    clock_hz: u64,
    timebase_hz: u64,
    #[serde(default = "default_misaligned")]
    misaligned: Misaligned,
    memory: Vec<MemoryRegion>,
    cycles: CycleTable,
    energy: EnergyTable,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    external: Option<ExternalSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    carousel: Option<CarouselSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dma: Option<DmaSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cache: Option<CacheSpec>,
}

fn default_misaligned() -> Misaligned {
    Misaligned::Emulate
}

/// Fixed device windows (base, size, name) a memory region must not overlap (the last one is
/// the stack-window extension's aperture, `hart/stackwin.rs`, which must never be memory).
pub(crate) const DEVICE_WINDOWS: [(u32, u32, &str); 5] = [
    (0x0010_0000, 0x1000, "test finisher"),
    (0x0200_0000, 0x1_0000, "CLINT"),
    (0x0E00_0000, 0x1000, "trace device"),
    (0x1000_0000, 0x100, "UART"),
    (
        crate::hart::stackwin::STACK_WINDOW_BASE,
        crate::hart::stackwin::STACK_WINDOW_END - crate::hart::stackwin::STACK_WINDOW_BASE,
        "stack-window aperture",
    ),
];

impl Profile {
    /// The documented default profile ("mcu"), modelled on a simple in-order MCU core.
    pub fn default_mcu() -> Profile {
        Profile::from_toml(MCU_TOML, "<builtin mcu>").expect("builtin mcu profile is valid")
    }

    /// Built-in profiles by name ("mcu", "ideal", "carousel-paper", "overlay-paper", "cache-wt",
    /// "cache-wb");
    /// None if unknown.
    pub fn builtin(name: &str) -> Option<Profile> {
        let (text, origin) = match name {
            "mcu" => (MCU_TOML, "<builtin mcu>"),
            "ideal" => (IDEAL_TOML, "<builtin ideal>"),
            "carousel-paper" => (CAROUSEL_PAPER_TOML, "<builtin carousel-paper>"),
            "overlay-paper" => (OVERLAY_PAPER_TOML, "<builtin overlay-paper>"),
            "cache-wt" => (CACHE_WT_TOML, "<builtin cache-wt>"),
            "cache-wb" => (CACHE_WB_TOML, "<builtin cache-wb>"),
            _ => return None,
        };
        Some(Profile::from_toml(text, origin).expect("builtin profiles are valid"))
    }

    /// Names of the built-in profiles, in a fixed order.
    pub fn builtin_names() -> &'static [&'static str] {
        &[
            "mcu",
            "ideal",
            "carousel-paper",
            "overlay-paper",
            "cache-wt",
            "cache-wb",
        ]
    }

    /// Parses a profile; `origin` (file path) is named in every error, with the key path.
    pub fn from_toml(text: &str, origin: &str) -> Result<Profile, ProfileError> {
        let de = toml::Deserializer::new(text);
        let profile: Profile = serde_path_to_error::deserialize(de).map_err(|e| {
            let key = e.path().to_string();
            let inner = e.into_inner();
            let line = inner
                .span()
                .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
            ProfileError::Parse {
                origin: origin.to_string(),
                key: if key == "." { String::new() } else { key },
                line,
                message: inner.message().to_string(),
            }
        })?;
        profile.validate(origin)?;
        Ok(profile)
    }

    /// Reads and parses a profile file.
    pub fn load(path: &Path) -> Result<Profile, ProfileError> {
        let text = std::fs::read_to_string(path).map_err(|error| ProfileError::Io {
            path: path.display().to_string(),
            error,
        })?;
        Profile::from_toml(&text, &path.display().to_string())
    }

    fn validate(&self, origin: &str) -> Result<(), ProfileError> {
        let bad = |key: String, message: String| ProfileError::Invalid {
            origin: origin.to_string(),
            key,
            message,
        };
        if self.clock_hz == 0 {
            return Err(bad("clock_hz".into(), "must be greater than 0".into()));
        }
        if self.timebase_hz == 0 {
            return Err(bad("timebase_hz".into(), "must be greater than 0".into()));
        }
        if self.memory.is_empty() {
            return Err(bad(
                "memory".into(),
                "at least one [[memory]] region is needed".into(),
            ));
        }
        for (i, r) in self.memory.iter().enumerate() {
            let key = |k: &str| format!("memory[{i}].{k}");
            if r.size == 0 {
                return Err(bad(key("size"), "must be greater than 0".into()));
            }
            if u64::from(r.base) + u64::from(r.size) > 1 << 32 {
                return Err(bad(
                    key("size"),
                    "region extends past the 4 GiB address space".into(),
                ));
            }
            if r.access.is_empty() || r.access.chars().any(|c| !"rwx".contains(c)) {
                return Err(bad(
                    key("access"),
                    format!("{:?} is not a non-empty subset of \"rwx\"", r.access),
                ));
            }
            if !r.energy.is_finite() || r.energy < 0.0 {
                return Err(bad(key("energy"), "must be a finite number >= 0".into()));
            }
            for (dbase, dsize, dname) in DEVICE_WINDOWS.iter().filter(|d| d.1 > 0) {
                if overlaps(r.base, r.size, *dbase, *dsize) {
                    return Err(bad(
                        key("base"),
                        format!(
                            "region {:?} overlaps the {dname} window at {dbase:#010x}",
                            r.name
                        ),
                    ));
                }
            }
            for (j, o) in self.memory.iter().enumerate().take(i) {
                if overlaps(r.base, r.size, o.base, o.size) {
                    return Err(bad(
                        key("base"),
                        format!("region {:?} overlaps memory[{j}] ({:?})", r.name, o.name),
                    ));
                }
            }
        }
        let regions: Vec<(String, u32, u32)> = self
            .memory
            .iter()
            .map(|r| (r.name.clone(), r.base, r.size))
            .collect();
        let mut devices = DEVICE_WINDOWS.to_vec();
        devices.push((
            crate::devices::plic::PLIC_BASE,
            crate::devices::plic::PLIC_SIZE,
            "PLIC",
        ));
        crate::ext::spec::check(&self.ext_specs(), &regions, &devices)
            .map_err(|(key, message)| bad(key, message))?;
        for class in COST_CLASSES {
            let e = self.energy.get(class);
            if !e.is_finite() || e < 0.0 {
                return Err(bad(
                    format!("energy.{}", class.key()),
                    "must be a finite number >= 0".into(),
                ));
            }
        }
        Ok(())
    }

    /// The profile's name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// One-line description.
    pub fn description(&self) -> &str {
        &self.description
    }
    /// Core clock in Hz (cycles per simulated second).
    pub fn clock_hz(&self) -> u64 {
        self.clock_hz
    }
    /// CLINT `mtime` frequency in Hz.
    pub fn timebase_hz(&self) -> u64 {
        self.timebase_hz
    }
    /// Misaligned-access policy.
    pub fn misaligned(&self) -> Misaligned {
        self.misaligned
    }
    /// Memory regions, in file order (region 0 gets the fast path).
    pub fn memory(&self) -> &[MemoryRegion] {
        &self.memory
    }
    /// Cycles per class.
    pub fn cycles(&self) -> &CycleTable {
        &self.cycles
    }
    /// Energy per class (pJ).
    pub fn energy(&self) -> &EnergyTable {
        &self.energy
    }
    /// `[external]`: the external RAM bus, if configured (then the machine runs in
    /// memory-system mode, docs/simulator-design.md).
    pub fn external(&self) -> Option<&ExternalSpec> {
        self.external.as_ref()
    }
    /// `[carousel]`, if configured.
    pub fn carousel(&self) -> Option<&CarouselSpec> {
        self.carousel.as_ref()
    }
    /// `[dma]`, if configured.
    pub fn dma(&self) -> Option<&DmaSpec> {
        self.dma.as_ref()
    }
    /// `[cache]`, if configured.
    pub fn cache(&self) -> Option<&CacheSpec> {
        self.cache.as_ref()
    }
    pub(crate) fn ext_specs(&self) -> ExtSpecs<'_> {
        ExtSpecs {
            external: self.external.as_ref(),
            carousel: self.carousel.as_ref(),
            dma: self.dma.as_ref(),
            cache: self.cache.as_ref(),
        }
    }
    /// Replaces the misaligned policy (for tests and command-line overrides).
    pub fn set_misaligned(&mut self, policy: Misaligned) {
        self.misaligned = policy;
    }
}

fn overlaps(a: u32, asize: u32, b: u32, bsize: u32) -> bool {
    let (a, ae) = (u64::from(a), u64::from(a) + u64::from(asize));
    let (b, be) = (u64::from(b), u64::from(b) + u64::from(bsize));
    a < be && b < ae
}
