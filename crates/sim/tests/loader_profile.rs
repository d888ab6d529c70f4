//! ELF loader errors (hand-made headers) and profile parsing/validation errors.

use cactus_sim::{LoadError, Machine, MachineConfig, Profile, ProfileError};

fn machine() -> Machine {
    Machine::new(MachineConfig::new(Profile::default_mcu()))
}

/// A minimal ELF32 header + one PT_LOAD program header loading `payload` at `addr`.
fn elf32(
    class: u8,
    data: u8,
    machine: u16,
    e_type: u16,
    addr: u32,
    payload: &[u8],
    memsz: u32,
) -> Vec<u8> {
    let mut h = vec![0u8; 52];
    h[..4].copy_from_slice(b"\x7fELF");
    h[4] = class;
    h[5] = data;
    h[6] = 1;
    h[16..18].copy_from_slice(&e_type.to_le_bytes());
    h[18..20].copy_from_slice(&machine.to_le_bytes());
    h[20..24].copy_from_slice(&1u32.to_le_bytes());
    h[24..28].copy_from_slice(&addr.to_le_bytes()); // entry
    h[28..32].copy_from_slice(&52u32.to_le_bytes()); // phoff
    h[40..42].copy_from_slice(&52u16.to_le_bytes()); // ehsize
    h[42..44].copy_from_slice(&32u16.to_le_bytes()); // phentsize
    h[44..46].copy_from_slice(&1u16.to_le_bytes()); // phnum
    h[46..48].copy_from_slice(&40u16.to_le_bytes()); // shentsize
    let mut ph = vec![0u8; 32];
    ph[0..4].copy_from_slice(&1u32.to_le_bytes()); // PT_LOAD
    ph[4..8].copy_from_slice(&84u32.to_le_bytes()); // offset
    ph[8..12].copy_from_slice(&addr.to_le_bytes()); // vaddr
    ph[12..16].copy_from_slice(&addr.to_le_bytes()); // paddr
    ph[16..20].copy_from_slice(&(payload.len() as u32).to_le_bytes());
    ph[20..24].copy_from_slice(&memsz.to_le_bytes());
    ph[24..28].copy_from_slice(&7u32.to_le_bytes());
    h.extend(ph);
    h.extend_from_slice(payload);
    h
}

const RAM: u32 = 0x8000_0000;

