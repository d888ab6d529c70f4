//! Helpers of the cactus-gdb tests: build a fixture program, serve it on a thread, and talk
//! to the stub with a minimal remote-protocol client.

#![allow(dead_code)] // each test file uses a different subset

use cactus_gdb::{GdbError, SessionEnd};
use cactus_sim::{Machine, MachineConfig, Profile, RunOutcome};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread::JoinHandle;

const CC: &str = "riscv64-unknown-elf-gcc";

fn run_ok(cmd: &mut Command) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e} (is {CC} installed?)"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Builds `tests/fixtures/NAME.c` with the fixture crt0 and link script into a scratch
/// directory of its own (tests running at once may build the same program), with `-g -O0`;
/// returns the ELF path.
pub fn build(name: &str) -> PathBuf {
    static BUILDS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = BUILDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let fx = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cactus-gdb-tests")
        .join(format!("{name}-{n}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let mut objects = Vec::new();
    for src in ["crt0.S".to_string(), format!("{name}.c")] {
        let obj = dir.join(format!("{src}.o"));
        run_ok(
            Command::new(CC)
                .args(["-g", "-O0", "-Wall", "-Wextra", "-Werror"])
                .args(["-march=rv32imac_zicsr_zifencei", "-mabi=ilp32", "-c"])
                .arg(fx.join(&src))
                .arg("-o")
                .arg(&obj),
        );
        objects.push(obj);
    }
    let elf = dir.join(format!("{name}.elf"));
    run_ok(
        Command::new(CC)
            .args([
                "-march=rv32imac",
                "-mabi=ilp32",
                "-nostdlib",
                "-nostartfiles",
            ])
            .arg("-Wl,--no-warn-rwx-segments")
            .arg("-T")
            .arg(fx.join("link.ld"))
            .args(&objects)
            .arg("-o")
            .arg(&elf),
    );
    elf
}

/// The address of `symbol` in `elf` (toolchain `nm`).
pub fn symbol(elf: &Path, symbol: &str) -> u32 {
    let out = Command::new("riscv64-unknown-elf-nm")
        .arg(elf)
        .output()
        .expect("run nm");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            (f.len() == 3 && f[2] == symbol).then(|| u32::from_str_radix(f[0], 16).unwrap())
        })
        .unwrap_or_else(|| panic!("{symbol} not in {}", elf.display()))
}

/// What the server thread returns: how the session ended, the guest's final pc, how a free
/// run after a detach ended, and the guest's UART output.
pub struct Served {
    pub end: SessionEnd,
    pub pc: u32,
    pub after_detach: Option<RunOutcome>,
    pub uart: Vec<u8>,
}

/// Loads `elf` into a default-profile machine and serves one gdb session for it on a free
/// port of 127.0.0.1 on a new thread; the thread returns the session's result.
pub fn serve(elf: &Path) -> (SocketAddr, JoinHandle<Result<Served, GdbError>>) {
    let bytes = std::fs::read(elf).expect("read ELF");
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().unwrap();
    let handle = std::thread::spawn(move || {
        let mut machine = Machine::new(MachineConfig::new(Profile::default_mcu()));
        machine.load_elf(&bytes).expect("load ELF");
        let (stream, _) = listener.accept().expect("accept");
        let end = cactus_gdb::serve(&mut machine, stream)?;
        let pc = machine.pc();
        let after_detach = matches!(end, SessionEnd::Detached).then(|| machine.run());
        Ok(Served {
            end,
            pc,
            after_detach,
            uart: machine.take_uart_output(),
        })
    });
    (addr, handle)
}

/// Undoes the protocol's run-length encoding: `X*N` stands for X followed by N - 29 more X.
fn expand_run_lengths(body: &[u8]) -> String {
    let mut out: Vec<u8> = Vec::new();
    let mut bytes = body.iter().copied();
    while let Some(b) = bytes.next() {
        if b == b'*' {
            let repeat = bytes.next().expect("run length") - 29;
            let last = *out.last().expect("a character to repeat");
            out.extend(std::iter::repeat_n(last, usize::from(repeat)));
        } else {
            out.push(b);
        }
    }
    String::from_utf8(out).expect("ASCII reply")
}

/// A minimal GDB remote-protocol client (acknowledged mode).
pub struct Client {
    stream: TcpStream,
}

impl Client {
    /// Connects to a stub.
    pub fn connect(addr: SocketAddr) -> Client {
        let stream = TcpStream::connect(addr).expect("connect");
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(30)))
            .unwrap();
        Client { stream }
    }

    /// Sends one packet and returns the reply's payload.
    pub fn request(&mut self, body: &str) -> String {
        self.send(body);
        self.reply()
    }

    /// Sends one packet without waiting for a reply (only its acknowledgement).
    pub fn send(&mut self, body: &str) {
        let sum = body.bytes().fold(0u8, |s, b| s.wrapping_add(b));
        write!(self.stream, "${body}#{sum:02x}").unwrap();
        self.stream.flush().unwrap();
        assert_eq!(self.byte(), b'+', "packet {body:?} not acknowledged");
    }

    /// Sends a raw byte (0x03 is Ctrl-C).
    pub fn send_raw(&mut self, byte: u8) {
        self.stream.write_all(&[byte]).unwrap();
    }

    /// Reads the next packet, acknowledges it, and returns its payload.
    pub fn reply(&mut self) -> String {
        while self.byte() != b'$' {}
        let mut body = Vec::new();
        loop {
            match self.byte() {
                b'#' => break,
                b => body.push(b),
            }
        }
        let (hi, lo) = (self.byte(), self.byte());
        let sum = u8::from_str_radix(std::str::from_utf8(&[hi, lo]).unwrap(), 16).unwrap();
        assert_eq!(
            body.iter().fold(0u8, |s, b| s.wrapping_add(*b)),
            sum,
            "checksum"
        );
        self.stream.write_all(b"+").unwrap();
        expand_run_lengths(&body)
    }

    fn byte(&mut self) -> u8 {
        let mut b = [0u8];
        self.stream.read_exact(&mut b).expect("read from stub");
        b[0]
    }

    /// Register `i` (0..=31 for x0..x31, 32 for pc) from a `g` reply.
    pub fn register(&mut self, i: usize) -> u32 {
        let regs = self.request("g");
        let word = &regs[i * 8..i * 8 + 8];
        u32::from_le_bytes(
            (0..4)
                .map(|k| u8::from_str_radix(&word[k * 2..k * 2 + 2], 16).unwrap())
                .collect::<Vec<u8>>()
                .try_into()
                .unwrap(),
        )
    }
}
