//! `--size small|full`, the size class every `cactus bench` evaluation takes; each bench's
//! `--size` help says what the class means for it.

use clap::ValueEnum;

/// The size class as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchSize {
    /// The short run (under a minute).
    Small,
    /// The whole evaluation.
    Full,
}

impl From<BenchSize> for cactus_bench::Size {
    fn from(size: BenchSize) -> cactus_bench::Size {
        match size {
            BenchSize::Small => cactus_bench::Size::Small,
            BenchSize::Full => cactus_bench::Size::Full,
        }
    }
}
