//! Functions of a file: found by `.type NAME, @function`, running from the label `NAME:`
//! to `.size NAME, ...` (or the next function), plus the file's jump tables.

use crate::file::{AsmFile, Item};
use cactus_isa::asm::{Imm, Statement};
use std::collections::{BTreeMap, BTreeSet};

/// One function of an [`AsmFile`]: a range of its entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// The symbol name.
    pub name: String,
    /// Whether it is `.globl` or `.weak` (visible to other compilation units: a weak
    /// definition links like a global one when no strong one exists).
    pub global: bool,
    /// Index of the entry holding the label `name:`.
    pub start: usize,
    /// One past the last entry of the body (the `.size` directive, or the next
    /// function's label, or the end of the file).
    pub end: usize,
}

impl Function {
    /// The instructions of the body with their entry indices, in order.
    pub fn insts<'f>(&self, file: &'f AsmFile) -> impl Iterator<Item = (usize, &'f Statement)> {
        (self.start..self.end).filter_map(move |i| match &file.entries[i].item {
            Item::Inst(s) => Some((i, s)),
            _ => None,
        })
    }
}

/// The first operand word of a directive's text (`.type f, @function` gives `f`).
fn operands(text: &str) -> Vec<&str> {
    let body = text.trim_start();
    let body = body.split_once(char::is_whitespace).map_or("", |(_, r)| r);
    body.split(',').map(str::trim).collect()
}

impl AsmFile {
    /// The functions, in file order. A function is a symbol declared `.type NAME,
    /// @function` (or `%function`) whose label is defined in the file.
    pub fn functions(&self) -> Vec<Function> {
        let mut typed = BTreeSet::new();
        let mut globals = BTreeSet::new();
        for item in self.items() {
            if let Item::Directive { name, text } = item {
                let ops = operands(text);
                match name.as_str() {
                    ".type" if ops.len() == 2 && ops[1].ends_with("function") => {
                        typed.insert(ops[0].to_string());
                    }
                    ".globl" | ".global" | ".weak" => {
                        globals.insert(ops[0].to_string());
                    }
                    _ => {}
                }
            }
        }
        let mut out: Vec<Function> = Vec::new();
        for (i, e) in self.entries.iter().enumerate() {
            match &e.item {
                Item::Label(l) if typed.contains(l) => {
                    if let Some(prev) = out.last_mut() {
                        prev.end = prev.end.min(i);
                    }
                    out.push(Function {
                        name: l.clone(),
                        global: globals.contains(l),
                        start: i,
                        end: self.entries.len(),
                    });
                }
                Item::Directive { name, text } if name == ".size" => {
                    if let Some(f) = out.last_mut() {
                        if operands(text).first() == Some(&f.name.as_str()) && f.end > i {
                            f.end = i;
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Jump tables: labels outside executable sections followed by `.word` directives
    /// naming local labels, mapped to those labels in order.
    pub fn jump_tables(&self) -> BTreeMap<String, Vec<String>> {
        let mut tables = BTreeMap::new();
        let mut current: Option<(String, Vec<String>)> = None;
        let mut exec = true;
        // `.pushsection` saves, `.popsection` restores; `.previous` swaps with the last.
        let (mut stack, mut previous) = (Vec::new(), true);
        for item in self.items() {
            match item {
                Item::Directive { name, text } if is_section(name) => {
                    previous = exec;
                    exec = section_is_exec(name, text);
                    flush(&mut current, &mut tables);
                }
                Item::Directive { name, text } if name == ".pushsection" => {
                    stack.push(exec);
                    previous = exec;
                    exec = section_is_exec(".section", text);
                    flush(&mut current, &mut tables);
                }
                Item::Directive { name, .. } if name == ".popsection" || name == ".previous" => {
                    let back = if name == ".previous" {
                        previous
                    } else {
                        stack.pop().unwrap_or(true)
                    };
                    previous = exec;
                    exec = back;
                    flush(&mut current, &mut tables);
                }
                Item::Label(l) if !exec => {
                    flush(&mut current, &mut tables);
                    current = Some((l.clone(), Vec::new()));
                }
                Item::Directive { name, text } if name == ".word" => {
                    let target = operands(text).first().map(|s| s.to_string());
                    match (&mut current, target) {
                        (Some((_, words)), Some(t)) if t.starts_with(".L") => words.push(t),
                        _ => flush(&mut current, &mut tables),
                    }
                }
                Item::Verbatim(_) => {}
                Item::Directive { name, .. } if name == ".align" || name == ".p2align" => {}
                _ => flush(&mut current, &mut tables),
            }
        }
        flush(&mut current, &mut tables);
        tables
    }
}

fn flush(current: &mut Option<(String, Vec<String>)>, tables: &mut BTreeMap<String, Vec<String>>) {
    if let Some((label, words)) = current.take() {
        if !words.is_empty() {
            tables.insert(label, words);
        }
    }
}

fn is_section(name: &str) -> bool {
    matches!(
        name,
        ".text" | ".data" | ".bss" | ".section" | ".rodata" | ".sdata" | ".sbss"
    )
}

/// Whether a section directive switches to executable code (`.text`, `.text.*`, or a
/// section with the `x` flag).
fn section_is_exec(name: &str, text: &str) -> bool {
    match name {
        ".text" => true,
        ".section" => {
            let ops = operands(text);
            let sec = ops.first().copied().unwrap_or("");
            sec.starts_with(".text")
                || ops
                    .get(1)
                    .is_some_and(|f| f.trim_matches('"').contains('x'))
        }
        _ => false,
    }
}

/// The immediate operand of a statement, if it has one.
pub(crate) fn imm_of(s: &Statement) -> Option<&Imm> {
    match s {
        Statement::Base(a) => Some(&a.imm),
        Statement::Pseudo(p) => Some(&p.imm),
        Statement::Compressed(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "\t.text
\t.globl\tf
\t.type\tf, @function
f:
\tlui\ta5,%hi(.L4)
\taddi\ta5,a5,%lo(.L4)
\tjr\ta5
\t.section\t.rodata
\t.align\t2
.L4:
\t.word\t.L3
\t.word\t.L2
\t.text
.L3:
.L2:
\tret
\t.size\tf, .-f
\t.type\tg, @function
g:
\tret
\t.size\tg, .-g
";

    #[test]
    fn follows_pushsection_and_previous() {
        let text = "\t.text\n\t.pushsection\t.rodata\n.L4:\n\t.word\t.L1\n\t.popsection\n.L5:\n\t.word\t.L1\n\t.section\t.rodata\n\t.previous\n.L6:\n\t.word\t.L1\n\t.previous\n.L7:\n\t.word\t.L2\n";
        let t = AsmFile::parse(text, "t.s").unwrap().jump_tables();
        assert_eq!(t.keys().cloned().collect::<Vec<_>>(), vec![".L4", ".L7"]);
    }

    #[test]
    fn finds_functions_and_jump_tables() {
        let file = AsmFile::parse(SRC, "t.s").unwrap();
        let fs = file.functions();
        assert_eq!(fs.len(), 2);
        assert_eq!((fs[0].name.as_str(), fs[0].global), ("f", true));
        assert_eq!((fs[1].name.as_str(), fs[1].global), ("g", false));
        assert_eq!(fs[0].insts(&file).count(), 4);
        assert_eq!(fs[1].insts(&file).count(), 1);
        let t = file.jump_tables();
        assert_eq!(t[".L4"], vec![".L3".to_string(), ".L2".to_string()]);
    }
}
