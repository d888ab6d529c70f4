//! The link of a Carousel firmware (`kernel.carousel`, docs/carousel.md "Under the kernel's
//! SRP dispatcher"): the paper's Table III for a manifest's tasks. The kernel, the generated
//! glue and every shared unit go into the OS scratchpad (the kernel script's one `RAM` region
//! moved there); each task's own units (as [`crate::isolate_link::ownership`] assigns them)
//! go into a region of external RAM of its own: its code (text and constants, Carousel code
//! blocks: read-only), then its data (initialised and zero, data blocks: written back), then
//! its stack (its `stack` budget, stack blocks: never copied on open or close), each run of
//! whole 128-byte blocks. The kernel's descriptors, one `carousel_task` per task
//! ([`TABLE`]), are emitted by the script itself from the layout's symbols, so the block
//! counts the kernel uses are the layout's.
//!
//! Guarantee: after the link, [`layout`] reads every task's region back from the ELF and
//! [`check`] refuses a task whose blocks exceed the Carousel's [`BLOCKS`], naming the task and
//! its sizes; a kernel script without the lines this rewrites is an error.

use crate::manifest::Manifest;

/// Blocks of the Carousel unit (`CAROUSEL_BLOCKS`, kernel/arch/rv32/carousel_hw.h; profile
/// `carousel-paper`'s `carousel.blocks`).
pub const BLOCKS: u32 = 16;
/// Bytes of a block (2^`CAROUSEL_BLOCK_BITS`; `carousel.block_bits` = 7).
pub const BLOCK_BYTES: u32 = 128;
/// The OS scratchpad (`OS_SPM_BASE`, `OS_SPM_SIZE`; profile memory `os_spm`).
pub const OS_SPM: (u32, u32) = (0x2000_0000, 0x4_0000);
/// External RAM (`EXTERNAL_RAM_BASE`; profile memory `ram`): the part the link uses.
pub const EXTERNAL: (u32, u32) = (0x8000_0000, 0x0100_0000);
/// The descriptor table's symbol: `const carousel_task cactus_carousel_tasks[FW_NTASKS]`.
pub const TABLE: &str = "cactus_carousel_tasks";

/// The kernel script's RAM region line, its program headers' data segment, the start of its
/// sections and the read-only input rule the table goes before.
const RAM_LINE: &str = "RAM (rwx) :";
const DATA_PHDR: &str = "data PT_LOAD";
const SECTIONS: &str = "SECTIONS";
const RODATA_RULE: &str = "*(.rodata .rodata.*";

const CODE_INPUTS: &str = "(.text .text.* .rodata .rodata.* .srodata .srodata.*)";
const DATA_INPUTS: &str = "(.data .data.* .sdata .sdata.* .sbss .sbss.* .bss .bss.* COMMON)";

/// A task's stack region: its budget rounded up to whole blocks.
pub fn stack_bytes(stack: u32) -> u32 {
    stack.div_ceil(BLOCK_BYTES) * BLOCK_BYTES
}

fn sym(kind: &str, t: usize) -> String {
    format!("__cactus_car_{kind}_{t}")
}

/// The external-RAM sections: the void block of kernel/carousel/carousel.c, then one region
/// per task.
fn regions(m: &Manifest, per_task: &[Vec<String>]) -> String {
    let mut out = format!(
        "    /* Carousel (docs/carousel.md): each task's code, data and stack blocks. */\n    \
         .cactus_car_void : ALIGN({BLOCK_BYTES}) {{\n        \
         *(.carousel.data .carousel.data.*)\n    }} > EXT :carousel\n"
    );
    for (t, task) in m.tasks.iter().enumerate() {
        let files = &per_task[t];
        out.push_str(&format!(
            "    .cactus_car_{t} : ALIGN({BLOCK_BYTES}) {{ /* task {} */\n        {} = .;\n",
            task.name,
            sym("code", t)
        ));
        for f in files {
            out.push_str(&format!("        {f}{CODE_INPUTS}\n"));
        }
        out.push_str(&format!(
            "        {} = .;\n        . = ALIGN({BLOCK_BYTES});\n        {} = .;\n",
            sym("code_used", t),
            sym("data", t)
        ));
        for f in files {
            out.push_str(&format!("        {f}{DATA_INPUTS}\n"));
        }
        out.push_str(&format!(
            "        {} = .;\n        . = ALIGN({BLOCK_BYTES});\n        {} = .;\n        \
             . += {};\n        {} = .;\n    }} > EXT :carousel\n",
            sym("data_used", t),
            sym("stack_low", t),
            stack_bytes(task.stack),
            sym("stack", t)
        ));
    }
    out
}

