//! Fuzz property of the GNU assembly file parser and printer, bounded to a few seconds in
//! `cargo test` (raise `PROPTEST_CASES` for a longer run): a file of GCC-like lines (labels,
//! directives, instructions, comments) mixed with arbitrary text either parses or is an
//! `AsmError`, never a panic, and what parses prints as text that parses back to the same
//! items (parse → print → parse is the identity; line numbers may move, as a label is
//! printed on its own line). Failing inputs are kept by proptest in
//! `tests/fuzz.proptest-regressions` and replayed first on every run.

use cactus_asm::AsmFile;
use proptest::prelude::*;

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z_.][a-z0-9_.]{0,8}:".prop_map(|s| s),
        Just("\t.text".to_string()),
        Just("\t.align\t2".to_string()),
        "\t\\.(globl|type|size|section|word|half|byte|string|set)\t[a-z0-9_.,@\" -]{0,16}",
        "\t(addi|lw|sw|add|beq|bne|jal|jalr|lui|call|tail|ret|li|mv|j|nop|csrr|csrw)\t[a-z0-9%(),+-]{0,20}",
        "\t[a-z]{1,6}\t[a-z0-9%(),+-]{0,12}",
        "[ -~]{0,24}",
        "\t# [ -~]{0,12}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    #[test]
    fn parse_print_parse_is_the_identity(lines in proptest::collection::vec(line(), 0..12)) {
        let text = lines.join("\n") + "\n";
        let Ok(file) = AsmFile::parse(&text, "fuzz.s") else { return Ok(()) };
        let printed = file.to_string();
        let again = AsmFile::parse(&printed, "fuzz.s")
            .map_err(|e| TestCaseError::fail(format!("printed text does not parse: {e}\n{printed}")))?;
        // Items, not line numbers: printing puts a label on its own line.
        let (a, b): (Vec<_>, Vec<_>) = (file.items().collect(), again.items().collect());
        prop_assert_eq!(a, b, "input:\n{}\nprinted:\n{}", text, printed);
    }
}
