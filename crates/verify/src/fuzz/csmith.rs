//! Generating a random C program with csmith, deterministically from a seed.

use crate::fuzz::error::FuzzError;
use std::process::Command;

/// The csmith binary.
pub const CSMITH: &str = "csmith";
/// The Debian package that provides [`CSMITH`].
pub const CSMITH_PACKAGE: &str = "csmith";
/// Where csmith's runtime headers (`csmith.h`) are installed.
pub const CSMITH_INCLUDE: &str = "/usr/include/csmith";

/// The options given to csmith besides the seed. They keep programs small (a few hundred
/// lines, a few functions, shallow blocks) so that they compile in a fraction of a second and
/// most of them finish in a few million instructions; programs that still run too long are
/// skipped by the harness.
pub const CSMITH_OPTIONS: &[&str] = &[
    "--max-funcs",
    "5",
    "--max-block-depth",
    "3",
    "--max-block-size",
    "4",
    "--max-expr-complexity",
    "6",
    "--max-array-dim",
    "2",
    "--max-array-len-per-dim",
    "8",
    "--max-struct-fields",
    "6",
    "--max-pointer-depth",
    "2",
    "--no-packed-struct",
];

/// Generates the program for `seed`. The text depends only on the seed, [`CSMITH_OPTIONS`]
/// and the csmith version. `Ok(Err(reason))` means csmith ran but produced no program for this
/// seed (the case is skipped); `Err` means csmith could not be run at all.
pub fn generate(seed: u64) -> Result<Result<String, String>, FuzzError> {
    // csmith writes `platform.info` into its working directory: give it a scratch one.
    let scratch = tempfile::tempdir().map_err(|error| FuzzError::Io {
        path: std::env::temp_dir(),
        error,
    })?;
    let output = Command::new(CSMITH)
        .current_dir(scratch.path())
        .arg("--seed")
        .arg(seed.to_string())
        .args(CSMITH_OPTIONS)
        .output()
        .map_err(|error| match error.kind() {
            std::io::ErrorKind::NotFound => FuzzError::NotInstalled {
                tool: CSMITH,
                package: CSMITH_PACKAGE,
            },
            _ => FuzzError::Io {
                path: CSMITH.into(),
                error,
            },
        })?;
    if !output.status.success() || output.stdout.is_empty() {
        return Ok(Err(format!(
            "csmith --seed {seed} failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    Ok(Ok(String::from_utf8_lossy(&output.stdout).into_owned()))
}

/// The csmith command line that regenerates the program of `seed` (for reports).
pub fn command_line(seed: u64) -> String {
    format!("{CSMITH} --seed {seed} {}", CSMITH_OPTIONS.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn have_csmith() -> bool {
        Command::new(CSMITH).arg("--version").output().is_ok()
    }

    #[test]
    fn same_seed_same_program_other_seed_other_program() {
        if !have_csmith() {
            eprintln!("csmith not installed: skipping");
            return;
        }
        let a = generate(7).unwrap().unwrap();
        let b = generate(7).unwrap().unwrap();
        let c = generate(8).unwrap().unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.contains("int main"), "{a}");
        assert!(a.contains("Seed:      7"), "{a}");
    }
}
