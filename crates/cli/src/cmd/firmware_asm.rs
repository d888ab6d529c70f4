//! A firmware's C units as parsed GCC assembly, compiled with the firmware build's own flags
//! (`cactus_firmware::assembly`): the input of `cactus stack-report MANIFEST` and `cactus
//! switch-report MANIFEST`.

use anyhow::{Context, Result};
use cactus_asm::AsmFile;
use cactus_firmware::{assembly, find_root, toolchain::Toolchain, Manifest};
use std::path::{Path, PathBuf};

/// The manifest at a path, its Cactus tree, and every C unit of its firmware as assembly, in
/// `assembly`'s order (task sources, the generated glue, the kernel library's C sources),
/// each parsed with its file name as origin.
pub(crate) struct FirmwareAsm {
    /// The manifest.
    pub manifest: Manifest,
    /// The Cactus source tree it builds against.
    pub root: PathBuf,
    /// The toolchain it was compiled with.
    pub toolchain: Toolchain,
    /// The parsed units.
    pub files: Vec<AsmFile>,
}

/// Compiles the firmware of the manifest at `path` to assembly (in a temporary directory,
/// removed before returning) and parses every unit; errors name the manifest or the file.
pub(crate) fn compile(path: &Path) -> Result<FirmwareAsm> {
    let manifest = Manifest::load(path)?;
    let start = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let root = find_root(start)?;
    let dir = tempfile::tempdir().context("creating a directory for the assembly")?;
    let toolchain = Toolchain::default();
    let paths = assembly(&manifest, &root, &toolchain, dir.path())
        .with_context(|| format!("compiling {} to assembly", path.display()))?;
    let mut files = Vec::new();
    for f in &paths {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
        let name = f.file_name().unwrap_or_default().to_string_lossy();
        files.push(AsmFile::parse(&text, &name)?);
    }
    Ok(FirmwareAsm {
        manifest,
        root,
        toolchain,
        files,
    })
}
