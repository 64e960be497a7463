//! Writes the JSON Schema of the Fray JSON protocol (`fray_protocol::schema::document`).
//!
//! `fray-schema <dir>` writes `<dir>/fray-protocol.schema.json`; `fray-schema -` prints it.
//! The checked-in copy is regenerated from the repository root with
//! `cargo run -p fray-protocol --features schema --bin fray-schema -- sdk/schema`.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [out] = args.as_slice() else {
        eprintln!("usage: fray-schema <output dir> | -");
        return ExitCode::from(2);
    };
    let text = match fray_protocol::schema::document_text() {
        Ok(text) => text,
        Err(e) => {
            eprintln!("fray-schema: {e}");
            return ExitCode::FAILURE;
        }
    };
    if out == "-" {
        print!("{text}");
        return ExitCode::SUCCESS;
    }
    let dir = PathBuf::from(out);
    let path = dir.join("fray-protocol.schema.json");
    let written = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, text));
    match written {
        Ok(()) => {
            eprintln!("fray-schema: wrote {}", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("fray-schema: {}: {e}", path.display());
            ExitCode::FAILURE
        }
    }
}
