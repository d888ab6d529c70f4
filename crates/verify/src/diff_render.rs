//! Readable rendering of the first difference between two outputs: the first hunk of a line
//! diff (`similar`), so a line inserted on one side shows as one line, not as every line after
//! it differing.

use similar::{ChangeTag, TextDiff};
use std::fmt::Write;

/// Lines of common context shown around the first difference.
const CONTEXT: usize = 3;
/// Changed lines shown at most (the rest are counted).
const MAX_CHANGED: usize = 12;

/// Describes where `sim` and `qemu` first differ: the first hunk of their line diff with up to
/// three common lines of context, lines only sim wrote marked `sim`, lines only QEMU wrote
/// `qemu`; None if they are equal. Bytes that are not UTF-8 are shown lossily.
pub fn render_diff(sim: &[u8], qemu: &[u8]) -> Option<String> {
    if sim == qemu {
        return None;
    }
    let a_text = String::from_utf8_lossy(sim);
    let b_text = String::from_utf8_lossy(qemu);
    let diff = TextDiff::from_lines(a_text.as_ref(), b_text.as_ref());
    let hunk = diff.grouped_ops(CONTEXT).into_iter().next()?;
    let changes: Vec<_> = hunk.iter().flat_map(|op| diff.iter_changes(op)).collect();
    let first = changes.iter().position(|c| c.tag() != ChangeTag::Equal)?;
    let first_line = changes[first]
        .old_index()
        .unwrap_or_else(|| changes[first].new_index().unwrap_or(0));
    let mut out = String::new();
    let _ = writeln!(out, "first difference at line {}:", first_line + 1);
    let (mut shown, mut hidden) = (0, 0);
    let (mut sim_lines, mut qemu_lines) = (0, 0);
    for c in &changes {
        let label = match c.tag() {
            ChangeTag::Equal => format!("{:>5}", c.old_index().unwrap_or(0) + 1),
            ChangeTag::Delete => {
                sim_lines += 1;
                "  sim".to_string()
            }
            ChangeTag::Insert => {
                qemu_lines += 1;
                " qemu".to_string()
            }
        };
        if c.tag() != ChangeTag::Equal {
            if shown == MAX_CHANGED {
                hidden += 1;
                continue;
            }
            shown += 1;
        }
        let _ = writeln!(out, "  {label} | {}", show(c.value()));
    }
    // One side wrote nothing where the other wrote lines: say so if it had ended there.
    let last_is_change = changes.last().is_some_and(|c| c.tag() != ChangeTag::Equal);
    let (old_end, new_end) = hunk
        .last()
        .map_or((0, 0), |op| (op.old_range().end, op.new_range().end));
    let ended = [
        ("sim", sim_lines, old_end == diff.old_slices().len()),
        ("qemu", qemu_lines, new_end == diff.new_slices().len()),
    ];
    for (side, count, at_end) in ended {
        if count == 0 && last_is_change && at_end {
            let _ = writeln!(out, "  {side:>5} | <end of output>");
        }
    }
    if hidden > 0 {
        let _ = writeln!(
            out,
            "  ({hidden} more changed lines in this hunk not shown)"
        );
    }
    let _ = write!(
        out,
        "(sim wrote {} bytes in {} lines, qemu {} bytes in {} lines)",
        sim.len(),
        a_text.split_inclusive('\n').count(),
        qemu.len(),
        b_text.split_inclusive('\n').count()
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
    fn an_inserted_line_is_one_change_not_a_cascade() {
        let d = render_diff(b"a\nb\nc\nd\n", b"a\nx\nb\nc\nd\n").unwrap();
        assert!(d.contains("   qemu | x"), "{d}");
        assert!(
            !d.contains("    sim |"),
            "sim has no line that qemu lacks: {d}"
        );
        assert!(d.contains("      3 | c"), "context after the change: {d}");
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