/// The descriptor table (kernel/include/cactus/carousel.h `carousel_task`: entry, code,
/// stack_top, data, then code, data and stack block counts and a pad byte).
fn table(m: &Manifest) -> String {
    let mut out = format!("        . = ALIGN(4);\n        {TABLE} = .;\n");
    for (t, task) in m.tasks.iter().enumerate() {
        out.push_str(&format!(
            "        LONG({}) LONG({}) LONG({}) LONG({})\n        \
             BYTE(({} - {}) / {BLOCK_BYTES}) BYTE(({} - {}) / {BLOCK_BYTES}) BYTE({}) BYTE(0)\n",
            task.entry,
            sym("code", t),
            sym("stack", t),
            sym("data", t),
            sym("data", t),
            sym("code", t),
            sym("stack_low", t),
            sym("data", t),
            stack_bytes(task.stack) / BLOCK_BYTES
        ));
    }
    out
}

/// `kernel_script` made the link of Carousel firmware `m`; `asm` is the final assembly of
/// each task source, as for [`crate::isolate_link::ownership`].
pub fn script(kernel_script: &str, m: &Manifest, asm: &[String]) -> Result<String, String> {
    let (per_task, _shared) = crate::isolate_link::ownership(m, asm);
    let mut out = String::with_capacity(kernel_script.len() + 4096);
    let mut found = [false; 4];
    let mut lines = kernel_script.lines().peekable();
    while let Some(line) = lines.next() {
        let rule = line.trim();
        if rule.starts_with(RAM_LINE) && !found[0] {
            out.push_str(&format!(
                "    RAM (rwx) : ORIGIN = {:#x}, LENGTH = {}K /* the OS scratchpad */\n    \
                 EXT (rwx) : ORIGIN = {:#x}, LENGTH = {}K /* external RAM: the tasks */\n",
                OS_SPM.0,
                OS_SPM.1 / 1024,
                EXTERNAL.0,
                EXTERNAL.1 / 1024
            ));
            found[0] = true;
            continue;
        }
        if rule.starts_with(RODATA_RULE) && !found[3] {
            out.push_str(&table(m));
            found[3] = true;
        }
        out.push_str(line);
        out.push('\n');
        if rule.starts_with(DATA_PHDR) && !found[1] {
            out.push_str("    carousel PT_LOAD FLAGS(7); /* rwx: the tasks' regions */\n");
            found[1] = true;
        }
        if rule == SECTIONS && !found[2] && lines.peek().is_some_and(|l| l.trim() == "{") {
            out.push_str("{\n");
            lines.next();
            // First, so that the tasks' input sections are not taken by the kernel's rules.
            out.push_str(&regions(m, &per_task));
            found[2] = true;
        }
    }
    if found != [true; 4] {
        return Err(format!(
            "expected the memory region `{RAM_LINE} ...`, the program header `{DATA_PHDR} \
             ...`, `{SECTIONS}` followed by a line `{{` and the input rule `{RODATA_RULE} ...)` \
             in the kernel's link script"
        ));
    }
    Ok(out)
}

/// One task's Carousel layout, as linked (Table III).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskLayout {
    /// The task's name.
    pub name: String,
    /// Bytes of its code and constants, and the code blocks they take.
    pub code_bytes: u32,
    /// Code blocks (y).
    pub code_blocks: u32,
    /// Bytes of its data (initialised and zero).
    pub data_bytes: u32,
    /// Data blocks (d).
    pub data_blocks: u32,
    /// Bytes of its stack region (its budget rounded up to blocks).
    pub stack_bytes: u32,
    /// Stack blocks (z).
    pub stack_blocks: u32,
    /// First code block's address in external RAM.
    pub code: u32,
}

impl TaskLayout {
    /// y + d + z: the blocks its invocation opens.
    pub fn blocks(&self) -> u32 {
        self.code_blocks + self.data_blocks + self.stack_blocks
    }
}

/// Every task's layout read back from the linked ELF (its symbols); an ELF without them is an
/// error.
pub fn layout(elf: &[u8], m: &Manifest) -> Result<Vec<TaskLayout>, String> {
    use object::{Object, ObjectSymbol};
    let file = object::File::parse(elf).map_err(|e| format!("cannot parse the ELF: {e}"))?;
    let mut symbols = std::collections::HashMap::new();
    for s in file.symbols() {
        if let Ok(name) = s.name() {
            if name.starts_with("__cactus_car_") {
                symbols.insert(name.to_string(), s.address() as u32);
            }
        }
    }
    let get = |kind: &str, t: usize| {
        symbols
            .get(&sym(kind, t))
            .copied()
            .ok_or_else(|| format!("the ELF has no symbol {}", sym(kind, t)))
    };
    let mut out = Vec::new();
    for (t, task) in m.tasks.iter().enumerate() {
        let (code, used, data) = (get("code", t)?, get("code_used", t)?, get("data", t)?);
        let (data_used, low, top) = (get("data_used", t)?, get("stack_low", t)?, get("stack", t)?);
        out.push(TaskLayout {
            name: task.name.clone(),
            code_bytes: used - code,
            code_blocks: (data - code) / BLOCK_BYTES,
            data_bytes: data_used - data,
            data_blocks: (low - data) / BLOCK_BYTES,
            stack_bytes: top - low,
            stack_blocks: (top - low) / BLOCK_BYTES,
            code,
        });
    }
    Ok(out)
}

