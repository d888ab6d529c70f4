//! The entries the passes generate (line 0: made by a pass, not read from a file): an
//! instruction, an item, a directive. One place, so every pass prints what it adds the same way.

use cactus_asm::{AsmFile, Entry, Item};
use cactus_isa::asm::Statement;
use std::collections::BTreeMap;

/// `item` as a generated entry.
pub(crate) fn entry(item: Item) -> Entry {
    Entry { line: 0, item }
}

/// The instruction `text`; a pass generates only instructions it knows to be valid, so an
/// invalid one is a bug of the pass (panics, naming it).
pub(crate) fn inst(text: &str) -> Entry {
    let s = Statement::parse(text).unwrap_or_else(|e| panic!("generated `{text}`: {e}"));
    entry(Item::Inst(s))
}

/// The directive `text` (its name is its first word).
pub(crate) fn directive(text: &str) -> Entry {
    let name = text.split_whitespace().next().unwrap_or(text).to_string();
    entry(Item::Directive {
        name,
        text: text.to_string(),
    })
}

/// Puts every list of `inserts` into `file` before the entry at its index (a list at the
/// number of entries goes at the end); the file's own entries keep their order.
pub(crate) fn splice(file: &mut AsmFile, mut inserts: BTreeMap<usize, Vec<Entry>>) {
    let old = std::mem::take(&mut file.entries);
    let len = old.len();
    for (i, e) in old.into_iter().enumerate() {
        if let Some(ins) = inserts.remove(&i) {
            file.entries.extend(ins);
        }
        file.entries.push(e);
    }
    if let Some(ins) = inserts.remove(&len) {
        file.entries.extend(ins);
    }
}
