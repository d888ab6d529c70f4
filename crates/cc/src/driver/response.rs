//! Response files (`@FILE`): gcc reads more arguments from FILE, so the driver must too
//! before it can see the inputs (CMake and Ninja pass long command lines this way).

use super::files::{io_error, resolve};
use crate::CcError;
use std::path::Path;

/// How deeply response files may include each other (gcc's libiberty allows 2000).
const MAX_DEPTH: usize = 64;

/// `args` with every `@FILE` whose file exists replaced by the words in it (recursively),
/// as gcc does; a `@FILE` that names no file stays as written (gcc then reports it as a
/// missing input). Paths are relative to `cwd` (`None`: this process's directory).
pub fn expand(args: &[String], cwd: Option<&Path>) -> Result<Vec<String>, CcError> {
    let mut out = Vec::new();
    expand_into(args, cwd, 0, &mut out)?;
    Ok(out)
}

fn expand_into(
    args: &[String],
    cwd: Option<&Path>,
    depth: usize,
    out: &mut Vec<String>,
) -> Result<(), CcError> {
    for word in args {
        let Some(file) = word.strip_prefix('@') else {
            out.push(word.clone());
            continue;
        };
        let path = resolve(cwd, file);
        if !path.is_file() {
            out.push(word.clone());
            continue;
        }
        if depth >= MAX_DEPTH {
            return Err(CcError::Usage(format!(
                "{word}: response files nested more than {MAX_DEPTH} deep"
            )));
        }
        let text = std::fs::read_to_string(&path).map_err(|e| io_error(&path, e))?;
        expand_into(&split(&text, &path)?, cwd, depth + 1, out)?;
    }
    Ok(())
}

/// The words of a response file, split as a POSIX shell splits them (`shlex`): white space
/// separates, single and double quotes group, a backslash escapes the next character; that is
/// how gcc's libiberty reads them on Unix (argfile's response parser follows Windows rules:
/// single quotes and backslashes are literal there, so it does not fit). An unclosed quote is
/// an error naming the file.
pub fn split(text: &str, file: &Path) -> Result<Vec<String>, CcError> {
    shlex::split(text).ok_or_else(|| {
        CcError::Usage(format!(
            "{}: response file has an unclosed quote or a trailing backslash",
            file.display()
        ))
    })
}
