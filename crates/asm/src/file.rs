//! The file model: an assembly file as an ordered list of items (directives, labels,
//! instructions, verbatim lines) that prints back to text assembling to the same object.

use crate::error::AsmError;
use cactus_isa::asm::{parse_line, Statement};
use std::fmt::{self, Display, Formatter};

/// One element of an assembly file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// A blank or comment-only line, kept verbatim.
    Verbatim(String),
    /// An assembler directive: `name` is its first word (`.section`, `.word`, ...), `text`
    /// the directive as written, without its indentation and without labels that preceded
    /// it on the line (printed back after a tab).
    /// Unknown directives are kept like any other.
    Directive {
        /// The directive's name, e.g. `.size`.
        name: String,
        /// The directive's full text, printed back after a tab.
        text: String,
    },
    /// A label definition (`foo`, `.L3`, `1`), without the `:`.
    Label(String),
    /// One instruction statement.
    Inst(Statement),
    /// A line inside an inline-asm region (`#APP` .. `#NO_APP`) that is not an
    /// instruction the isa table knows; kept verbatim. Analyses treat it as unknown.
    Opaque(String),
}

/// An item with the 1-based source line it came from (0 for items created by passes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Source line.
    pub line: usize,
    /// The item.
    pub item: Item,
}

/// A parsed assembly file. Printing it (`Display`) gives text that assembles to the same
/// object as the source: lines with several `;`-separated statements or labels are printed
/// one item per line, and trailing `#` comments on instruction lines are dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmFile {
    /// Where the text came from (a path or a description), used in errors.
    pub origin: String,
    /// The items in source order.
    pub entries: Vec<Entry>,
}

impl AsmFile {
    /// Parses GNU-as RISC-V assembly. Errors name `origin` and the line. Instruction lines
    /// that the isa table does not know are an error, except inside `#APP`/`#NO_APP`
    /// (inline asm), where they become [`Item::Opaque`].
    pub fn parse(text: &str, origin: &str) -> Result<AsmFile, AsmError> {
        let mut entries = Vec::new();
        let mut in_app = false;
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let mut push = |item| entries.push(Entry { line, item });
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                match trimmed {
                    "#APP" => in_app = true,
                    "#NO_APP" => in_app = false,
                    _ => {}
                }
                push(Item::Verbatim(raw.to_string()));
                continue;
            }
            let (labels, rest) = split_labels(trimmed);
            let starts_directive = rest.starts_with('.') && !rest.starts_with(".insn");
            if starts_directive {
                for l in labels {
                    push(Item::Label(l.to_string()));
                }
                // Stored without the indentation (printed as one tab), so that parse -> print
                // -> parse is the identity (a column-0 directive used to come back indented).
                push(Item::Directive {
                    name: directive_name(rest).to_string(),
                    text: rest.to_string(),
                });
                continue;
            }
            let code = rest.find('#').map_or(trimmed, |_| strip_comment(trimmed));
            match parse_line(code) {
                Ok(pieces) => {
                    for piece in pieces {
                        for l in piece.labels {
                            push(Item::Label(l));
                        }
                        if let Some(s) = piece.statement {
                            push(Item::Inst(s));
                        }
                    }
                }
                Err(_) if in_app => push(Item::Opaque(raw.to_string())),
                Err(e) => {
                    return Err(AsmError::Syntax {
                        origin: origin.to_string(),
                        line,
                        reason: e.to_string(),
                    })
                }
            }
        }
        Ok(AsmFile {
            origin: origin.to_string(),
            entries,
        })
    }

    /// The items in order, without line numbers.
    pub fn items(&self) -> impl Iterator<Item = &Item> {
        self.entries.iter().map(|e| &e.item)
    }
}

