//! The stack reserves of the uninstrumented code firmware links (libgcc, picolibc), as
//! `cactus cc` and `cactus build` hand them to the check pass: computed from the libraries'
//! machine code by `cactus_analysis::machine` and cached under `build/cache/` of the Cactus
//! tree (or the system temporary directory outside one).

use anyhow::{Context, Result};
use cactus_analysis::machine::{toolchain_library_depths, MachineDepth};
use cactus_cc::{Reserve, Reserves};

/// The toolchain libraries' worst-case depths (computed from their machine code, cached).
pub fn toolchain_reserves() -> Result<Reserves> {
    let cache = match cactus_firmware::find_root(std::path::Path::new(".")) {
        Ok(root) => root.join("build/cache"),
        Err(_) => std::env::temp_dir().join("cactus-cache"),
    };
    std::fs::create_dir_all(&cache)
        .with_context(|| format!("cannot create {}", cache.display()))?;
    let depths = toolchain_library_depths(&cache).context("stack depths of libgcc and picolibc")?;
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
