//! The stack reserves of the uninstrumented code firmware links (libgcc, picolibc), as
//! `cactus cc` and `cactus build` hand them to the check pass: computed from the libraries'
//! machine code by `cactus_analysis::machine` and cached: `cactus build` in its project's
//! `build/cache/`, other commands under `build/cache/` of the Cactus checkout they run in;
//! otherwise (and under `--build-dir`) in `cactus-cache` of the system temporary directory.
//! Nothing is ever written into an installed data directory.

use anyhow::{Context, Result};
use cactus_analysis::machine::{toolchain_library_depths, MachineDepth};
use cactus_cc::{Reserve, Reserves};
use std::path::Path;

/// The toolchain libraries' worst-case depths (computed from their machine code, cached in
/// the checkout around the current directory, or in the temporary directory).
pub fn toolchain_reserves() -> Result<Reserves> {
    let here = Path::new(".");
    let cache = match cactus_firmware::find_root(here) {
        Ok(home) if cactus_firmware::home::contains(&home, here) => home.join("build/cache"),
        _ => std::env::temp_dir().join("cactus-cache"),
    };
    toolchain_reserves_in(&cache)
}

/// The toolchain libraries' worst-case depths, cached in `cache` (created when missing).
pub fn toolchain_reserves_in(cache: &Path) -> Result<Reserves> {
    std::fs::create_dir_all(cache).with_context(|| format!("cannot create {}", cache.display()))?;
    let depths = toolchain_library_depths(cache).context("stack depths of libgcc and picolibc")?;
    Ok(convert(depths))
}

fn convert(depths: impl IntoIterator<Item = (String, MachineDepth)>) -> Reserves {
    depths
        .into_iter()
        .map(|(name, d)| {
            let reserve = match d {
                MachineDepth::Bytes(b) => Reserve::Bytes(b),
                MachineDepth::Unbounded(why) => Reserve::Unbounded(why),
            };
            (name, reserve)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depths_convert_one_to_one() {
        let r = convert([
            ("memcpy".to_string(), MachineDepth::Bytes(0)),
            (
                "qsort".to_string(),
                MachineDepth::Unbounded("indirect call".into()),
            ),
        ]);
        assert_eq!(r.get("memcpy"), Some(&Reserve::Bytes(0)));
        assert!(matches!(r.get("qsort"), Some(Reserve::Unbounded(w)) if w == "indirect call"));
        assert_eq!(r.get("strlen"), None);
    }
}
