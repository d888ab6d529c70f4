//! Paths that `make` can name. Make splits target names and variable values on whitespace, so a
//! project or an installed kernel under a directory such as `My Projects` cannot be handed to
//! the kernel's Makefile as it is. [`make_safe`] gives such a path a whitespace-free symlink of
//! its own in the system temporary directory.

use crate::hash::ContentHash;
use std::io;
use std::path::{Path, PathBuf};

/// `path` itself when it holds no whitespace; otherwise a symlink to it,
/// `<temporary directory>/cactus-make-<hash of path>`, created (or put right, atomically) here.
/// The same path always gets the same link, so make's dependency files stay valid from one
/// build to the next. An error names the link when it cannot be made, or the temporary
/// directory when that holds whitespace itself.
pub fn make_safe(path: &Path) -> io::Result<PathBuf> {
    if !has_whitespace(path) {
        return Ok(path.to_path_buf());
    }
    let tmp = std::env::temp_dir();
    if has_whitespace(&tmp) {
        return Err(io::Error::other(format!(
            "{} holds whitespace, which make cannot take; the temporary directory {} (TMPDIR) \
             holds whitespace too, so no link without it can be made",
            path.display(),
            tmp.display()
        )));
    }
    let mut h = ContentHash::new();
    h.piece(path.as_os_str().as_encoded_bytes());
    let link = tmp.join(format!("cactus-make-{}", h.short_hex()));
    if std::fs::read_link(&link).ok().as_deref() == Some(path) {
        return Ok(link);
    }
    // A fresh link under a name of this process, renamed over the old one: concurrent builds
    // never see a missing or half-made link.
    let fresh = tmp.join(format!(
        "cactus-make-{}.{}",
        h.short_hex(),
        std::process::id()
    ));
    let _ = std::fs::remove_file(&fresh);
    let made =
        std::os::unix::fs::symlink(path, &fresh).and_then(|()| std::fs::rename(&fresh, &link));
    made.map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", link.display())))?;
    Ok(link)
}

fn has_whitespace(path: &Path) -> bool {
    path.to_string_lossy().chars().any(char::is_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_without_whitespace_is_kept() {
        let p = Path::new("/work/project/build/kernel");
        assert_eq!(make_safe(p).unwrap(), p);
    }

    #[test]
    fn a_path_with_spaces_gets_one_stable_link_to_it() {
        let dir = std::env::temp_dir().join(format!("cactus make safe {}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("f"), "x").unwrap();
        let link = make_safe(&dir).unwrap();
        assert!(!has_whitespace(&link), "{}", link.display());
        assert_eq!(std::fs::read_to_string(link.join("f")).unwrap(), "x");
        assert_eq!(make_safe(&dir).unwrap(), link, "the same link again");
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_file(&link).unwrap();
    }
}
