//! Fuzz properties over arbitrary input, bounded to a few seconds in `cargo test` (raise
//! `PROPTEST_CASES` for a longer run): every 32-bit word and 16-bit parcel either decodes or
//! is a decode error, never a panic, and what decodes re-encodes to the same instruction and
//! prints as text that parses back to it; any short line of assembly-like text either parses
//! or is an error, and what parses prints as text that parses back to the same statement
//! (parse → print → parse is the identity). Failing inputs are kept by proptest in
//! `tests/fuzz.proptest-regressions` and replayed first on every run.

use cactus_isa::asm::parse_statement;
use cactus_isa::{decode, decode_compressed, encode, encode_compressed};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn any_word_decodes_and_reencodes_or_is_an_error(w in any::<u32>()) {
        let Ok(d) = decode(w) else { return Ok(()) };
        if d.len == 2 {
            let c = decode_compressed(w as u16).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let h = encode_compressed(&c).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(decode_compressed(h).ok(), Some(c));
        } else {
            let again = encode(&d.inst).map_err(|e| TestCaseError::fail(format!("{w:#010x}: {e}")))?;
            prop_assert_eq!(decode(again).map(|x| x.inst).ok(), Some(d.inst), "{:#010x}", w);
        }
        let text = d.inst.to_string();
        let parsed = parse_statement(&text).map_err(|e| TestCaseError::fail(format!("`{text}`: {e}")))?;
        prop_assert_eq!(parsed.expand().ok(), Some(vec![d.inst]), "{}", text);
    }

    #[test]
    fn any_parcel_decodes_or_is_an_error(h in any::<u16>()) {
        if let Ok(c) = decode_compressed(h) {
            let text = c.to_string();
            let parsed = parse_statement(&text).map_err(|e| TestCaseError::fail(format!("`{text}`: {e}")))?;
            prop_assert_eq!(parsed.expand().ok(), Some(vec![c.expand()]), "{}", text);
        }
    }

    #[test]
    fn any_text_parses_print_parse_identically_or_is_an_error(
        s in "[a-z][a-z.]{0,6}( [a-z0-9%(),+-]{0,8}(,[ a-z0-9%(),+-]{0,8}){0,3})?"
    ) {
        let Ok(st) = parse_statement(&s) else { return Ok(()) };
        let text = st.to_string();
        let again = parse_statement(&text).map_err(|e| TestCaseError::fail(format!("`{s}` printed as `{text}`: {e}")))?;
        prop_assert_eq!(again, st, "`{}` printed as `{}`", s, text);
    }
}
