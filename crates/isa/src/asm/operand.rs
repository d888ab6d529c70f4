//! Operand values of assembly statements: numbers, symbolic expressions with an optional
//! relocation operator, and the lexical helpers that recognise them.

use std::fmt::{self, Display, Formatter};

/// A relocation operator as GCC writes it before a parenthesised expression (`%hi(sym)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reloc {
    /// `%hi`: upper 20 bits (with rounding) of an absolute address.
    Hi,
    /// `%lo`: low 12 bits of an absolute address.
    Lo,
    /// `%pcrel_hi`: upper 20 bits of a pc-relative address.
    PcrelHi,
    /// `%pcrel_lo`: low 12 bits, referring to the label of the matching `%pcrel_hi`.
    PcrelLo,
    /// `%got_pcrel_hi`: upper bits of the GOT entry's pc-relative address.
    GotPcrelHi,
    /// `%tprel_hi`: upper bits of a TLS offset from `tp`.
    TprelHi,
    /// `%tprel_lo`: low bits of a TLS offset from `tp`.
    TprelLo,
    /// `%tprel_add`: marks the `add rd,rs,tp` of a TLS access (no bits of its own).
    TprelAdd,
    /// `%tls_ie_pcrel_hi`: initial-exec TLS GOT entry.
    TlsIePcrelHi,
    /// `%tls_gd_pcrel_hi`: general-dynamic TLS GOT entry.
    TlsGdPcrelHi,
}

const RELOC_NAMES: [(Reloc, &str); 10] = [
    (Reloc::Hi, "hi"),
    (Reloc::Lo, "lo"),
    (Reloc::PcrelHi, "pcrel_hi"),
    (Reloc::PcrelLo, "pcrel_lo"),
    (Reloc::GotPcrelHi, "got_pcrel_hi"),
    (Reloc::TprelHi, "tprel_hi"),
    (Reloc::TprelLo, "tprel_lo"),
    (Reloc::TprelAdd, "tprel_add"),
    (Reloc::TlsIePcrelHi, "tls_ie_pcrel_hi"),
    (Reloc::TlsGdPcrelHi, "tls_gd_pcrel_hi"),
];

impl Reloc {
    /// The operator's name without `%` (`"pcrel_hi"`).
    pub fn name(self) -> &'static str {
        RELOC_NAMES
            .iter()
            .find(|(r, _)| *r == self)
            .map_or("", |(_, n)| n)
    }

    /// The operator called `name` (without `%`).
    pub fn from_name(name: &str) -> Option<Reloc> {
        RELOC_NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(r, _)| *r)
    }
}

/// A symbolic expression kept verbatim (`sym+4`, `.L3`, `.LANCHOR0+256`), optionally under
/// a relocation operator (`%lo(sym)` has `reloc = Some(Lo)` and `text = "sym"`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Expr {
    /// The relocation operator, if the operand was `%op(text)`.
    pub reloc: Option<Reloc>,
    /// The expression text, exactly as written (trimmed).
    pub text: String,
}

impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.reloc {
            Some(r) => write!(f, "%{}({})", r.name(), self.text),
            None => f.write_str(&self.text),
        }
    }
}

/// An immediate operand: a known number, or a symbolic expression resolved by the linker.
/// Numbers follow [`crate::Inst`]'s conventions for the field they fill (e.g. `lui` holds
/// the shifted value, branch targets the pc-relative offset).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Imm {
    /// A known value.
    Num(i32),
    /// A symbolic expression.
    Sym(Expr),
}

impl Imm {
    /// The number, if known.
    pub fn num(&self) -> Option<i32> {
        match self {
            Imm::Num(n) => Some(*n),
            Imm::Sym(_) => None,
        }
    }

    /// The number, or 0 for a symbol (used where only the shape of an expansion matters).
    pub(crate) fn num_or_zero(&self) -> i32 {
        self.num().unwrap_or(0)
    }
}

