//! The headers a C file really includes, from the compiler's own dependency output
//! (`gcc -MM -MG`), so the build cache notices a change in any of them wherever it lives.

use crate::error::BuildError;
use crate::toolchain::Toolchain;
use std::path::{Path, PathBuf};

/// Splits a make rule (`obj.o: a.c b.h \` ...) into its prerequisites, undoing make's
/// escapes (`\ ` for a space, `$$` for `$`) and line continuations.
pub fn parse_rule(rule: &str) -> Vec<PathBuf> {
    let text = rule.replace("\\\r\n", " ").replace("\\\n", " ");
    let mut words = Vec::new();
    let mut word = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&' ') => {
                word.push(' ');
                chars.next();
            }
            '$' if chars.peek() == Some(&'$') => {
                word.push('$');
                chars.next();
            }
            c if c.is_whitespace() => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    // The first word is the target ("obj.o:"), possibly with the colon glued to it.
    let start = words
        .iter()
        .position(|w| w.ends_with(':'))
        .map_or(0, |i| i + 1);
    words[start..].iter().map(PathBuf::from).collect()
}

/// Every file `source` depends on when compiled with `flags` (itself included, system headers
/// excluded). Headers that do not exist yet (the generated one) are listed but may be absent.
pub fn dependencies(
    tc: &Toolchain,
    source: &Path,
    flags: &[String],
) -> Result<Vec<PathBuf>, BuildError> {
    let out = std::process::Command::new(tc.gcc())
        .args(crate::toolchain::ARCH_FLAGS)
        .args(flags)
        .args(["-MM", "-MG"])
        .arg(source)
        .output()
        .map_err(|e| BuildError::Tool {
            tool: tc.gcc(),
            error: e,
        })?;
    if !out.status.success() {
        let mut output = String::from_utf8_lossy(&out.stdout).into_owned();
        output.push_str(&String::from_utf8_lossy(&out.stderr));
        return Err(BuildError::Compile {
            source_file: source.to_path_buf(),
            output: output.trim_end().to_string(),
        });
    }
    Ok(parse_rule(&String::from_utf8_lossy(&out.stdout)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_gives_its_prerequisites() {
        let rule = "sensor.o: /w/sensor.c /w/demo.h \\\n /k/include/cactus/cactus.h \\\n cactus_firmware.h\n";
        assert_eq!(
            parse_rule(rule),
            [
                "/w/sensor.c",
                "/w/demo.h",
                "/k/include/cactus/cactus.h",
                "cactus_firmware.h"
            ]
            .map(PathBuf::from)
        );
        assert_eq!(
            parse_rule("a.o: my\\ dir/a.c $$x.h"),
            [PathBuf::from("my dir/a.c"), PathBuf::from("$x.h")]
        );
    }
}
