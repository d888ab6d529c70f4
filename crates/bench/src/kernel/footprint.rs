//! Kernel footprint for `cactus bench kernel`: code and data bytes of the kernel library and of
//! a minimal firmware, read with `riscv64-unknown-elf-size -A` and grouped by section name.

use crate::kernel::{run_command, KernelBenchError};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The `size` tool of the RISC-V GNU toolchain.
pub const SIZE_TOOL: &str = "riscv64-unknown-elf-size";

/// Bytes by section group, summed over every member of an archive or every section of an ELF.
/// Sections outside these groups (debug, LTO bytecode, attributes, padding) are not counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sections {
    /// `.text*`, `.rodata*`, `.srodata*`: code and read-only data.
    pub code: u64,
    /// `.data*`, `.sdata*`: initialised writable data.
    pub data: u64,
    /// `.bss*`, `.sbss*`: zero-initialised data (kernel state, the TCB array, application
    /// variables).
    pub bss: u64,
    /// `.kstack`: the kernel (trap) stack.
    pub kernel_stack: u64,
    /// `.stack_pool`: the task stack pool of the `static` strategy.
    pub stack_pool: u64,
}

/// Groups the SysV-format lines of `size -A` output (`section size addr`; an archive repeats
/// the block per member).
pub fn parse_sysv(output: &str, path: &Path) -> Result<Sections, KernelBenchError> {
    let mut s = Sections::default();
    for line in output.lines() {
        let cols: Vec<&str> = line.split_whitespace().collect();
        // Section lines are `name size addr`; title lines (`file  :`) have fewer columns.
        let [name, size, _addr] = cols[..] else {
            continue;
        };
        if !name.starts_with('.') {
            continue;
        }
        let size: u64 = size.parse().map_err(|_| KernelBenchError::Size {
            path: path.to_path_buf(),
            line: line.to_string(),
        })?;
        let has = |prefixes: &[&str]| prefixes.iter().any(|p| name.starts_with(p));
        if has(&[".text", ".rodata", ".srodata"]) {
            s.code += size;
        } else if has(&[".data", ".sdata"]) {
            s.data += size;
        } else if has(&[".bss", ".sbss"]) {
            s.bss += size;
        } else if name == ".kstack" {
            s.kernel_stack += size;
        } else if name == ".stack_pool" {
            s.stack_pool += size;
        }
    }
    Ok(s)
}

/// Section groups of a static library (all members) or a linked ELF.
pub fn sections(root: &Path, file: &Path) -> Result<Sections, KernelBenchError> {
    let out = run_command(root, SIZE_TOOL, &["-A", &file.to_string_lossy()])?;
    parse_sysv(&out, file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elf_sections_are_grouped() {
        let out =
            "./min.elf  :\nsection       size         addr\n.text         5000   2147483648\n\
                   .rodata        300   2147488648\n.page_pad      796   2147488948\n\
                   .kstack       2048   2147491840\n.bss          6400   2147493888\n\
                   .stack_pool  49152   2147500288\n.debug_info   9999            0\n\
                   Total        72899\n";
        let s = parse_sysv(out, Path::new("min.elf")).unwrap();
        assert_eq!(
            s,
            Sections {
                code: 5300,
                data: 0,
                bss: 6400,
                kernel_stack: 2048,
                stack_pool: 49152
            }
        );
    }

    #[test]
    fn archive_members_are_summed() {
        let out = "a.o   (ex lib.a):\nsection  size  addr\n.text.f   100     0\n\
                   .sbss.x     8     0\n.gnu.lto_.decls.1 3710 0\n\n\
                   b.o   (ex lib.a):\nsection  size  addr\n.text.g    20     0\n\
                   .sdata.y    4     0\n.stack_pool 512 0\n";
        let s = parse_sysv(out, Path::new("lib.a")).unwrap();
        assert_eq!((s.code, s.data, s.bss, s.stack_pool), (120, 4, 8, 512));
    }

    #[test]
    fn a_bad_size_names_the_line() {
        let err = parse_sysv(".text x 0\n", Path::new("lib.a")).unwrap_err();
        assert!(err.to_string().contains("\".text x 0\""), "{err}");
    }
}
