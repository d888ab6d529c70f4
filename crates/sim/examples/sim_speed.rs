//! Measures cactus-sim speed on an ELF: `cargo run --release -p cactus-sim --example
//! sim_speed -- prog.elf [profile]`. Prints the outcome, UART output, instructions, cycles,
//! energy and MIPS (wall-clock is used only for the simulator's own speed).

use cactus_sim::{Machine, MachineConfig, Profile};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: sim_speed PROG.elf [PROFILE]");
        std::process::exit(2);
    };
    let profile = match args.next() {
        Some(name) => Profile::builtin(&name)
            .or_else(|| Profile::load(std::path::Path::new(&name)).ok())
            .unwrap_or_else(|| {
                eprintln!("unknown profile {name}");
                std::process::exit(2)
            }),
        None => Profile::default_mcu(),
    };
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let mut m = Machine::new(MachineConfig::new(profile));
    if let Err(e) = m.load_elf(&bytes) {
        eprintln!("{path}: {e}");
        std::process::exit(2);
    }
    let t = Instant::now();
    let outcome = m.run();
    let secs = t.elapsed().as_secs_f64();
    let s = m.stats();
    print!("{}", String::from_utf8_lossy(&m.take_uart_output()));
    println!("outcome: {outcome:?}");
    println!(
        "instructions {} cycles {} energy {:.1} nJ, {:.3} s host, {:.1} MIPS",
        s.instructions,
        s.cycles,
        s.energy_nj,
        secs,
        s.instructions as f64 / secs / 1e6
    );
}
