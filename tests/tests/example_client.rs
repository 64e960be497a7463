//! The Python client of `protocol/README.md` ("Views and legal actions") plays a 13th Age fight
//! to its end against a real server, from the view and the legal actions alone. It needs
//! `python3` with the `websockets` package: `.ci/run` installs it and sets `FRAY_CI=1`, under
//! which its absence fails the test; elsewhere (`cargo test` on a fresh machine) the test says
//! it was skipped and why.

use anyhow::{Context, Result, bail};
use fray_tests::{TestServer, create_session};
use std::process::Command;

const README: &str = include_str!("../../protocol/README.md");

fn example() -> Result<&'static str> {
    let start = README
        .find("<!-- example-client:start -->")
        .context("no example-client in protocol/README.md")?;
    let body = &README[start..];
    let code = body
        .split_once("```python\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .map(|(code, _)| code)
        .context("no python block in the example-client section")?;
    Ok(code)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_readmes_python_client_plays_a_fight_to_its_end() -> Result<()> {
    let probe = Command::new("python3")
        .args(["-c", "import websockets.sync.client"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        let why = "python3 with websockets is needed: python3 -m pip install websockets==15.0.1";
        if std::env::var_os("FRAY_CI").is_some() {
            bail!("{why}");
        }
        eprintln!("SKIPPED the README's Python client: {why}");
        return Ok(());
    }
    let dir = tempfile::tempdir()?;
    let script = dir.path().join("play.py");
    std::fs::write(&script, example()?)?;
    let server = TestServer::start().await?;
    let created = create_session(server.addr, "goblin-ambush", 4).await?;
    let gm = created["tokens"]["gm"]
        .as_str()
        .context("gm token")?
        .to_owned();
    let url = server.ws_url();
    let out = tokio::task::spawn_blocking(move || {
        Command::new("timeout")
            .args(["120", "python3"])
            .arg(&script)
            .args([&url, &gm])
            .output()
    })
    .await??;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains(" won in round "), "{stdout}");
    server.stop().await;
    Ok(())
}