/// Parses an integer literal as GNU as reads it: optional `-`/`+`, then decimal, `0x` hex,
/// `0b` binary or leading-`0` octal. `None` if `s` is not exactly one literal.
pub(crate) fn parse_int(s: &str) -> Option<i64> {
    let (neg, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) = if let Some(h) = body.strip_prefix("0x").or(body.strip_prefix("0X")) {
        (16, h)
    } else if let Some(b) = body.strip_prefix("0b").or(body.strip_prefix("0B")) {
        (2, b)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let v = i64::from_str_radix(digits, radix).ok()?;
    Some(if neg { -v } else { v })
}

/// Parses an immediate operand: a literal (which must lie in `min..=max`), `%op(expr)`, or
/// any other text as a verbatim expression. `Err` names the problem.
pub(crate) fn parse_imm(s: &str, min: i64, max: i64) -> Result<Imm, String> {
    if let Some(v) = parse_int(s) {
        if !(min..=max).contains(&v) {
            return Err(format!("`{s}` is out of range {min}..={max}"));
        }
        return Ok(Imm::Num(v as i32));
    }
    parse_expr(s).map(Imm::Sym)
}

/// Parses a symbolic operand (`sym+4`, `%lo(sym)`). Rejects empty text, unknown `%`
/// operators and text containing registers-in-parentheses or whitespace-separated words.
pub(crate) fn parse_expr(s: &str) -> Result<Expr, String> {
    if s.is_empty() {
        return Err("missing operand".into());
    }
    if let Some(rest) = s.strip_prefix('%') {
        let open = rest
            .find('(')
            .ok_or_else(|| format!("`{s}`: expected `%op(expr)`"))?;
        let reloc = Reloc::from_name(&rest[..open])
            .ok_or_else(|| format!("unknown relocation operator `%{}`", &rest[..open]))?;
        let inner = &rest[open + 1..];
        if matching_close(inner) != Some(inner.len() - 1) {
            return Err(format!("`{s}`: unbalanced parentheses"));
        }
        let text = inner[..inner.len() - 1].trim();
        if text.is_empty() {
            return Err(format!("`{s}`: empty expression"));
        }
        return Ok(Expr {
            reloc: Some(reloc),
            text: text.to_string(),
        });
    }
    let ok_char = |c: char| c.is_ascii_alphanumeric() || "_.$@+-*/()<>&|^~!".contains(c);
    if !s.chars().all(ok_char) {
        return Err(format!("`{s}` is not a number or symbolic expression"));
    }
    Ok(Expr {
        reloc: None,
        text: s.to_string(),
    })
}

/// Index (within `s`) of the `)` closing a parenthesis opened just before `s`.
pub(crate) fn matching_close(s: &str) -> Option<usize> {
    let mut depth = 1;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Splits `offset(base)` into `(offset, base)`; `offset` may be empty or contain
/// parentheses itself (`%lo(sym)(a5)`). `None` if `s` does not end in `(...)`.
pub(crate) fn split_mem(s: &str) -> Option<(&str, &str)> {
    let body = s.strip_suffix(')')?;
    let open = body.rfind('(')?;
    Some((body[..open].trim(), body[open + 1..].trim()))
}

/// Splits an operand list on top-level commas (commas inside parentheses stay).
pub(crate) fn split_operands(s: &str) -> Vec<&str> {
    let s = s.trim();
    if s.is_empty() {
        return Vec::new();
    }
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(s[start..].trim());
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_literals_follow_gas() {
        assert_eq!(parse_int("42"), Some(42));
        assert_eq!(parse_int("-2048"), Some(-2048));
        assert_eq!(parse_int("0x7ff"), Some(0x7ff));
        assert_eq!(parse_int("010"), Some(8));
        assert_eq!(parse_int("0b101"), Some(5));
        assert_eq!(parse_int("0"), Some(0));
        assert_eq!(parse_int("sym"), None);
        assert_eq!(parse_int("4+4"), None);
        assert_eq!(parse_int("09"), None);
    }

    #[test]
    fn expressions_keep_text_and_reloc() {
        let e = parse_expr("%lo(.LC1+4)").unwrap();
        assert_eq!(
            e,
            Expr {
                reloc: Some(Reloc::Lo),
                text: ".LC1+4".into()
            }
        );
        assert_eq!(e.to_string(), "%lo(.LC1+4)");
        assert_eq!(parse_expr("sym+4").unwrap().reloc, None);
        assert!(parse_expr("%bogus(x)").is_err());
        assert!(parse_expr("%hi(x").is_err());
        assert!(parse_expr("a b").is_err());
    }

    #[test]
    fn memory_operands_split_at_the_last_parenthesis() {
        assert_eq!(split_mem("%lo(sym)(a5)"), Some(("%lo(sym)", "a5")));
        assert_eq!(split_mem("-8(sp)"), Some(("-8", "sp")));
        assert_eq!(split_mem("(a1)"), Some(("", "a1")));
        assert_eq!(split_mem("sym"), None);
        assert_eq!(
            split_operands("a0, %lo(x)(a5) ,b"),
            vec!["a0", "%lo(x)(a5)", "b"]
        );
    }
}
