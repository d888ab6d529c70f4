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
        expand_into(&split(&text), cwd, depth + 1, out)?;
    }
    Ok(())
}

/// The words of a response file: separated by white space; single or double quotes group
/// characters (white space included); a backslash takes the next character literally.
pub fn split(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (c, quote) {
            ('\\', _) => {
                if let Some(next) = chars.next() {
                    word.push(next);
                }
                in_word = true;
            }
            (c, Some(q)) if c == q => quote = None,
            (c, Some(_)) => word.push(c),
            ('\'' | '"', None) => {
                quote = Some(c);
                in_word = true;
            }
            (c, None) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (c, None) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}
