//! Shrinking a failing case with creduce: the interestingness test replays the case on the
//! candidate source and succeeds when the same finding (`"<variant>: <kind>"`) comes back.

use crate::fuzz::error::{io_at, FuzzError};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The creduce binary.
pub const CREDUCE: &str = "creduce";
/// The Debian package that provides [`CREDUCE`].
pub const CREDUCE_PACKAGE: &str = "creduce";
/// Seconds creduce allows one interestingness test (a replay builds and runs every variant).
pub const TEST_TIMEOUT_SECS: u32 = 120;

/// The interestingness script for the case in `case_dir` and the finding `signature`:
/// `cactus fuzz replay CASE --source prog.c --expect SIGNATURE`, which exits 0 only when
/// the replay reports that finding.
pub fn interestingness_script(cactus: &Path, case_dir: &Path, signature: &str) -> String {
    format!(
        "#!/bin/sh\n# Interesting when the replay of this case on ./prog.c reports `{sig}`.\n\
         exec {exe} fuzz replay {case} --source prog.c --expect {sig_q} >/dev/null 2>&1\n",
        sig = signature,
        exe = shell_quote(&cactus.display().to_string()),
        case = shell_quote(&case_dir.display().to_string()),
        sig_q = shell_quote(signature),
    )
}

/// Reduces `case_dir/prog.c` for `signature` in `case_dir/reduce/` with `jobs` cores,
/// `cactus` being the binary that replays. Returns the reduced file's path.
/// `Ok(Err(why))` if creduce gave up (e.g. the original is not interesting).
pub fn reduce_case(
    cactus: &Path,
    case_dir: &Path,
    signature: &str,
    jobs: usize,
) -> Result<Result<PathBuf, String>, FuzzError> {
    let case_dir = case_dir.canonicalize().map_err(io_at(case_dir))?;
    let work = case_dir.join("reduce");
    std::fs::create_dir_all(&work).map_err(io_at(&work))?;
    let source = work.join("prog.c");
    std::fs::copy(case_dir.join("prog.c"), &source).map_err(io_at(&source))?;
    let script = work.join("interesting.sh");
    std::fs::write(
        &script,
        interestingness_script(cactus, &case_dir, signature),
    )
    .map_err(io_at(&script))?;
    make_executable(&script)?;
    let mut cmd = Command::new(CREDUCE);
    cmd.current_dir(&work)
        .arg("--n")
        .arg(jobs.max(1).to_string())
        .arg("--timeout")
        .arg(TEST_TIMEOUT_SECS.to_string())
        .arg("./interesting.sh")
        .arg("prog.c");
    let output = cmd.output().map_err(|error| match error.kind() {
        std::io::ErrorKind::NotFound => FuzzError::NotInstalled {
            tool: CREDUCE,
            package: CREDUCE_PACKAGE,
        },
        _ => FuzzError::Io {
            path: CREDUCE.into(),
            error,
        },
    })?;
    let log = work.join("creduce.log");
    let mut text = output.stdout.clone();
    text.extend_from_slice(&output.stderr);
    std::fs::write(&log, &text).map_err(io_at(&log))?;
    if output.status.success() {
        Ok(Ok(source))
    } else {
        let tail: Vec<String> = String::from_utf8_lossy(&text)
            .lines()
            .rev()
            .take(6)
            .map(str::to_string)
            .collect();
        let tail: Vec<String> = tail.into_iter().rev().collect();
        Ok(Err(format!(
            "creduce exited with {} (log: {}):\n{}",
            output.status,
            log.display(),
            tail.join("\n")
        )))
    }
}

fn make_executable(path: &Path) -> Result<(), FuzzError> {
    use std::os::unix::fs::PermissionsExt;
    let mut perms = std::fs::metadata(path).map_err(io_at(path))?.permissions();
    perms.set_mode(0o755);
    std::fs::set_permissions(path, perms).map_err(io_at(path))
}

/// `text` quoted for sh (`shlex`), so that sh reads back exactly `text`. NUL bytes, which no
/// path or finding contains and sh cannot pass, are dropped first: quoting then cannot fail.
fn shell_quote(text: &str) -> String {
    let text: String = text.chars().filter(|&c| c != '\0').collect();
    match shlex::try_quote(&text) {
        Ok(quoted) => quoted.into_owned(),
        Err(_) => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_replays_with_the_signature_quoted() {
        let s = interestingness_script(
            Path::new("/bin/cactus"),
            Path::new("/tmp/it's"),
            "O2-detect-rolling: mismatch",
        );
        assert!(s.starts_with("#!/bin/sh\n"));
        let exec = s.lines().find(|l| l.starts_with("exec ")).unwrap();
        let words = shlex::split(exec).unwrap();
        assert_eq!(
            words[1..],
            [
                "/bin/cactus",
                "fuzz",
                "replay",
                "/tmp/it's",
                "--source",
                "prog.c",
                "--expect",
                "O2-detect-rolling: mismatch",
                ">/dev/null",
                "2>&1"
            ]
        );
    }
}
