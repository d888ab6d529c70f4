//! The linker script of a firmware: the kernel's `kernel/arch/rv32/link.ld`, or, with
//! `kernel.ram_kib`, the same script with a RAM region of that size (QEMU virt and
//! cactus-sim's profiles have 128 MiB at 0x8000_0000; the kernel's script keeps 1 MiB).
//!
//! Guarantee: the resized script differs from the kernel's only in the `LENGTH` of its one
//! `RAM` memory region; a kernel script without exactly one such line is an error rather
//! than a silently unresized link.

/// File name of a resized script in the build directory.
pub const SCRIPT_NAME: &str = "link.ld";

/// `kernel_script` with its RAM region's length set to `ram_kib` KiB.
pub fn resize_ram(kernel_script: &str, ram_kib: u32) -> Result<String, String> {
    let is_ram = |l: &str| l.trim_start().starts_with("RAM ") && l.contains("LENGTH");
    let count = kernel_script.lines().filter(|l| is_ram(l)).count();
    if count != 1 {
        return Err(format!(
            "expected one `RAM ... LENGTH = ...` memory region line, found {count}"
        ));
    }
    let mut out = String::with_capacity(kernel_script.len() + 16);
    for line in kernel_script.lines() {
        if is_ram(line) {
            let at = line.find("LENGTH").unwrap_or(line.len());
            out.push_str(&line[..at]);
            out.push_str(&format!("LENGTH = {ram_kib}K"));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str = "MEMORY\n{\n    RAM (rwx) : ORIGIN = 0x80000000, LENGTH = 1M\n}\n\
                          SECTIONS { .text : { *(.text) } > RAM }\n";

    #[test]
    fn only_the_ram_length_changes() {
        let out = resize_ram(SCRIPT, 4096).unwrap();
        assert_eq!(
            out,
            SCRIPT.replace("LENGTH = 1M", "LENGTH = 4096K"),
            "{out}"
        );
    }

    #[test]
    fn a_script_without_one_ram_region_is_an_error() {
        assert!(resize_ram("MEMORY { }\n", 1024).is_err());
        let twice = format!("{SCRIPT}{SCRIPT}");
        assert!(resize_ram(&twice, 1024).unwrap_err().contains("found 2"));
    }
}
