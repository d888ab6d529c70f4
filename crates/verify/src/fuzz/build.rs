//! Building one program in every variant: `gcc -S` once per optimization level, the
//! variant's pass over the program's and the runtime's assembly, then one `gcc` that
//! assembles and links them with crt0 and libgcc.
//!
//! Layout of a case directory: `prog.c`, the runtime sources, `O2.s` (the compiler's output
//! per level) and one directory per variant with `prog.s`, `fuzz_rt.s` (after the pass) and
//! `prog.elf`.

use crate::fuzz::csmith::CSMITH_INCLUDE;
use crate::fuzz::error::{io_at, FuzzError};
use crate::fuzz::runtime::{run_tool, runtime_asm, COMPILE_FLAGS};
use crate::fuzz::variant::{OptLevel, Variant};
use crate::toolchain::{GCC, GCC_PACKAGE};
use cactus_cc::Unit;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Compiles `dir/prog.c` at `opt` to `dir/<opt>.s` and returns its text, or
/// `Ok(Err(stderr))` if GCC rejected the program.
pub fn compile_program(dir: &Path, opt: OptLevel) -> Result<Result<String, String>, FuzzError> {
    let out = dir.join(format!("{opt}.s"));
    let mut cmd = Command::new(GCC);
    cmd.current_dir(dir)
        .args(COMPILE_FLAGS)
        .arg(opt.flag())
        // As every instrumented compilation (docs/stack-checks.md); the uninstrumented variant
        // shares this assembly, so all variants differ only by the pass.
        .arg(cactus_cc::NO_IPA_RA)
        .args(["-S", "-w", "--specs=picolibc.specs", "-I", CSMITH_INCLUDE])
        .arg("prog.c")
        .arg("-o")
        .arg(&out);
    if let Err(stderr) = run_tool(cmd, GCC, GCC_PACKAGE)? {
        return Ok(Err(stderr));
    }
    std::fs::read_to_string(&out).map(Ok).map_err(io_at(&out))
}

/// Applies `variant`'s pass to `program` (the compiler's assembly at the variant's level)
/// and the runtime, writes the results to `dir/<variant>/` and links `prog.elf` there.
/// `Ok(Err(why))` if the pass refused the assembly or the result does not assemble or link:
/// both are failures of the pass, not of the harness.
pub fn build_variant(
    dir: &Path,
    variant: &Variant,
    program: &str,
) -> Result<Result<PathBuf, String>, FuzzError> {
    let out = dir.join(variant.name());
    std::fs::create_dir_all(&out).map_err(io_at(&out))?;
    let units = [
        Unit {
            origin: "prog.s".into(),
            text: program.to_string(),
            library: false,
        },
        Unit {
            origin: "fuzz_rt.s".into(),
            text: runtime_asm()?,
            library: true,
        },
    ];
    let texts = match variant
        .pass
        .apply(&units, &crate::fuzz::variant::libgcc_reserves(&units))
    {
        Ok(texts) if texts.len() == units.len() => texts,
        Ok(texts) => {
            return Ok(Err(format!(
                "pass {} returned {} units for {}",
                variant.pass.name(),
                texts.len(),
                units.len()
            )))
        }
        Err(why) => return Ok(Err(format!("pass {} refused: {why}", variant.pass.name()))),
    };
    for (unit, text) in units.iter().zip(&texts) {
        let path = out.join(&unit.origin);
        std::fs::write(&path, text).map_err(io_at(&path))?;
    }
    let elf = out.join("prog.elf");
    let mut link = Command::new(GCC);
    link.current_dir(&out).args([
        "-march=rv32imac",
        "-mabi=ilp32",
        "-Wa,-march=rv32imac_zicsr_zifencei",
        "-nostdlib",
        "-nostartfiles",
        "-Wl,--no-warn-rwx-segments",
        "-T",
        "../link.ld",
        "../crt0.S",
        "prog.s",
        "fuzz_rt.s",
        "-lgcc",
        "-o",
        "prog.elf",
    ]);
    if let Err(stderr) = run_tool(link, GCC, GCC_PACKAGE)? {
        return Ok(Err(format!("assembling or linking failed:\n{stderr}")));
    }
    Ok(Ok(elf))
}
