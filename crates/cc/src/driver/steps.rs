//! The gcc command of every step of a [`Build`]: compile one C source to assembly, assemble
//! it, compile the other inputs, link. Each keeps the user's options in their order and
//! changes only inputs, outputs and the stage.

use super::args::{InputKind, Item};
use super::plan::{words, Build, Source};
use std::path::Path;

fn text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

impl Build {
    /// `gcc ... -S -o ASM SOURCE`: the user's options (not inputs, `-o`, `-c`/`-S`, `-x`,
    /// link-only options) plus, when dependencies are asked for, `-MF DEP` (moved to
    /// [`Build::dep_file`] afterwards) and `-MQ` [`Build::dep_target`]; plus
    /// `-dumpbase` [`Build::dump_base`] so auxiliary outputs land where gcc would put them;
    /// plus `-fno-lto` when the user asked for `-flto`: the passes work on machine code, and
    /// an `-flto` assembly file would carry GIMPLE that a later LTO link compiles again
    /// without the instrumentation. (Only then: with `-g`, GCC records its options in the
    /// debug information, so an extra option would change the object.)
    pub fn compile_args(&self, source: &Source, asm: &Path, dep: &Path) -> Vec<String> {
        let deps = self.dep_file(source).is_some();
        let mut args: Vec<String> = Vec::new();
        for item in self.items() {
            match item {
                Item::Other(w) | Item::Dump(w) => args.extend(w.iter().cloned()),
                Item::Dep(n, _) if deps && n == "-MF" => {}
                Item::Dep(_, w) => args.extend(w.iter().cloned()),
                _ => {}
            }
        }
        if deps {
            args.extend(["-MF".into(), text(dep)]);
        }
        if let Some(target) = self.dep_target(source) {
            args.extend(["-MQ".into(), target]);
        }
        if let Some(base) = self.dump_base(source) {
            args.extend(["-dumpbase".into(), base]);
        }
        if args.iter().any(|a| a.starts_with("-flto")) {
            args.push("-fno-lto".into());
        }
        args.extend(["-S".into(), "-o".into(), text(asm)]);
        if let Some(lang) = &source.lang {
            args.extend(["-x".into(), lang.clone()]);
        }
        args.push(source.path.clone());
        args
    }

    /// `gcc ... -c ASM -o OBJECT`: the user's target, debug and assembler options (every
    /// [`Item::Other`]: gcc ignores the preprocessor and compiler ones for a `.s` input).
    pub fn assemble_args(&self, asm: &Path, object: &Path) -> Vec<String> {
        let mut args: Vec<String> = Vec::new();
        for item in self.items() {
            if let Item::Other(w) = item {
                args.extend(w.iter().cloned());
            }
        }
        args.extend(["-c".into(), "-o".into(), text(object), text(asm)]);
        args
    }

    /// Under `-c`/`-S`, the command line for the inputs gcc compiles itself (`.S`, `.s`,
    /// C++, ...): everything as given minus the C sources; `None` when there are none.
    pub fn rest_args(&self) -> Option<Vec<String>> {
        let other = self.items().iter().any(|i| {
            matches!(
                i,
                Item::Input {
                    kind: InputKind::Other,
                    ..
                }
            )
        });
        if !other || self.product(&self.sources[0]).is_none() {
            return None;
        }
        let c_inputs: Vec<usize> = self.sources.iter().map(Build::index).collect();
        let mut args = Vec::new();
        for (n, item) in self.items().iter().enumerate() {
            if !c_inputs.contains(&n) {
                args.extend(words(item));
            }
        }
        Some(args)
    }

    /// The link command: everything as given, each C source replaced by its object
    /// (`objects[i]` for `sources[i]`), read as an object even under a `-x` language.
    pub fn link_args(&self, objects: &[&Path]) -> Vec<String> {
        let mut args = Vec::new();
        for (n, item) in self.items().iter().enumerate() {
            let source = self.sources.iter().position(|s| Build::index(s) == n);
            match (source, item) {
                (Some(k), Item::Input { lang, .. }) => match lang {
                    Some(lang) => args.extend([
                        "-x".into(),
                        "none".into(),
                        text(objects[k]),
                        "-x".into(),
                        lang.clone(),
                    ]),
                    None => args.push(text(objects[k])),
                },
                _ => args.extend(words(item)),
            }
        }
        args
    }
}
