//! The `--profile` argument shared by `cactus run` and `cactus bench kernel`.

use anyhow::{bail, Result};
use cactus_sim::Profile;
use std::path::Path;

/// A built-in profile by name, else a profile file by path. An unknown name that does not
/// look like a path is an error listing the built-in profiles.
pub(crate) fn resolve_profile(spec: &str) -> Result<Profile> {
    if let Some(profile) = Profile::builtin(spec) {
        return Ok(profile);
    }
    let path = Path::new(spec);
    let looks_like_path = spec.contains(std::path::MAIN_SEPARATOR) || spec.ends_with(".toml");
    if !looks_like_path && !path.exists() {
        bail!(
            "unknown profile {spec:?}: built-in profiles are {}; or give the path of a TOML \
             profile file",
            Profile::builtin_names().join(", ")
        );
    }
    Ok(Profile::load(path)?)
}
