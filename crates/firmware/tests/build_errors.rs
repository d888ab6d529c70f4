//! Build errors that come from the linker but are the manifest's fault name the manifest:
//! a task `entry`, a timer `callback` or the firmware `init` naming no function. Skipped (with
//! a message) only when riscv64-unknown-elf-gcc is not installed.

use crate::support::{have_gcc, repo_root};
use cactus_firmware::{build, BuildError, BuildOptions, Manifest, ManifestError};
use std::path::Path;

const SOURCE: &str = "#include \"cactus_firmware.h\"\n\
    void body(void *arg) { (void)arg; cactus_fw_finish(0); }\n";

fn build_err(dir: &Path, text: &str) -> BuildError {
    std::fs::write(dir.join("t.c"), SOURCE).unwrap();
    let path = dir.join("t.toml");
    std::fs::write(&path, text).unwrap();
    let m = Manifest::load(&path).unwrap();
    let opts = BuildOptions {
        root: Some(repo_root()),
        out_root: Some(dir.join("out")),
        ..BuildOptions::default()
    };
    build(&m, &opts).unwrap_err()
}

#[test]
fn an_entry_naming_no_function_names_the_task_key_and_symbol() {
    if !have_gcc() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let text = "[firmware]\nname = \"t\"\n[kernel]\ntarget = \"qemu\"\n\
        [[task]]\nname = \"a\"\nsources = [\"t.c\"]\nentry = \"body\"\npriority = 2\nstack = 512\n\
        [[task]]\nname = \"worker\"\nsources = [\"t.c\"]\nentry = \"no_such_fn\"\npriority = 1\nstack = 512\n";
    let err = build_err(tmp.path(), text);
    match &err {
        BuildError::Manifest(ManifestError::Invalid {
            line, key, problem, ..
        }) => {
            assert_eq!(*line, Some(14), "{err}");
            assert_eq!(key, "task[1].entry");
            assert!(problem.contains("`worker`"), "{problem}");
            assert!(problem.contains("`no_such_fn`"), "{problem}");
        }
        other => panic!("expected a manifest error, got: {other}"),
    }
    assert!(!err.to_string().contains("collect2"), "{err}");
}

#[test]
fn an_init_naming_no_function_names_the_key() {
    if !have_gcc() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let text = "[firmware]\nname = \"t\"\ninit = \"no_init\"\n[kernel]\ntarget = \"qemu\"\n\
        [[task]]\nname = \"a\"\nsources = [\"t.c\"]\nentry = \"body\"\npriority = 2\nstack = 512\n";
    let err = build_err(tmp.path(), text).to_string();
    assert!(err.ends_with(
        "t.toml:3: `firmware.init`: no function `no_init` is defined in any source of the firmware"
    ), "{err}");
}

#[test]
fn a_timer_callback_naming_no_function_names_the_timer_key() {
    if !have_gcc() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let text = "[firmware]\nname = \"t\"\n[kernel]\ntarget = \"qemu\"\n\
        [[task]]\nname = \"a\"\nsources = [\"t.c\"]\nentry = \"body\"\npriority = 2\nstack = 512\n\
        [[timer]]\nname = \"blink\"\nperiod_ms = 5\ncallback = \"no_blink\"\n";
    let err = build_err(tmp.path(), text).to_string();
    assert!(
        err.ends_with(
            "t.toml:14: `timer[0].callback`: timer `blink`: no function `no_blink` is defined \
             in any source of the firmware"
        ),
        "{err}"
    );
}
