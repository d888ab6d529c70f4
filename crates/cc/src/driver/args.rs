//! Reading a gcc command line the way gcc's driver does: which words are options (with the
//! value some of them take in the next word), which are inputs, and in which language gcc
//! reads each input (its `-x` language or the one its suffix implies).

use crate::CcError;

/// How gcc treats one input file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// C (`.c`, `-x c`) or preprocessed C (`.i`, `-x cpp-output`): compiled and instrumented.
    C,
    /// Another language gcc compiles or assembles itself (`.S`, `.s`, C++, headers, ...):
    /// passed to gcc untouched.
    Other,
    /// An object, archive or anything gcc hands to the linker (`.o`, `.a`, unknown suffix).
    Linker,
}

/// A compilation stage option: where gcc stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// `-E`: preprocess only.
    Preprocess,
    /// `-S`: stop after compiling to assembly.
    Assemble,
    /// `-c`: stop after producing objects.
    Object,
    /// Neither: compile and link.
    Link,
}

/// One word (or option with its separate value) of a gcc command line, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// An input file; `lang` is the `-x` language in effect at that position (not `none`).
    Input {
        /// The path as written.
        path: String,
        /// How gcc reads it.
        kind: InputKind,
        /// The `-x` language in force, if any.
        lang: Option<String>,
    },
    /// `-lNAME` / `-l NAME`: a library for the linker (the words as written).
    Library(Vec<String>),
    /// `-o FILE` in any spelling (`-oFILE`, `--output=FILE`): the output file.
    Output(String),
    /// `-c`, `-S` or `-E`.
    Stage(Stage),
    /// `-x LANG` in any spelling: the words and the language (`none` resets).
    Lang(Vec<String>, String),
    /// A dependency option (`-M`, `-MD`, `-MF FILE`, ...): its name and words.
    Dep(String, Vec<String>),
    /// An option only the link step uses (`-L`, `-T`, `-Wl,`, `-Xlinker`, `-nostdlib`, ...).
    Link(Vec<String>),
    /// `-dumpbase`, `-dumpdir`, `-dumpbase-ext`: names of auxiliary outputs.
    Dump(Vec<String>),
    /// An option after which gcc only prints information (`--version`, `-print-*`, ...).
    Query(Vec<String>),
    /// Any other option (target, optimisation, warnings, preprocessor): used by every step.
    Other(Vec<String>),
}

/// Options whose value may be the next word (as well as joined, for most).
const SEPARATE: &[&str] = &[
    "-o",
    "-x",
    "-I",
    "-D",
    "-U",
    "-A",
    "-B",
    "-G",
    "-include",
    "-imacros",
    "-idirafter",
    "-iprefix",
    "-iwithprefix",
    "-iwithprefixbefore",
    "-isystem",
    "-isysroot",
    "-iquote",
    "-imultilib",
    "-imultiarch",
    "-MF",
    "-MT",
    "-MQ",
    "-L",
    "-l",
    "-T",
    "-Tbss",
    "-Tdata",
    "-Ttext",
    "-u",
    "-z",
    "-e",
    "-Xlinker",
    "-Xassembler",
    "-Xpreprocessor",
    "-aux-info",
    "--param",
    "-dumpbase",
    "-dumpbase-ext",
    "-dumpdir",
    "-wrapper",
    "-specs",
    "--specs",
    "--sysroot",
    "--output",
];

/// Options only the link step reads.
const LINK_ONLY: &[&str] = &[
    "-L", "-T", "-Tbss", "-Tdata", "-Ttext", "-u", "-z", "-e", "-Xlinker",
];

/// Flags only the link step reads (exact words).
const LINK_FLAGS: &[&str] = &[
    "-nostdlib",
    "-nostartfiles",
    "-nodefaultlibs",
    "-nolibc",
    "-static",
    "-shared",
    "-static-libgcc",
    "-rdynamic",
    "-s",
    "-pie",
    "-no-pie",
    "-static-pie",
];

