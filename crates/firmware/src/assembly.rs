//! A firmware as GCC assembly, for the static stack analysis: every C unit of its build
//! compiled with that build's own flags plus `-fno-lto -S` (the build itself uses LTO, whose
//! objects hold no machine code).

use crate::compile_units::{stem, units};
use crate::driver::write_glue;
use crate::error::BuildError;
use crate::kernel_units::kernel_units;
use crate::manifest::Manifest;
use crate::toolchain::Toolchain;
use std::path::{Path, PathBuf};

/// Writes the generated glue into `dir` and compiles every unit of [`units`] to GCC assembly
/// in `dir` with the firmware's own flags ([`Toolchain::compile_asm`]), then every C source of
/// the firmware's kernel library with its Makefile's flags ([`kernel_units`]), each with the
/// `cactus cc` build's `-fno-ipa-ra` when `kernel.checks` is not `none`; returns the
/// `.s` files in that order (the kernel's `.S` sources are not among them).
pub fn assembly(
    m: &Manifest,
    root: &Path,
    tc: &Toolchain,
    dir: &Path,
) -> Result<Vec<PathBuf>, BuildError> {
    write_glue(m, dir)?;
    let mut files = Vec::new();
    // The `cactus cc` build path adds this flag to every unit (cc_build.rs): it changes which
    // registers callees save, so frames too.
    let checked = |flags: &[String]| {
        let mut flags = flags.to_vec();
        if m.kernel.checks != cactus_cc::CheckMode::None {
            flags.push(cactus_cc::NO_IPA_RA.to_string());
        }
        flags
    };
    for (i, u) in units(m, root, dir).iter().enumerate() {
        let asm = dir.join(format!("{i:02}-{}.s", stem(&u.source)));
        tc.compile_asm(&u.source, &asm, &checked(&u.flags))?;
        files.push(asm);
    }
    let k = &m.kernel;
    let kernel = kernel_units(
        tc,
        root,
        k.stack,
        k.target,
        &m.kernel_defines(),
        !m.interrupts.is_empty(),
    )?;
    for (i, u) in kernel.iter().enumerate() {
        let asm = dir.join(format!("kernel-{i:02}-{}.s", stem(&u.source)));
        tc.compile_asm_with(&u.source, &asm, &checked(&u.flags))?;
        files.push(asm);
    }
    Ok(files)
}
