//! Validation of one `[[interrupt]]`: a handler attached to a PLIC source at a priority, or to
//! the machine software interrupt (docs/interrupts.md).

use super::raw::{RawInterrupt, RawSource};
use super::validate::{is_c_ident, Ctx};
use crate::error::ManifestError;

/// Highest PLIC source id the kernel accepts (`PORT_IRQ_SOURCES - 1`, kernel/arch/rv32/plic.h).
pub const MAX_SOURCE: i64 = 31;
/// Highest PLIC priority (`PORT_IRQ_PRIO_MAX`).
pub const MAX_PRIORITY: i64 = 7;

/// Where an interrupt comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum InterruptSource {
    /// The machine software interrupt (CLINT `msip`; `cactus_irq_raise_software`).
    Software,
    /// A PLIC source, 1..=[`MAX_SOURCE`] (QEMU virt: the UART is 10).
    Plic(u32),
}

impl InterruptSource {
    /// The C expression of the source for `cactus_irq_attach`.
    pub fn c_expr(self) -> String {
        match self {
            InterruptSource::Software => "CACTUS_IRQ_SOFTWARE".to_string(),
            InterruptSource::Plic(n) => format!("{n}u"),
        }
    }
}

/// One handler, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interrupt {
    /// The source it serves; unique in the manifest.
    pub source: InterruptSource,
    /// The handler, `void f(uint32_t source)`, defined in some source of the firmware.
    pub handler: String,
    /// PLIC priority 1..=[`MAX_PRIORITY`] (higher nests into lower); 0 for the software
    /// interrupt, which every PLIC source may preempt.
    pub priority: u32,
    /// A direct handler (`direct = true`, the software interrupt only): an interrupt function
    /// `void f(void)` defined with `CACTUS_DIRECT_ISR_SOFTWARE`, entered from its own vector
    /// slot with no register save (docs/interrupts.md, "Direct handlers").
    pub direct: bool,
}

pub(super) fn interrupt(
    cx: &Ctx,
    i: usize,
    raw: &RawInterrupt,
) -> Result<Interrupt, ManifestError> {
    let key = |field: &str| format!("interrupt[{i}].{field}");
    let source = match raw.source.get_ref() {
        RawSource::Name(n) if n == "software" => InterruptSource::Software,
        RawSource::Name(n) => {
            return Err(cx.at(
                &raw.source,
                &key("source"),
                format!("\"{n}\" is not a source: give a PLIC source number or \"software\""),
            ))
        }
        RawSource::Id(n) if (1..=MAX_SOURCE).contains(n) => InterruptSource::Plic(*n as u32),
        RawSource::Id(n) => {
            return Err(cx.at(
                &raw.source,
                &key("source"),
                format!("PLIC source {n} is out of range (1..={MAX_SOURCE})"),
            ))
        }
    };
    if !is_c_ident(raw.handler.get_ref()) {
        return Err(cx.at(
            &raw.handler,
            &key("handler"),
            format!("\"{}\" is not a C function name", raw.handler.get_ref()),
        ));
    }
    let priority = match (source, &raw.priority) {
        (InterruptSource::Software, None) => 0,
        (InterruptSource::Software, Some(p)) => {
            return Err(cx.at(
                p,
                &key("priority"),
                "the software interrupt has no priority: it is below every PLIC source",
            ))
        }
        (InterruptSource::Plic(_), None) => {
            return Err(cx.err(
                Some(raw.source.span()),
                &key("priority"),
                format!("a PLIC source needs a priority (1..={MAX_PRIORITY})"),
            ))
        }
        (InterruptSource::Plic(_), Some(p)) => cx.int(p, &key("priority"), 1..MAX_PRIORITY + 1)?,
    };
    let direct = match (&raw.direct, source) {
        (None, _) => false,
        (Some(d), InterruptSource::Software) => *d.get_ref(),
        (Some(d), InterruptSource::Plic(_)) => {
            return Err(cx.at(
                d,
                &key("direct"),
                "only the software interrupt can have a direct handler",
            ))
        }
    };
    Ok(Interrupt {
        source,
        handler: raw.handler.get_ref().clone(),
        priority,
        direct,
    })
}
