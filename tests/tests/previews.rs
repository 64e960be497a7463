//! `preview` over real sockets (a server on port 0): the GM of an Orcus fight asks what a far
//! burst would cover and gets the area's squares — on the map, no wall among them — under its
//! own id, as of the session's last event; nothing is logged (a `ping` right after is answered
//! before anything else, the state is unchanged); a spectator's preview is refused as its
//! command would be (bincode), and a command with nothing to show gets a clear refusal.

use anyhow::{Context, Result, bail, ensure};
use fray_protocol::codec::Encoding;
use fray_protocol::grid::Square;
use fray_protocol::{ClientMessage, Command, ErrorCode, OrcusCommand, ServerMessage, SessionState};
use fray_server::demo::client::Client;
use fray_tests::{TestServer, create_session};
use std::time::Duration;

const T: Duration = Duration::from_secs(10);

async fn recv(c: &mut Client) -> Result<ServerMessage> {
    Ok(tokio::time::timeout(T, c.recv()).await??)
}

async fn join(url: &str, token: &str, enc: Encoding) -> Result<(Client, u64)> {
    let mut c = Client::connect(url, enc).await?;
    c.hello(token, None).await?;
    let ServerMessage::Welcome { seq, .. } = recv(&mut c).await? else {
        bail!("expected welcome")
    };
    let ServerMessage::Snapshot { .. } = recv(&mut c).await? else {
        bail!("expected the hello's snapshot")
    };
    Ok((c, seq))
}

async fn snapshot(c: &mut Client) -> Result<(u64, SessionState)> {
    c.send(&ClientMessage::GetSnapshot).await?;
    loop {
        if let ServerMessage::Snapshot { seq, state } = recv(c).await? {
            return Ok((seq, *state));
        }
    }
}

/// A far burst of some combatant, centred on another combatant's square.
fn far_burst(s: &SessionState) -> Result<Command> {
    let (user, power) = s
        .combatants
        .iter()
        .find_map(|c| {
            let a = c
                .attacks
                .iter()
                .find(|a| a.range.starts_with("far burst"))?;
            Some((c, a))
        })
        .context("no combatant with a far burst")?;
    let origin = s
        .combatants
        .iter()
        .find(|c| c.id != user.id)
        .and_then(|c| c.grid.as_ref())
        .map(|g| g.square)
        .context("no one to aim at")?;
    Ok(Command::Orcus(OrcusCommand::AreaAttack {
        actor: user.id.clone(),
        attack: power.id.clone(),
        origin: Some(origin),
        targets: Vec::new(),
        forced: Vec::new(),
        origin_height: None,
        weapon: None,
        secondary_target: None,
    }))
}

#[tokio::test]
async fn a_preview_answers_the_area_under_its_id_and_logs_nothing_over_a_real_socket() -> Result<()>
{
    let server = TestServer::start().await?;
    let created = create_session(server.addr, "bridge-of-bones", 5).await?;
    let url = server.ws_url();
    let token = |p: &str| {
        created
            .pointer(p)
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string()
    };
    let (mut gm, _) = join(&url, &token("/tokens/gm"), Encoding::Json).await?;
    gm.send(&ClientMessage::Command {
        id: 1,
        command: Command::StartBattle,
    })
    .await?;
    while !matches!(recv(&mut gm).await?, ServerMessage::Accepted { .. }) {}
    let (seq, before) = snapshot(&mut gm).await?;
    let map = before.map.clone().context("an Orcus session has a map")?;
    let burst = far_burst(&before)?;
    gm.send(&ClientMessage::Preview {
        id: 42,
        command: burst.clone(),
    })
    .await?;
    gm.send(&ClientMessage::Ping { nonce: 7 }).await?;
    let ServerMessage::PreviewResult {
        id,
        seq: at,
        preview,
    } = recv(&mut gm).await?
    else {
        bail!("expected the preview's answer first")
    };
    ensure!(
        id == 42 && at == seq,
        "id {id}, seq {at} (last event {seq})"
    );
    ensure!(!preview.squares.is_empty(), "{preview:?}");
    let on_map = |q: &Square| q.x >= 0 && q.y >= 0 && q.x < map.width && q.y < map.height;
    ensure!(
        preview
            .squares
            .iter()
            .all(|q| on_map(q) && !map.blocking.contains(q)),
        "every square on the map, none a wall: {preview:?}"
    );
    ensure!(preview.path.is_empty());
    // Nothing was logged or sent to anyone: the ping's answer is the next message, and the
    // state is as it was.
    let next = recv(&mut gm).await?;
    ensure!(
        matches!(next, ServerMessage::Pong { nonce: 7 }),
        "expected the pong, got {next:?}"
    );
    let (seq_after, after) = snapshot(&mut gm).await?;
    ensure!(
        seq_after == seq && after == before,
        "the preview changed the session"
    );

    // A spectator may not send the command, so it may not preview it (bincode).
    let (mut watcher, _) = join(&url, &token("/tokens/spectator"), Encoding::Bincode).await?;
    watcher
        .send(&ClientMessage::Preview {
            id: 5,
            command: burst,
        })
        .await?;
    let ServerMessage::PreviewRefused { id, code, .. } = recv(&mut watcher).await? else {
        bail!("expected the spectator's refusal")
    };
    ensure!(
        id == 5 && code == ErrorCode::SpectatorCannotCommand,
        "{code}"
    );

    // A command that covers nothing on the map.
    let end = Command::EndTurn {
        actor: before.current.clone().context("someone's turn")?,
    };
    gm.send(&ClientMessage::Preview {
        id: 43,
        command: end,
    })
    .await?;
    let ServerMessage::PreviewRefused { id, code, message } = recv(&mut gm).await? else {
        bail!("expected a refusal")
    };
    ensure!(
        id == 43 && code == ErrorCode::InvalidArgument && message.contains("nothing on the map"),
        "{code}: {message}"
    );
    server.stop().await;
    Ok(())
}
