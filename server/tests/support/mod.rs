//! The real `fray-server` binary for the tests in `server/tests/`: started on port 0 with a data
//! dir, killed (SIGKILL) when dropped.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

/// The operator key the tests' servers are started with.
pub const ADMIN_KEY: &str = "server-tests-operator-key";

/// A running `fray-server`; dropping it SIGKILLs it (no chance to flush anything).
pub struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the binary on 127.0.0.1:0 with `data` and `extra` arguments; returns it and the
/// address it printed.
pub fn start(data: &std::path::Path, extra: &[&str]) -> (Server, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray-server"))
        .args([
            "--listen",
            "127.0.0.1:0",
            "--admin-token",
            ADMIN_KEY,
            "--data-dir",
        ])
        .arg(data)
        .args(extra)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn fray-server");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("read the listening line");
    let addr = line
        .trim()
        .rsplit(' ')
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    (Server(child), addr)
}
