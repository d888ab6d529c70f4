//! Kernel footprint for `cactus bench kernel`: code and data bytes of the kernel library and of
//! a minimal firmware, read with `riscv64-unknown-elf-size -A` and grouped by section name, and
//! the application's share of the firmware (its own functions and objects, read from its
//! object's symbol table and sized in the linked ELF), which the kernel figures leave out.

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

/// The `objdump` and `nm` tools of the RISC-V GNU toolchain.
pub const OBJDUMP_TOOL: &str = "riscv64-unknown-elf-objdump";
/// See [`OBJDUMP_TOOL`].
pub const NM_TOOL: &str = "riscv64-unknown-elf-nm";

/// The bytes of a linked firmware that belong to its application (not the kernel).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppShare {
    /// Its functions and read-only objects (symbol types t, T, r, R).
    pub code: u64,
    /// Its writable objects (d, D, b, B, and the small-data g, G, s, S).
    pub ram: u64,
}

/// The functions and objects an object file defines, from `objdump -t` output (lines flagged
/// `F` or `O`; objdump reads a fat LTO object's own symbol table, local symbols included,
/// where `nm` would show the LTO plugin's global ones only).
pub fn parse_defined(objdump_t: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in objdump_t.lines() {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let Some(flag_at) = cols.iter().position(|c| *c == "F" || *c == "O") else {
            continue;
        };
        // `value flags.. F section size name`: the name is last, after the section and size.
        if cols.len() == flag_at + 4 && !cols[flag_at + 1].starts_with('*') {
            names.push(cols[flag_at + 3].to_string());
        }
    }
    names
}

/// Sums the sizes of the symbols of `nm -S -P` output that are one of `names` or a compiler
/// clone of one (`name.constprop.0`, `name.lto_priv.0`, ...).
pub fn parse_share(nm_p: &str, names: &[String]) -> AppShare {
    let mut share = AppShare::default();
    for line in nm_p.lines() {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let [name, kind, _value, size] = cols[..] else {
            continue;
        };
        let ours = names.iter().any(|n| {
            name == n
                || name
                    .strip_prefix(n.as_str())
                    .is_some_and(|rest| rest.starts_with('.'))
        });
        let Ok(size) = u64::from_str_radix(size, 16) else {
            continue;
        };
        if !ours {
            continue;
        }
        match kind {
            "t" | "T" | "r" | "R" => share.code += size,
            "d" | "D" | "b" | "B" | "g" | "G" | "s" | "S" => share.ram += size,
            _ => {}
        }
    }
    share
}

/// The application's share of the linked firmware `elf`, whose application was compiled to
/// `app_object`.
pub fn app_share(root: &Path, app_object: &Path, elf: &Path) -> Result<AppShare, KernelBenchError> {
    let names = parse_defined(&run_command(
        root,
        OBJDUMP_TOOL,
        &["-t", &app_object.to_string_lossy()],
    )?);
    let nm = run_command(root, NM_TOOL, &["-S", "-P", &elf.to_string_lossy()])?;
    Ok(parse_share(&nm, &names))
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
    fn the_application_share_counts_its_symbols_and_their_clones() {
        let objdump = "obj/minimal.o:     file format elf32-littleriscv\n\nSYMBOL TABLE:\n\
            00000000 l    df *ABS*\t00000000 minimal.c\n\
            00000000 l     F .text.ticker\t00000020 ticker\n\
            00000000 l     O .sbss.wakeups\t00000004 wakeups\n\
            00000000 g     F .text.startup.main\t00000014 main\n\
            00000000         *UND*\t00000000 cactus_start\n";
        let names = parse_defined(objdump);
        assert_eq!(names, ["ticker", "wakeups", "main"]);
        let nm = "ticker.constprop.0 t 8000067e 00000026\nmain T 80001080 00000008\n\
                  wakeups b 80002484 00000004\nmainly T 80001090 00000010\n\
                  cactus_start t 800009fa 0000030a\n__bss_end B 800025c8 \n";
        assert_eq!(
            parse_share(nm, &names),
            AppShare {
                code: 0x26 + 8,
                ram: 4
            }
        );
    }

    #[test]
    fn a_bad_size_names_the_line() {
        let err = parse_sysv(".text x 0\n", Path::new("lib.a")).unwrap_err();
        assert!(err.to_string().contains("\".text x 0\""), "{err}");
    }
}
