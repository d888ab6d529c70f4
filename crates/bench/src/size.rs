//! The size class every evaluation takes (`--size small|full`): what each means is the
//! evaluation's to say (its inputs, its number of points or samples).

/// Size class of an evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// The short run (tests; under a minute): `-small` manifests, fewer points or samples.
    Small,
    /// The whole evaluation.
    Full,
}

impl Size {
    /// `small` or `full` (the name in a sweep store's parameters).
    pub fn name(self) -> &'static str {
        match self {
            Size::Small => "small",
            Size::Full => "full",
        }
    }

    /// The workload manifest suffix of this size: `-small` or nothing.
    pub fn manifest_suffix(self) -> &'static str {
        match self {
            Size::Small => "-small",
            Size::Full => "",
        }
    }
}
