//! What each function needs below its entry `sp` by itself: its static frame (plus the
//! blind margin when the frame is not understood) and the largest reserve of the
//! uninstrumented code it calls.

use crate::program::Program;
use crate::Reserve;
use crate::{PassOptions, Reserves};
use cactus_asm::callgraph::Target;

/// Everything the decision needs besides the program.
pub struct Context<'a> {
    /// Pass options (rules, K, blind margin, whole-program mode).
    pub opts: &'a PassOptions,
    /// Reserves of uninstrumented code.
    pub reserves: &'a Reserves,
    /// Unit origins (for messages).
    pub origins: &'a [String],
    /// Per unit: library code (K = k_lib).
    pub library: &'a [bool],
    /// Functions (unit, name) where the preempt-traps pass spills a register below `sp`
    /// (`crate::preempt::RED_ZONE` bytes): their need below `sp` covers it.
    pub red_zone: &'a std::collections::BTreeMap<(usize, String), u32>,
}

/// Per-function needs before any rolling.
pub struct Needs {
    /// Own frame in bytes (with the blind margin where the frame is not understood).
    pub base: Vec<u32>,
    /// Largest reserve among the uninstrumented functions called or tail-called.
    pub reserve: Vec<u32>,
    /// One warning per blind margin used.
    pub warnings: Vec<String>,
}

/// The needs of every function of `p`. A callee defined in no unit and not listed in the
/// reserves is instrumented code that checks itself (0).
pub fn own_needs(p: &Program, cx: &Context) -> Needs {
    let n = p.funcs.len();
    let mut warnings = Vec::new();
    let mut base = vec![0u32; n];
    let mut reserve = vec![0u32; n];
    for f in 0..n {
        let info = &p.funcs[f];
        base[f] = info.frame.static_size;
        let why = if !info.frame.exact {
            Some("frame not understood")
        } else if info.stack.save_restore {
            Some("-msave-restore millicode allocates part of the frame")
        } else {
            None
        };
        if let Some(why) = why {
            base[f] = base[f].saturating_add(cx.opts.blind_margin);
            warnings.push(format!(
                "{}: {why}; entry check with blind margin {} bytes",
                p.label(f, cx.origins),
                cx.opts.blind_margin
            ));
        }
        for e in &p.graph.calls[f] {
            if let Target::External(name) = &e.target {
                let r = match cx.reserves.get(name) {
                    Some(Reserve::Bytes(b)) => *b,
                    Some(Reserve::Unbounded(why)) => {
                        warnings.push(format!(
                            "{}: call to `{name}` of unbounded depth ({why}); assuming {} bytes",
                            p.label(f, cx.origins),
                            cx.opts.blind_margin
                        ));
                        cx.opts.blind_margin
                    }
                    None => 0,
                };
                reserve[f] = reserve[f].max(r);
            }
        }
        if let Some(&bytes) = cx.red_zone.get(&(info.unit, info.func.name.clone())) {
            reserve[f] = reserve[f].max(bytes);
        }
    }
    Needs {
        base,
        reserve,
        warnings,
    }
}
