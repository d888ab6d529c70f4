//! What `cactus cc` does with one gcc command line: hand it to gcc unchanged, or compile its C
//! sources through assembly ([`Build`]); and, for a build, the exact gcc command of every step
//! and the names gcc itself would give each output (object, `.s`, dependency file, auxiliary
//! dump base).

use super::args::{parse, InputKind, Item, Stage};
use crate::CcError;
use std::path::Path;

/// Why a command line goes to gcc unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passthrough {
    /// An information query (`--version`, `-print-*`, `-dumpmachine`, `--help`, `-###`).
    Query,
    /// Preprocessing only: `-E`, or `-M`/`-MM` (which imply `-E`, even beside `-MD`).
    Preprocess,
    /// `-fsyntax-only`: nothing is written.
    SyntaxOnly,
    /// No C source among the inputs (link steps, `.S`-only compiles, `-v` alone).
    NoCSource,
    /// A combination gcc rejects itself (`-o` with several inputs under `-c`/`-S`, an object
    /// to standard output): gcc reports it.
    Rejected,
}

/// What to do with one gcc command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Run gcc with the arguments exactly as given.
    Passthrough(Passthrough),
    /// Compile the C sources through assembly (and link, for [`Stage::Link`]).
    Build(Build),
}

/// One C source of a [`Build`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The path as written on the command line.
    pub path: String,
    /// The `-x` language in force for it, if any.
    pub lang: Option<String>,
    /// Its position among the parsed items.
    index: usize,
}

/// A command line that compiles C: its sources, where gcc stops and its `-o`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Build {
    items: Vec<Item>,
    /// [`Stage::Assemble`] (`-S`), [`Stage::Object`] (`-c`) or [`Stage::Link`].
    pub stage: Stage,
    /// The C sources, in command-line order.
    pub sources: Vec<Source>,
    /// The `-o` value (the last one), if any.
    pub output: Option<String>,
}

/// Classifies `args` (the words after `cactus cc ... --`, response files expanded). Errors
/// only for what we cannot hand through faithfully (C read from standard input, an option
/// missing its value).
pub fn classify(args: &[String]) -> Result<Plan, CcError> {
    let items = parse(args)?;
    let any = |f: &dyn Fn(&Item) -> bool| items.iter().any(f);
    if any(&|i| matches!(i, Item::Query(_))) {
        return Ok(Plan::Passthrough(Passthrough::Query));
    }
    let stage = items
        .iter()
        .filter_map(|i| match i {
            Item::Stage(s) => Some(*s),
            _ => None,
        })
        .min()
        .unwrap_or(Stage::Link);
    if stage == Stage::Preprocess
        || any(&|i| matches!(i, Item::Dep(n, _) if n == "-M" || n == "-MM"))
    {
        return Ok(Plan::Passthrough(Passthrough::Preprocess));
    }
    if any(&|i| matches!(i, Item::Other(w) if w[0] == "-fsyntax-only")) {
        return Ok(Plan::Passthrough(Passthrough::SyntaxOnly));
    }
    let mut sources = Vec::new();
    let mut compiled = 0;
    for (index, item) in items.iter().enumerate() {
        if let Item::Input { path, kind, lang } = item {
            if *kind != InputKind::Linker {
                compiled += 1;
            }
            if *kind == InputKind::C {
                if path == "-" {
                    return Err(CcError::Usage(
                        "-: compiling C from standard input is not supported; give a file".into(),
                    ));
                }
                let (path, lang) = (path.clone(), lang.clone());
                sources.push(Source { path, lang, index });
            }
        }
    }
    if sources.is_empty() {
        return Ok(Plan::Passthrough(Passthrough::NoCSource));
    }
    let output = items.iter().rev().find_map(|i| match i {
        Item::Output(o) => Some(o.clone()),
        _ => None,
    });
    if stage != Stage::Link {
        let to_stdout = stage == Stage::Object && output.as_deref() == Some("-");
        if to_stdout || (output.is_some() && compiled > 1) {
            return Ok(Plan::Passthrough(Passthrough::Rejected));
        }
    }
    Ok(Plan::Build(Build {
        items,
        stage,
        sources,
        output,
    }))
}