/// Refuses a layout with a task whose blocks do not fit the Carousel: its invocation opens
/// all of them at once.
pub fn check(layout: &[TaskLayout]) -> Result<(), String> {
    let too_big: Vec<String> = layout
        .iter()
        .filter(|t| t.blocks() > BLOCKS)
        .map(|t| {
            format!(
                "task {} does not fit the Carousel: code {} bytes ({} blocks) + data {} bytes \
                 ({} blocks) + stack {} bytes ({} blocks) = {} blocks of {BLOCK_BYTES} bytes, \
                 the Carousel has {BLOCKS}",
                t.name,
                t.code_bytes,
                t.code_blocks,
                t.data_bytes,
                t.data_blocks,
                t.stack_bytes,
                t.stack_blocks,
                t.blocks()
            )
        })
        .collect();
    if too_big.is_empty() {
        Ok(())
    } else {
        Err(too_big.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        Manifest::parse(
            "[firmware]\nname = \"x\"\n[kernel]\nscheduler = \"srp\"\ncarousel = true\n\
             [[task]]\nname = \"a\"\nsources = [\"Cargo.toml\"]\nentry = \"job\"\npriority = 1\n\
             stack = 200\nperiod_ms = 1\n",
            &std::env::current_dir().unwrap().join("m.toml"),
        )
        .unwrap()
    }

    const KERNEL: &str = "MEMORY\n{\n    RAM (rwx) : ORIGIN = 0x80000000, LENGTH = 1M\n}\n\
        PHDRS\n{\n    text PT_LOAD FLAGS(5);\n    data PT_LOAD FLAGS(6);\n}\nSECTIONS\n{\n    \
        .text : {\n        *(.text .text.*)\n    } > RAM :text\n    .rodata : {\n        \
        *(.rodata .rodata.* .srodata .srodata.*)\n    } > RAM :text\n}\n";

    #[test]
    fn the_tasks_go_first_into_external_ram_and_the_table_into_rodata() {
        let m = manifest();
        assert!(m.srp.as_ref().unwrap().carousel);
        let out = script(KERNEL, &m, &[]).unwrap();
        assert!(
            out.contains("RAM (rwx) : ORIGIN = 0x20000000, LENGTH = 256K"),
            "{out}"
        );
        assert!(out.contains("EXT (rwx) : ORIGIN = 0x80000000"), "{out}");
        assert!(
            out.contains("data PT_LOAD FLAGS(6);\n    carousel PT_LOAD"),
            "{out}"
        );
        // The task's unit, its code then its data, then 256 bytes of stack (200 rounded up).
        let region = out.find(".cactus_car_0 : ALIGN(128)").unwrap();
        assert!(region < out.find(".text : {").unwrap(), "{out}");
        let code = out.find("*/00-Cargo.o(.text .text.*").unwrap();
        let data = out.find("*/00-Cargo.o(.data .data.*").unwrap();
        assert!(region < code && code < data, "{out}");
        assert!(
            out.contains(". += 256;\n        __cactus_car_stack_0 = .;"),
            "{out}"
        );
        let table = out.find("cactus_carousel_tasks = .;").unwrap();
        assert!(table < out.find("*(.rodata .rodata.*").unwrap(), "{out}");
        assert!(out.contains("LONG(job) LONG(__cactus_car_code_0)"), "{out}");
        assert!(out.contains("BYTE(2) BYTE(0)"), "{out}");
        assert!(script("SECTIONS\n{\n}\n", &m, &[]).is_err());
    }

    #[test]
    fn a_task_that_does_not_fit_is_named_with_its_sizes() {
        let t = |name: &str, y, d, z| TaskLayout {
            name: name.into(),
            code_bytes: y * 128 - 5,
            code_blocks: y,
            data_bytes: d * 128,
            data_blocks: d,
            stack_bytes: z * 128,
            stack_blocks: z,
            code: 0x8000_0000,
        };
        assert!(check(&[t("ok", 10, 2, 4)]).is_ok());
        let e = check(&[t("ok", 10, 2, 4), t("big", 12, 3, 2)]).unwrap_err();
        assert_eq!(
            e,
            "task big does not fit the Carousel: code 1531 bytes (12 blocks) + data 384 bytes \
             (3 blocks) + stack 256 bytes (2 blocks) = 17 blocks of 128 bytes, the Carousel \
             has 16"
        );
    }
}