#[test]
fn loads_a_minimal_elf_and_zero_fills_bss() {
    let mut m = machine();
    m.write_debug(RAM + 4, &[0xAA; 8]).unwrap();
    let info = m
        .load_elf(&elf32(1, 1, 243, 2, RAM, &[0x73, 0, 0x10, 0], 12))
        .unwrap();
    assert_eq!(info.entry, RAM);
    assert_eq!(info.tohost, None);
    assert_eq!(info.segments, vec![(RAM, 12)]);
    assert_eq!(m.pc(), RAM);
    let mut buf = [0u8; 12];
    m.read_debug(RAM, &mut buf).unwrap();
    assert_eq!(buf, [0x73, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn loader_rejects_wrong_files() {
    let mut m = machine();
    assert_eq!(
        m.load_elf(b"hello world, not an elf"),
        Err(LoadError::NotElf)
    );
    assert_eq!(m.load_elf(&[]), Err(LoadError::NotElf));
    let ok = |class, data, mach, ty| elf32(class, data, mach, ty, RAM, &[0; 4], 4);
    assert_eq!(m.load_elf(&ok(2, 1, 243, 2)), Err(LoadError::WrongClass(2)));
    assert_eq!(m.load_elf(&ok(1, 2, 243, 2)), Err(LoadError::BigEndian));
    assert_eq!(
        m.load_elf(&ok(1, 1, 62, 2)),
        Err(LoadError::WrongMachine(62))
    );
    assert_eq!(
        m.load_elf(&ok(1, 1, 243, 3)),
        Err(LoadError::NotExecutable(3))
    );
    assert!(matches!(
        m.load_elf(&ok(1, 1, 243, 2)[..30]),
        Err(LoadError::Malformed(_))
    ));
    let outside = elf32(1, 1, 243, 2, 0x4000_0000, &[1; 4], 4);
    assert_eq!(
        m.load_elf(&outside),
        Err(LoadError::SegmentOutsideMemory {
            vaddr: 0x4000_0000,
            size: 4
        })
    );
    // Straddling the end of RAM is outside too, and nothing was written before failing.
    let end = RAM + 0x0800_0000 - 2;
    assert!(matches!(
        m.load_elf(&elf32(1, 1, 243, 2, end, &[1; 4], 4)),
        Err(LoadError::SegmentOutsideMemory { .. })
    ));
    let mut buf = [0u8; 2];
    m.read_debug(end, &mut buf).unwrap();
    assert_eq!(buf, [0, 0]);
    let msg = LoadError::WrongMachine(62).to_string();
    assert!(msg.contains("62") && msg.contains("243"), "{msg}");
}

#[test]
fn builtin_profiles() {
    let mcu = Profile::default_mcu();
    assert_eq!(mcu.name(), "mcu");
    assert_eq!(Profile::builtin("mcu"), Some(mcu.clone()));
    assert_eq!(Profile::builtin("ideal").unwrap().cycles().div, 1);
    assert!(Profile::builtin("nope").is_none());
    assert_eq!(mcu.memory()[0].base, RAM);
    assert_eq!(mcu.timebase_hz(), 10_000_000);
}

fn mcu_text() -> String {
    include_str!("../../../profiles/mcu.toml").to_string()
}

fn parse_err(text: &str) -> String {
    Profile::from_toml(text, "my.toml").unwrap_err().to_string()
}

#[test]
fn profile_errors_name_file_and_key() {
    let unknown = mcu_text().replacen("mret = 3\n", "mret = 3\nbogus = 1\n", 1);
    let e = parse_err(&unknown);
    assert!(e.starts_with("my.toml:") && e.contains("bogus"), "{e}");
    let wrong_type = mcu_text().replacen("alu = 1\n", "alu = \"fast\"\n", 1);
    let e = parse_err(&wrong_type);
    assert!(e.contains("cycles.alu"), "{e}");
    let missing = mcu_text().replace("div = 37\n", "");
    let e = parse_err(&missing);
    assert!(e.contains("my.toml") && e.contains("div"), "{e}");
    let bad_access = mcu_text().replace("access = \"rwx\"", "access = \"rwq\"");
    let e = parse_err(&bad_access);
    assert!(e.contains("memory[0].access"), "{e}");
    let zero_clock = mcu_text().replace("clock_hz = 100_000_000", "clock_hz = 0");
    assert!(parse_err(&zero_clock).contains("clock_hz"));
    let overlap = mcu_text().replace("base = 0x8000_0000", "base = 0x0200_0000");
    assert!(parse_err(&overlap).contains("CLINT"));
    let policy = mcu_text().replace("misaligned = \"emulate\"", "misaligned = \"maybe\"");
    assert!(parse_err(&policy).contains("misaligned"));
    let neg = mcu_text().replace("alu = 12.0", "alu = -1.0");
    assert!(parse_err(&neg).contains("energy.alu"));
    assert!(matches!(
        Profile::load(std::path::Path::new("/nonexistent/p.toml")),
        Err(ProfileError::Io { .. })
    ));
}

#[test]
fn second_region_is_usable() {
    let text = mcu_text().replace(
        "[cycles]",
        "[[memory]]\nname = \"flash\"\nbase = 0x2000_0000\nsize = 0x1000\naccess = \"rx\"\nlatency = 2\nenergy = 9.0\n\n[cycles]",
    );
    let p = Profile::from_toml(&text, "two.toml").unwrap();
    assert_eq!(p.memory().len(), 2);
    let mut m = Machine::new(MachineConfig::new(p));
    m.write_debug(0x2000_0000, &[1, 2, 3, 4]).unwrap();
    let mut b = [0; 4];
    m.read_debug(0x2000_0000, &mut b).unwrap();
    assert_eq!(b, [1, 2, 3, 4]);
}

/// The message a chain printer (anyhow's `{:#}`, as the CLI uses) shows: each error in the
/// `source()` chain, joined with ": ".
fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s += &format!(": {c}");
        cur = c.source();
    }
    s
}

#[test]
fn an_io_error_is_said_once_with_the_path() {
    let dir = std::env::temp_dir();
    let e = Profile::load(&dir).unwrap_err();
    let text = chain(&e);
    assert!(text.contains(&dir.display().to_string()), "{text}");
    let cause = std::fs::read_to_string(&dir).unwrap_err().to_string();
    assert_eq!(text.matches(&cause).count(), 1, "{text}");
}
