//! The ccs-sw switch table's bucket index (docs/ccs.md, "The switch table") in a real linked
//! firmware: after the build every record's pcs reach that record through the index the way
//! the kernel's lookup (kernel/arch/rv32/switch_ccs.h) scans, and a pc in no record reaches
//! none. Skipped (with a message) only when riscv64-unknown-elf-gcc is not installed.

use crate::support::{have_gcc, options, repo_root};
use cactus_cc::switch::table::{index_lookup, INDEX_SYMBOL, RECORD_BYTES, SECTION};
use cactus_firmware::{build, Manifest, Overrides};
use object::{Object, ObjectSection, ObjectSymbol};

#[test]
fn every_pc_of_a_record_reaches_it_through_the_linked_index() {
    if !have_gcc() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let mut m = Manifest::load(&repo_root().join("workloads/ccs/ccs-a2-small.toml")).unwrap();
    m.apply(&Overrides {
        switch: Some("ccs-sw".into()),
        ..Default::default()
    })
    .unwrap();
    let built = build(&m, &options(out.path())).unwrap();
    let elf = std::fs::read(&built.elf).unwrap();
    let file = object::File::parse(&*elf).unwrap();
    let table = file.section_by_name(SECTION).unwrap().data().unwrap();
    let word = |c: &[u8], i: usize| u32::from_le_bytes(c[i..i + 4].try_into().unwrap());
    let records: Vec<(u32, u32)> = table
        .chunks_exact(RECORD_BYTES)
        .map(|c| (word(c, 0), word(c, 4)))
        .collect();
    assert!(records.len() > 10, "{} records", records.len());
    let sym = file
        .symbols()
        .find(|s| s.name() == Ok(INDEX_SYMBOL))
        .expect("the index symbol");
    let section = file.section_by_index(sym.section_index().unwrap()).unwrap();
    let data = section.data().unwrap();
    let at = (sym.address() - section.address()) as usize;
    let index = &data[at..at + sym.size() as usize];
    assert!(word(index, 8) > 0, "the index was not filled");
    let (lo, hi) = (records[0].0 - 8, records.last().unwrap().1 + 8);
    for pc in (lo..hi).step_by(2) {
        let want = records.iter().position(|r| r.0 <= pc && pc < r.1);
        assert_eq!(index_lookup(index, &records, pc), want, "pc {pc:#x}");
    }
}
