//! Readable rendering of the first difference between two outputs.

use std::fmt::Write;

/// Lines of common context shown before the first differing line.
const CONTEXT: usize = 3;

/// Describes where `sim` and `qemu` first differ, with up to three common lines of context
/// before it; None if they are equal. Bytes that are not UTF-8 are shown lossily.
pub fn render_diff(sim: &[u8], qemu: &[u8]) -> Option<String> {
    if sim == qemu {
        return None;
    }
    let a_text = String::from_utf8_lossy(sim);
    let b_text = String::from_utf8_lossy(qemu);
    let a: Vec<&str> = a_text.split_inclusive('\n').collect();
    let b: Vec<&str> = b_text.split_inclusive('\n').collect();
    let first = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = String::new();
    let _ = writeln!(out, "first difference at line {}:", first + 1);
    for (i, line) in a
        .iter()
        .enumerate()
        .take(first)
        .skip(first.saturating_sub(CONTEXT))
    {
        let _ = writeln!(out, "  {:>5} | {}", i + 1, show(line));
    }
    let side = |lines: &[&str]| {
        lines
            .get(first)
            .map_or("<end of output>".to_string(), |l| show(l))
    };
    let _ = writeln!(out, "    sim | {}", side(&a));
    let _ = writeln!(out, "   qemu | {}", side(&b));
    let _ = write!(
        out,
        "(sim wrote {} bytes in {} lines, qemu {} bytes in {} lines)",
        sim.len(),
        a.len(),
        qemu.len(),
        b.len()
    );
    Some(out)
}

/// A line without its newline; a missing final newline and control characters made visible.
fn show(line: &str) -> String {
    let body = line
        .strip_suffix('\n')
        .map_or_else(|| format!("{line}  [no newline]"), str::to_string);
    body.chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_outputs_have_no_diff() {
        assert_eq!(render_diff(b"a\nb\n", b"a\nb\n"), None);
    }

    #[test]
    fn shows_first_differing_line_with_context() {
        let d = render_diff(b"l1\nl2\nl3\nl4\nx5=1\nl6\n", b"l1\nl2\nl3\nl4\nx5=2\nl6\n").unwrap();
        assert!(d.starts_with("first difference at line 5:"), "{d}");
        assert!(!d.contains("|  l1"), "only three lines of context: {d}");
        assert!(d.contains("    2 | l2"), "{d}");
        assert!(d.contains("    4 | l4"), "{d}");
        assert!(d.contains("    sim | x5=1"), "{d}");
        assert!(d.contains("   qemu | x5=2"), "{d}");
    }

    #[test]
    fn shorter_output_shows_end_marker() {
        let d = render_diff(b"a\n", b"a\nb\n").unwrap();
        assert!(d.contains("    sim | <end of output>"), "{d}");
        assert!(d.contains("   qemu | b"), "{d}");
    }

    #[test]
    fn missing_newline_and_control_characters_are_visible() {
        let d = render_diff(b"a\x01", b"a\x01\n").unwrap();
        assert!(d.contains("\\u{1}"), "{d}");
        assert!(d.contains("[no newline]"), "{d}");
    }
}
