//! A session nobody is connected to hibernates (issue 19): its world leaves memory and its log
//! file is closed, so descriptors scale with active sessions; the next connection reopens it
//! from its log, with nothing lost, and the fight goes on with the same dice (verify passes).

use anyhow::{Result, anyhow, bail};
use fray_protocol::codec::Encoding;
use fray_protocol::ids::Role;
use fray_protocol::{ClientMessage, ServerMessage, SessionState};
use fray_server::demo::bot::next_for_table;
use fray_server::demo::client::Client;
use fray_server::net::limits::Limits;
use fray_tests::{TestServer, create_session};
use std::path::Path;
use std::time::Duration;

const T: Duration = Duration::from_secs(20);

/// Descriptors of this process open on a file under `dir`.
fn open_files_under(dir: &Path) -> Result<usize> {
    let mut n = 0;
    for e in std::fs::read_dir("/proc/self/fd")? {
        if let Ok(target) = std::fs::read_link(e?.path())
            && target.starts_with(dir)
        {
            n += 1;
        }
    }
    Ok(n)
}

async fn state(c: &mut Client) -> Result<SessionState> {
    c.send(&ClientMessage::GetSnapshot).await?;
    loop {
        if let ServerMessage::Snapshot { state, .. } = tokio::time::timeout(T, c.recv()).await?? {
            return Ok(*state);
        }
    }
}

/// Every seat of a created session (the GM may send any of their commands).
fn seats(created: &serde_json::Value) -> Vec<Role> {
    let mut roles = vec![Role::Gm];
    for p in created["tokens"]["players"]
        .as_array()
        .into_iter()
        .flatten()
    {
        roles.push(Role::Player {
            name: p["name"].as_str().unwrap_or_default().to_owned(),
            controls: p["controls"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c.as_str())
                .map(fray_protocol::CombatantId::new)
                .collect(),
        });
    }
    roles
}

/// The GM plays `n` moves of the bots' policy for the whole table; returns the last
/// acknowledged seq.
async fn play(c: &mut Client, roles: &[Role], first_id: u64, n: u64) -> Result<u64> {
    let mut last = 0;
    for id in first_id..first_id + n {
        let s = state(c).await?;
        let (_, command) =
            next_for_table(&s, roles, id).ok_or_else(|| anyhow!("no move at {id}"))?;
        c.send(&ClientMessage::Command { id, command }).await?;
        loop {
            match tokio::time::timeout(T, c.recv()).await?? {
                ServerMessage::Accepted {
                    command_id,
                    last_seq,
                    ..
                } if command_id == id => {
                    last = last_seq;
                    break;
                }
                ServerMessage::Rejected { message, .. } => bail!("refused: {message}"),
                _ => {}
            }
        }
    }
    Ok(last)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unwatched_session_hibernates_and_wakes_with_nothing_lost() -> Result<()> {
    let server = TestServer::start_with(Limits {
        hibernate_after: Duration::from_millis(200),
        ..Limits::default()
    })
    .await?;
    let created = create_session(server.addr, "goblin-ambush", 5).await?;
    let id = created["session"]
        .as_str()
        .ok_or_else(|| anyhow!("no id"))?;
    let gm = created["tokens"]["gm"]
        .as_str()
        .ok_or_else(|| anyhow!("no gm"))?;
    let dir = server.dir.path().join("sessions").join(id);

    let mut c = Client::connect(&server.ws_url(), Encoding::Json).await?;
    c.hello(gm, None).await?;
    let roles = seats(&created);
    let before = play(&mut c, &roles, 1, 6).await?;
    assert!(
        open_files_under(&dir)? >= 1,
        "the log is open while the fight is played"
    );
    c.close().await;

    // Nobody connected: within a few seconds the session lets go of its file.
    let mut waited = Duration::ZERO;
    while open_files_under(&dir)? > 0 {
        assert!(waited < T, "the session never hibernated");
        tokio::time::sleep(Duration::from_millis(50)).await;
        waited += Duration::from_millis(50);
    }
    assert_eq!(
        server.registry.len(),
        1,
        "a hibernating session is still listed"
    );

    // A resume wakes it: every event, then the fight goes on.
    let mut c = Client::connect(&server.ws_url(), Encoding::Json).await?;
    c.hello(gm, Some(0)).await?;
    let mut seen = 0;
    while seen < before {
        if let ServerMessage::Event { seq, .. } = tokio::time::timeout(T, c.recv()).await?? {
            assert_eq!(seq, seen + 1, "in order, none lost");
            seen = seq;
        }
    }
    let after = play(&mut c, &roles, 7, 6).await?;
    assert!(after > before);
    c.close().await;
    let data = server.stop().await;

    // The whole log, across the hibernation, re-decides from the seed.
    let fight = fray_server::replay::read_log(&data.path().join("sessions").join(id))?;
    let report = fray_server::replay::verify(&fight)?;
    assert_eq!(report.commands, 12);
    Ok(())
}
