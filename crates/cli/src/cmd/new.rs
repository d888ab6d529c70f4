//! `cactus new PATH`: a firmware project of its own, outside the Cactus sources: a manifest
//! (`cactus.toml`), one periodic task (`NAME.c`), a README with the commands and the Make and
//! CMake snippets, and a `.gitignore` for `build/`. `cactus build` and `cactus run` in that
//! directory then build and run it, with outputs under its `build/`.

use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `cactus new`.
#[derive(Args, Debug)]
pub struct NewArgs {
    /// The project directory to create (missing or empty).
    pub path: PathBuf,
    /// The firmware's name, a C identifier of at most 31 characters [default: the directory's
    /// name].
    #[arg(long)]
    pub name: Option<String>,
}

/// The files of a new project: (file name, template text with `{{name}}` placeholders).
const FILES: [(&str, &str); 4] = [
    (
        "cactus.toml",
        include_str!("../../templates/new/cactus.toml"),
    ),
    ("{{name}}.c", include_str!("../../templates/new/task.c")),
    ("README.md", include_str!("../../templates/new/README.md")),
    (".gitignore", include_str!("../../templates/new/gitignore")),
];

/// Whether `name` can name a firmware (the manifest's `firmware.name` rule).
fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 31
}

/// The project's files, placeholders filled in, for firmware `name`.
pub fn project_files(name: &str) -> Vec<(String, String)> {
    FILES
        .iter()
        .map(|(file, text)| {
            (
                file.replace("{{name}}", name),
                text.replace("{{name}}", name),
            )
        })
        .collect()
}

/// Writes the project for `name` into `dir`, which must be missing or empty.
pub fn create(dir: &Path, name: &str) -> Result<()> {
    if !valid_name(name) {
        bail!(
            "`{name}` cannot name a firmware: it must be a C identifier of at most 31 characters (give one with --name)"
        );
    }
    if dir.exists() {
        let mut entries =
            std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
        if entries.next().is_some() {
            bail!(
                "{} already exists and is not empty: cactus new writes only into a new or empty directory",
                dir.display()
            );
        }
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (file, text) in project_files(name) {
        let path = dir.join(&file);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// Runs `cactus new`: creates the project and says how to build it.
pub fn main(args: NewArgs) -> Result<ExitCode> {
    let name = match &args.name {
        Some(n) => n.clone(),
        None => args
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .with_context(|| format!("{} has no directory name", args.path.display()))?,
    };
    create(&args.path, &name)?;
    eprintln!(
        "cactus: created firmware {name} in {}; there: `cactus build`, `cactus run` (README.md)",
        args.path.display()
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_manifest_rule() {
        for good in ["blinky", "_x", "a1_b2", &"a".repeat(31)] {
            assert!(valid_name(good), "{good}");
        }
        for bad in ["", "1abc", "my-app", "my app", "é", &"a".repeat(32)] {
            assert!(!valid_name(bad), "{bad}");
        }
    }

    #[test]
    fn the_files_carry_the_name_and_nothing_is_left_unfilled() {
        let files = project_files("blinky");
        let names: Vec<&str> = files.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(
            names,
            ["cactus.toml", "blinky.c", "README.md", ".gitignore"]
        );
        for (file, text) in &files {
            assert!(!text.contains("{{"), "{file} keeps a placeholder");
        }
        let manifest = &files[0].1;
        assert!(manifest.contains("name = \"blinky\""), "{manifest}");
        assert!(manifest.contains("sources = [\"blinky.c\"]"), "{manifest}");
        assert!(files[1].1.contains("void blinky_blink(void *arg)"));
    }

    #[test]
    fn the_manifest_is_valid() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("my project");
        create(&dir, "blinky").unwrap();
        let m = cactus_firmware::Manifest::load(&dir.join("cactus.toml")).unwrap();
        assert_eq!(m.name, "blinky");
        assert_eq!(m.tasks.len(), 1);
        assert_eq!(m.tasks[0].sources, [dir.join("blinky.c")]);
    }

    #[test]
    fn refuses_a_bad_name_and_a_directory_in_use() {
        let tmp = tempfile::tempdir().unwrap();
        let err = create(&tmp.path().join("x"), "my-app").unwrap_err();
        assert!(err.to_string().contains("`my-app` cannot name a firmware"));
        assert!(!tmp.path().join("x").exists());
        let used = tmp.path().join("used");
        std::fs::create_dir(&used).unwrap();
        std::fs::write(used.join("keep.txt"), "mine").unwrap();
        let err = create(&used, "used").unwrap_err().to_string();
        assert!(err.contains("already exists and is not empty"), "{err}");
        assert_eq!(
            std::fs::read_to_string(used.join("keep.txt")).unwrap(),
            "mine"
        );
        let empty = tmp.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        create(&empty, "empty").unwrap();
        assert!(empty.join("empty.c").is_file());
    }
}