/// `path`'s file name without its last suffix (gcc's `%b`).
pub fn stem(path: &str) -> String {
    let base = Path::new(path)
        .file_name()
        .map(|b| b.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string());
    match base.rsplit_once('.') {
        Some((s, _)) if !s.is_empty() => s.to_string(),
        _ => base,
    }
}

/// `path` with its last suffix replaced by `.ext` (gcc's `%.ext%*`).
fn with_suffix(path: &str, ext: &str) -> String {
    Path::new(path)
        .with_extension(ext)
        .to_string_lossy()
        .into_owned()
}

impl Build {
    fn has_dep(&self, names: &[&str]) -> bool {
        self.items
            .iter()
            .any(|i| matches!(i, Item::Dep(n, _) if names.contains(&n.as_str())))
    }

    /// The file gcc would write for `source` under `-S` or `-c` (the `-o` value, or the
    /// source's stem with `.s`/`.o` in the working directory); `None` when linking.
    pub fn product(&self, source: &Source) -> Option<String> {
        let ext = match self.stage {
            Stage::Assemble => "s",
            Stage::Object => "o",
            _ => return None,
        };
        Some(
            self.output
                .clone()
                .unwrap_or_else(|| format!("{}.{ext}", stem(&source.path))),
        )
    }

    /// The dependency file gcc would write for `source` (`-MD`/`-MMD` given): the `-MF`
    /// value, else the `-o` value with suffix `.d`, else the source's stem `.d`.
    pub fn dep_file(&self, source: &Source) -> Option<String> {
        if !self.has_dep(&["-MD", "-MMD"]) {
            return None;
        }
        let mf = self.items.iter().rev().find_map(|i| match i {
            Item::Dep(n, w) if n == "-MF" => Some(mf_value(w)),
            _ => None,
        });
        Some(mf.unwrap_or_else(|| match &self.output {
            Some(o) => with_suffix(o, "d"),
            None => format!("{}.d", stem(&source.path)),
        }))
    }

    /// The make target gcc would name in the dependency file when the user gave no
    /// `-MT`/`-MQ`: the `-o` value, else the source's stem `.o`.
    pub fn dep_target(&self, source: &Source) -> Option<String> {
        if !self.has_dep(&["-MD", "-MMD"]) || self.has_dep(&["-MT", "-MQ"]) {
            return None;
        }
        Some(
            self.output
                .clone()
                .unwrap_or_else(|| format!("{}.o", stem(&source.path))),
        )
    }

    /// The base name gcc would give auxiliary outputs (`-fstack-usage`'s `.su`, dumps) of
    /// `source`, when the user set none (`-dumpbase`/`-dumpdir`).
    pub fn dump_base(&self, source: &Source) -> Option<String> {
        if self.items.iter().any(|i| matches!(i, Item::Dump(_))) {
            return None;
        }
        match self.product(source) {
            Some(p) if p == "-" => None,
            Some(p) => Some(with_suffix(&p, "")),
            None => {
                let out = self.output.as_deref().unwrap_or("a");
                Some(format!("{out}-{}", stem(&source.path)))
            }
        }
    }
}

/// The file named by a `-MF` item's words (`-MF x.d` or `-MFx.d`).
fn mf_value(words: &[String]) -> String {
    match words {
        [_, v] => v.clone(),
        [w] => w.trim_start_matches("-MF").to_string(),
        _ => String::new(),
    }
}

/// The words of `item` as gcc received them.
pub(super) fn words(item: &Item) -> Vec<String> {
    match item {
        Item::Input { path, .. } => vec![path.clone()],
        Item::Output(o) => vec!["-o".into(), o.clone()],
        Item::Stage(Stage::Preprocess) => vec!["-E".into()],
        Item::Stage(Stage::Assemble) => vec!["-S".into()],
        Item::Stage(Stage::Object) => vec!["-c".into()],
        Item::Stage(Stage::Link) => vec![],
        Item::Library(w)
        | Item::Lang(w, _)
        | Item::Dep(_, w)
        | Item::Link(w)
        | Item::Dump(w)
        | Item::Query(w)
        | Item::Other(w) => w.clone(),
    }
}

impl Build {
    /// The parsed items (for the step builders in `steps.rs`).
    pub(super) fn items(&self) -> &[Item] {
        &self.items
    }

    /// The item position of `source`.
    pub(super) fn index(source: &Source) -> usize {
        source.index
    }
}