/// Splits `args` (response files already expanded, see [`super::response`]) into
/// [`Item`]s. Fails only on a separate-value option with no value.
pub fn parse(args: &[String]) -> Result<Vec<Item>, CcError> {
    let mut items = Vec::new();
    let mut lang: Option<String> = None;
    let mut i = 0;
    while i < args.len() {
        let word = &args[i];
        i += 1;
        if word == "-" || !word.starts_with('-') {
            let kind = kind_of(word, lang.as_deref());
            items.push(Item::Input {
                path: word.clone(),
                kind,
                lang: lang.clone(),
            });
            continue;
        }
        let mut words = vec![word.clone()];
        let (name, value) = if SEPARATE.contains(&word.as_str()) {
            let Some(v) = args.get(i) else {
                return Err(CcError::Usage(format!("{word}: missing argument")));
            };
            i += 1;
            words.push(v.clone());
            (word.as_str(), v.clone())
        } else {
            split_joined(word)
        };
        items.push(classify(name, value, words, &mut lang));
    }
    Ok(items)
}

/// For a word that carries its value (`-ofoo`, `--output=foo`, `-MFx.d`, `-xc`), the option
/// name and the value; other words give `(word, "")`.
fn split_joined(word: &str) -> (&str, String) {
    if let Some((name, v)) = word.split_once('=') {
        if matches!(name, "--output" | "--sysroot" | "--specs" | "-specs") {
            return (name, v.to_string());
        }
    }
    for name in ["-MF", "-MT", "-MQ"] {
        if let Some(v) = word.strip_prefix(name) {
            return (name, v.to_string());
        }
    }
    for name in ["-o", "-x", "-l", "-L", "-T"] {
        if let Some(v) = word.strip_prefix(name) {
            if !v.is_empty() {
                return (name, v.to_string());
            }
        }
    }
    (word, String::new())
}

/// The item for option `name` (value `value`, words `words`); updates the `-x` language.
fn classify(name: &str, value: String, words: Vec<String>, lang: &mut Option<String>) -> Item {
    match name {
        "-o" | "--output" => Item::Output(value),
        "-c" => Item::Stage(Stage::Object),
        "-S" => Item::Stage(Stage::Assemble),
        "-E" => Item::Stage(Stage::Preprocess),
        "-x" => {
            *lang = (value != "none").then(|| value.clone());
            Item::Lang(words, value)
        }
        "-l" => Item::Library(words),
        "-M" | "-MM" | "-MD" | "-MMD" | "-MF" | "-MT" | "-MQ" | "-MP" | "-MG" => {
            Item::Dep(name.to_string(), words)
        }
        "-dumpbase" | "-dumpbase-ext" | "-dumpdir" => Item::Dump(words),
        "--version" | "--help" | "--target-help" | "-dumpmachine" | "-dumpversion"
        | "-dumpfullversion" | "-dumpspecs" | "-###" => Item::Query(words),
        _ if name.starts_with("-print-") || name.starts_with("--help=") => Item::Query(words),
        _ if LINK_ONLY.contains(&name) || LINK_FLAGS.contains(&name) => Item::Link(words),
        _ if name.starts_with("-Wl,") => Item::Link(words),
        _ => Item::Other(words),
    }
}

/// How gcc reads `path` under `-x lang` (or by suffix when no language is forced).
pub fn kind_of(path: &str, lang: Option<&str>) -> InputKind {
    if let Some(lang) = lang {
        return match lang {
            "c" | "cpp-output" => InputKind::C,
            _ => InputKind::Other,
        };
    }
    let suffix = path.rsplit_once('.').map(|(_, s)| s).unwrap_or("");
    if path
        .rsplit(['/', '\\'])
        .next()
        .is_some_and(|b| !b.contains('.'))
    {
        return InputKind::Linker;
    }
    match suffix {
        "c" | "i" => InputKind::C,
        "s" | "S" | "sx" | "h" | "cc" | "cp" | "cxx" | "cpp" | "CPP" | "c++" | "C" | "ii"
        | "hh" | "hpp" | "hxx" | "H" | "m" | "mi" | "M" | "mm" | "ads" | "adb" | "f" | "F"
        | "for" | "f90" | "F90" | "d" | "go" | "rs" => InputKind::Other,
        _ => InputKind::Linker,
    }
}