impl Display for Item {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Item::Verbatim(t) | Item::Opaque(t) => f.write_str(t),
            Item::Directive { text, .. } if text.starts_with(char::is_whitespace) => {
                f.write_str(text)
            }
            Item::Directive { text, .. } => write!(f, "\t{text}"),
            Item::Label(l) => write!(f, "{l}:"),
            Item::Inst(s) => write!(f, "\t{s}"),
        }
    }
}

impl Display for AsmFile {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for e in &self.entries {
            writeln!(f, "{}", e.item)?;
        }
        Ok(())
    }
}

/// Splits leading `label:` definitions off a line.
fn split_labels(mut s: &str) -> (Vec<&str>, &str) {
    let mut labels = Vec::new();
    loop {
        let end = s
            .find(|c: char| !(c.is_ascii_alphanumeric() || "_.$".contains(c)))
            .unwrap_or(s.len());
        let (name, rest) = s.split_at(end);
        if name.is_empty() || !rest.starts_with(':') {
            return (labels, s);
        }
        labels.push(name);
        s = rest[1..].trim_start();
    }
}

/// The first word of a directive.
fn directive_name(text: &str) -> &str {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .next()
        .unwrap_or(text)
}

/// An instruction line without its trailing `#` comment.
fn strip_comment(line: &str) -> &str {
    line.split('#').next().unwrap_or(line).trim_end()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_items() {
        let text = "\t.text\n\t.globl\tf\n\t.type\tf, @function\nf:\n\taddi\tsp,sp,-16\n.L3:\tret\n\t# c\n";
        let f = AsmFile::parse(text, "t.s").unwrap();
        let items: Vec<_> = f.items().cloned().collect();
        assert_eq!(items[3], Item::Label("f".into()));
        assert!(matches!(items[4], Item::Inst(_)));
        assert_eq!(items[5], Item::Label(".L3".into()));
        assert!(matches!(&items[1], Item::Directive { name, .. } if name == ".globl"));
        let printed = f.to_string();
        assert!(
            printed.contains("\taddi sp,sp,-16\n.L3:\n\tret\n\t# c\n"),
            "{printed}"
        );
        assert_eq!(
            AsmFile::parse(&printed, "p.s").unwrap().to_string(),
            printed
        );
    }

    #[test]
    fn errors_name_file_and_line() {
        let e = AsmFile::parse("\t.text\n\tfrobnicate a0\n", "x.s").unwrap_err();
        assert!(e.to_string().starts_with("x.s:2: "), "{e}");
    }

    #[test]
    fn inline_asm_unknown_is_opaque() {
        let f = AsmFile::parse("#APP\n\tfrobnicate a0\n#NO_APP\n", "x.s").unwrap();
        assert_eq!(f.entries[1].item, Item::Opaque("\tfrobnicate a0".into()));
    }
}

#[cfg(test)]
mod edit_tests {
    use super::*;

    #[test]
    fn inserted_items_print_in_place() {
        let mut f = AsmFile::parse("\t.text\nf:\n\tret\n", "t.s").unwrap();
        let add = Statement::parse("addi sp,sp,-16").unwrap();
        f.entries.insert(
            2,
            Entry {
                line: 0,
                item: Item::Inst(add),
            },
        );
        assert_eq!(f.to_string(), "\t.text\nf:\n\taddi sp,sp,-16\n\tret\n");
    }
}

#[cfg(test)]
mod identity_tests {
    use super::*;

    /// Found by `tests/fuzz.rs`: a directive at column 0 came back indented, so its text
    /// changed on the second parse.
    #[test]
    fn a_column_zero_directive_survives_print_and_parse() {
        for text in [
            ".\n",
            ".text\n",
            "\t.word 1\n",
            "x: .byte 2\n",
            "  .align 2  \n",
        ] {
            let a = AsmFile::parse(text, "t.s").unwrap();
            let b = AsmFile::parse(&a.to_string(), "t.s").unwrap();
            assert!(a.items().eq(b.items()), "{text:?}: {a:?} vs {b:?}");
        }
    }
}
