//! Fuzz property over untrusted manifests, bounded to a few seconds in `cargo test` (raise
//! `PROPTEST_CASES` for a longer run): a mutated manifest either validates or is a
//! `ManifestError` whose message starts with the file name, never a panic. Failing inputs are
//! kept by proptest in `tests/fuzz_manifest.proptest-regressions` and replayed first.

use cactus_firmware::Manifest;
use proptest::prelude::*;
use std::path::PathBuf;

fn demo() -> (PathBuf, String) {
    let path = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../workloads/demo/demo.toml"
    ));
    let text = std::fs::read_to_string(&path).unwrap();
    (path, text)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn mutated_manifests_validate_or_name_the_file(
        edits in proptest::collection::vec((0usize..4000, "[ -~\n]{0,6}"), 1..4),
    ) {
        let (path, mut text) = demo();
        for (at, s) in edits {
            let mut at = at.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let mut end = (at + s.len()).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.replace_range(at..end, &s);
        }
        if let Err(e) = Manifest::parse(&text, &path) {
            let msg = e.to_string();
            prop_assert!(msg.starts_with(&path.display().to_string()), "{}", msg);
        }
    }
}

#[test]
fn the_unmutated_demo_validates() {
    let (path, text) = demo();
    Manifest::parse(&text, &path).expect("the demo manifest is valid");
}
