//! Symbol references that are not direct calls: a function named anywhere but in the
//! callee operand of `call`/`tail`/`jal` (an `la`/`lui %hi`, a `.word sym` in data, inline
//! asm) may be reached through a pointer, so its check can never be rolled; such references
//! to uninstrumented code are redirected to thunks.

use cactus_asm::{AsmFile, Flow, Item};
use cactus_isa::asm::{Imm, Statement};

/// Directives whose operands may name symbols as data (addresses).
const DATA_DIRECTIVES: &[&str] = &[
    ".word", ".4byte", ".long", ".int", ".half", ".short", ".2byte", ".quad", ".8byte", ".dword",
    ".set", ".equ", ".equiv", ".reloc", ".uleb128", ".sleb128",
];

/// The identifiers appearing in an expression or operand list, in order.
pub fn identifiers(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || "_.$".contains(c)))
        .filter(|t| {
            t.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || "_.$".contains(c))
        })
        .collect()
}

/// The symbolic expression of a statement's immediate, if any.
fn imm_text(s: &Statement) -> Option<&str> {
    let imm = match s {
        Statement::Base(a) => &a.imm,
        Statement::Pseudo(p) => &p.imm,
        Statement::Compressed(_) => return None,
    };
    match imm {
        Imm::Sym(e) => Some(e.text.as_str()),
        Imm::Num(_) => None,
    }
}

/// The operands of a data directive (text after its name), if `item` is one.
fn data_operands(item: &Item) -> Option<&str> {
    match item {
        Item::Directive { name, text } if DATA_DIRECTIVES.contains(&name.as_str()) => {
            let body = text.trim_start();
            Some(body.split_once(char::is_whitespace).map_or("", |(_, r)| r))
        }
        _ => None,
    }
}

/// Every identifier `file` names other than as the target of a direct call or tail call,
/// with the entry index where it appears. Jumps (`j sym`) to non-local labels count as
/// references: control reaches the symbol by a path the call graph does not see.
pub fn address_refs(file: &AsmFile) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, e) in file.entries.iter().enumerate() {
        let text = match &e.item {
            Item::Inst(s) => match Flow::of(s) {
                Flow::Call(_) | Flow::TailCall(_) => None,
                Flow::Jump(l) | Flow::Branch(l) if l.starts_with(".L") => None,
                _ => imm_text(s),
            },
            Item::Opaque(t) => Some(t.as_str()),
            item => data_operands(item),
        };
        for id in text.map(identifiers).unwrap_or_default() {
            out.push((i, id.to_string()));
        }
    }
    out
}

/// Replaces the identifier `from` by `to` in `text`, at identifier boundaries only.
pub fn replace_identifier(text: &str, from: &str, to: &str) -> String {
    let is_id = |c: char| c.is_ascii_alphanumeric() || "_.$".contains(c);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find(from) {
        let before_ok = rest[..pos].chars().next_back().is_none_or(|c| !is_id(c))
            && (pos > 0 || out.chars().next_back().is_none_or(|c| !is_id(c)));
        let after = &rest[pos + from.len()..];
        let after_ok = after.chars().next().is_none_or(|c| !is_id(c));
        out.push_str(&rest[..pos]);
        if before_ok && after_ok {
            out.push_str(to);
        } else {
            out.push_str(from);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Redirects every non-call reference to `from` in entry `index` of `file` to `to`.
pub fn redirect(file: &mut AsmFile, index: usize, from: &str, to: &str) {
    match &mut file.entries[index].item {
        Item::Inst(s) => {
            let imm = match s {
                Statement::Base(a) => &mut a.imm,
                Statement::Pseudo(p) => &mut p.imm,
                Statement::Compressed(_) => return,
            };
            if let Imm::Sym(e) = imm {
                e.text = replace_identifier(&e.text, from, to);
            }
        }
        Item::Directive { name, text } if DATA_DIRECTIVES.contains(&name.as_str()) => {
            *text = replace_identifier(text, from, to);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_non_call_references() {
        let f = AsmFile::parse(
            "\t.text\nf:\n\tlui a5,%hi(g)\n\taddi a0,a5,%lo(g)\n\tcall h\n\ttail k\n\tj .L3\n.L3:\n\t.section .data\n\t.word\tp+4\n\t.type\tq, @function\n",
            "t.s",
        )
        .unwrap();
        let names: Vec<String> = address_refs(&f).into_iter().map(|(_, n)| n).collect();
        assert_eq!(names, vec!["g", "g", "p"]);
    }

    #[test]
    fn replaces_whole_identifiers_only() {
        assert_eq!(
            replace_identifier("\t.word\tputs, puts2, xputs", "puts", "T"),
            "\t.word\tT, puts2, xputs"
        );
        assert_eq!(replace_identifier("puts+4", "puts", "T"), "T+4");
    }
}
