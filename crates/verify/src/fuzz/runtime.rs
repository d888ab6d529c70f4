//! The tiny runtime every fuzz program is linked with (`crates/verify/fuzz-runtime/`): start-up
//! code with the patchable configuration block, trap reports, printf and the few libc
//! functions csmith programs need, and the linker script.

use crate::fuzz::error::{io_at, FuzzError};
use crate::toolchain::{GCC, GCC_PACKAGE};
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

/// `crt0.S`: `_start`, the configuration block at [`CONFIG_ADDR`], the trap entry.
pub const CRT0_S: &str = include_str!("../../fuzz-runtime/crt0.S");
/// `fuzz_rt.c`: start and exit, trap reports, printf; includes [`STRING_C`].
pub const FUZZ_RT_C: &str = include_str!("../../fuzz-runtime/fuzz_rt.c");
/// `string.c`: the kernel's memcpy & co. (kernel/lib/string.c), included by fuzz_rt.c.
pub const STRING_C: &str = include_str!("../../../../kernel/lib/string.c");
/// `isolate.S`: the windows and slow path of `--isolate` code, included by [`CRT0_S`].
pub const ISOLATE_S: &str = include_str!("../../fuzz-runtime/isolate.S");
/// `lstack.S`: the slow path of `--logical-stack` code, included by [`CRT0_S`].
pub const LSTACK_S: &str = include_str!("../../fuzz-runtime/lstack.S");
/// `link.ld`: memory map and stacks.
pub const LINK_LD: &str = include_str!("../../fuzz-runtime/link.ld");

/// Address of the configuration block (`fuzz_config` in crt0.S).
pub const CONFIG_ADDR: u32 = 0x8000_0008;
/// First word of the configuration block ("FUZZ").
pub const CONFIG_MAGIC: u32 = 0x5A5A_5546;
/// Configuration flag: report the stack region and high water through the trace device.
pub const FLAG_TRACE: u32 = 1;
/// Exit code of a program whose stack check failed (the report is on the UART).
pub const EXIT_OVERFLOW: u32 = 91;
/// Exit code of a program that took any other trap.
pub const EXIT_TRAP: u32 = 92;
/// Bytes of the program stack (`STACK_SIZE` in link.ld).
pub const STACK_SIZE: u32 = 64 * 1024;

/// Flags for compiling C to assembly (both the program and the runtime).
pub const COMPILE_FLAGS: &[&str] = &["-march=rv32imac_zicsr_zifencei", "-mabi=ilp32"];
/// Extra flags for the runtime's C.
pub const RUNTIME_FLAGS: &[&str] = &[
    "-O2",
    "-ffreestanding",
    "-fno-builtin",
    "-fno-tree-loop-distribute-patterns",
    "-Wall",
    "-Wextra",
    "-Werror",
];

/// Writes crt0.S (with the preempt-traps entry it includes, cactus cc's `preempt.S`, the
/// isolate pass's `isolate.S` and the logical-stack pass's `lstack.S`), fuzz_rt.c, string.c and link.ld into `dir`.
pub fn write_sources(dir: &Path) -> Result<(), FuzzError> {
    for (name, text) in [
        ("crt0.S", CRT0_S),
        ("preempt.S", cactus_cc::driver::runtime::PREEMPT_S),
        ("isolate.S", ISOLATE_S),
        ("lstack.S", LSTACK_S),
        ("fuzz_rt.c", FUZZ_RT_C),
        ("string.c", STRING_C),
        ("link.ld", LINK_LD),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(io_at(&path))?;
    }
    Ok(())
}

/// The runtime's assembly (`gcc -S` of fuzz_rt.c with [`RUNTIME_FLAGS`]), compiled once per
/// process.
pub fn runtime_asm() -> Result<String, FuzzError> {
    static ASM: OnceLock<Result<String, String>> = OnceLock::new();
    let cached = ASM.get_or_init(|| compile_runtime().map_err(|e| e.to_string()));
    match cached {
        Ok(text) => Ok(text.clone()),
        Err(message) => Err(FuzzError::Tool {
            tool: GCC,
            path: "fuzz_rt.c".into(),
            stderr: message.clone(),
        }),
    }
}

fn compile_runtime() -> Result<String, FuzzError> {
    let dir = tempfile::tempdir().map_err(io_at(&std::env::temp_dir()))?;
    let src = dir.path().join("fuzz_rt.c");
    let out = dir.path().join("fuzz_rt.s");
    std::fs::write(&src, FUZZ_RT_C).map_err(io_at(&src))?;
    let string = dir.path().join("string.c");
    std::fs::write(&string, STRING_C).map_err(io_at(&string))?;
    let mut cmd = Command::new(GCC);
    cmd.args(COMPILE_FLAGS)
        .args(RUNTIME_FLAGS)
        .arg(cactus_cc::NO_IPA_RA)
        .arg("-S")
        .arg(&src)
        .arg("-o")
        .arg(&out);
    if let Err(stderr) = run_tool(cmd, GCC, GCC_PACKAGE)? {
        return Err(FuzzError::Tool {
            tool: GCC,
            path: src,
            stderr,
        });
    }
    std::fs::read_to_string(&out).map_err(io_at(&out))
}

/// Runs `cmd`: `Err` if the tool cannot be started, `Ok(Err(stderr))` if it failed.
pub(crate) fn run_tool(
    mut cmd: Command,
    tool: &'static str,
    package: &'static str,
) -> Result<Result<(), String>, FuzzError> {
    let output = cmd.output().map_err(|error| match error.kind() {
        std::io::ErrorKind::NotFound => FuzzError::NotInstalled { tool, package },
        _ => FuzzError::Io {
            path: tool.into(),
            error,
        },
    })?;
    if output.status.success() {
        Ok(Ok(()))
    } else {
        Ok(Err(String::from_utf8_lossy(&output.stderr).into_owned()))
    }
}
