//! Stack-depth annotations: hand-written routines that switch stacks (the kernel's
//! `port_syscall`, `port_yield`) declare how deep they go on the stack they were called on,
//! in a non-allocated section of their own object:
//!
//! ```asm
//!     .pushsection .cactus.stack_depth,"",@progbits
//!     .asciz "port_syscall 0"
//!     .popsection
//! ```
//!
//! Each entry is one NUL-terminated `NAME BYTES` string. The analysis still reads the
//! routine's code up to the instruction that loads `sp` with another stack's address and
//! rejects the annotation if the code goes deeper than declared before that point.

use super::error::MachineError;

/// The entries of one `.cactus.stack_depth` section: `(name, bytes)` in order. Empty strings
/// (alignment padding) are skipped; anything else that is not `NAME BYTES` is an error.
pub fn parse_annotations(section: &[u8], origin: &str) -> Result<Vec<(String, u32)>, MachineError> {
    let mut out = Vec::new();
    for raw in section.split(|&b| b == 0) {
        let text = String::from_utf8_lossy(raw);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let bad = |problem: &str| MachineError::Annotation {
            origin: origin.to_string(),
            entry: text.to_string(),
            problem: problem.to_string(),
        };
        let mut words = text.split_whitespace();
        let (Some(name), Some(bytes), None) = (words.next(), words.next(), words.next()) else {
            return Err(bad("expected `NAME BYTES`"));
        };
        let bytes: u32 = bytes
            .parse()
            .map_err(|_| bad("BYTES is not a decimal number of bytes"))?;
        out.push((name.to_string(), bytes));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_entries_and_skips_padding() {
        let got = parse_annotations(b"port_syscall 0\0port_yield 16\0\0\0", "k.o").unwrap();
        assert_eq!(
            got,
            vec![
                ("port_syscall".to_string(), 0),
                ("port_yield".to_string(), 16)
            ]
        );
    }

    #[test]
    fn rejects_malformed_entries() {
        let e = parse_annotations(b"port_syscall\0", "k.o").unwrap_err();
        assert!(e.to_string().contains("expected `NAME BYTES`"), "{e}");
        let e = parse_annotations(b"f -4\0", "k.o").unwrap_err();
        assert!(e.to_string().contains("\"f -4\""), "{e}");
        let e = parse_annotations(b"f 1 2\0", "k.o").unwrap_err();
        assert!(e.to_string().contains("k.o"), "{e}");
    }
}
