//! `kernel.pool_kib` and `kernel.ram_kib` on a real build: the firmware links a kernel
//! library variant whose stack pool has the asked size, and a linker script whose RAM region
//! has the asked length (so static data beyond the kernel script's 1 MiB links). Skipped
//! (with a message) only when riscv64-unknown-elf-gcc is not installed.

use crate::support::{repo_root, symbol_size};
use cactus_firmware::{build, BuildOptions, Manifest};
use std::path::Path;
use std::process::Command;

const SOURCE: &str = "#include \"cactus_firmware.h\"\n\
    static unsigned char big[1536 * 1024];\n\
    void body(void *arg) { (void)arg; big[sizeof big - 1] = 1; cactus_fw_finish(big[0]); }\n";

fn manifest(dir: &Path, kernel_extra: &str, stack: u32) -> Manifest {
    std::fs::write(dir.join("big.c"), SOURCE).unwrap();
    let text = format!(
        "[firmware]\nname = \"big\"\n[kernel]\ntarget = \"qemu\"\n{kernel_extra}\n\
         [[task]]\nname = \"a\"\nsources = [\"big.c\"]\nentry = \"body\"\npriority = 1\n\
         stack = {stack}\n"
    );
    let path = dir.join("big.toml");
    std::fs::write(&path, &text).unwrap();
    Manifest::load(&path).unwrap()
}

#[test]
fn pool_and_ram_options_reach_the_link() {
    if Command::new("riscv64-unknown-elf-gcc")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("riscv64-unknown-elf-gcc not installed: skipping");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let opts = BuildOptions {
        root: Some(repo_root()),
        out_root: Some(tmp.path().join("out")),
        ..BuildOptions::default()
    };
    // 1.5 MiB of static data does not fit the kernel script's 1 MiB of RAM...
    let plain = manifest(tmp.path(), "", 1024);
    let err = build(&plain, &opts).unwrap_err().to_string();
    assert!(err.contains("RAM"), "{err}");
    // ...but links with ram_kib, and a 60000-byte stack takes a 64 KiB pool.
    let m = manifest(tmp.path(), "pool_kib = 64\nram_kib = 4096", 60000);
    let built = build(&m, &opts).unwrap();
    let script = std::fs::read_to_string(built.dir.join("link.ld")).unwrap();
    assert!(script.contains("LENGTH = 4096K"), "{script}");
    assert_eq!(symbol_size(&built.elf, "pool"), Some(64 * 1024));
    assert_eq!(symbol_size(&built.elf, "big"), Some(1536 * 1024));
}
