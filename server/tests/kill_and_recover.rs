//! The real `fray-server` binary is SIGKILLed mid-fight and restarted on the same data dir:
//! every acknowledged event is still there, and the server's state hash equals the fold of the
//! log.

use fray_protocol::codec::Encoding;
use fray_protocol::{ClientMessage, ServerMessage};
use fray_server::demo::bot::choose;
use fray_server::demo::client::{Client, create_session};
use fray_server::engine::hash::state_hash;
use fray_server::replay;
use std::time::Duration;

mod support;
use support::start;

async fn recv(c: &mut Client) -> ServerMessage {
    tokio::time::timeout(Duration::from_secs(10), c.recv())
        .await
        .expect("timely")
        .expect("message")
}

async fn state(c: &mut Client) -> fray_protocol::SessionState {
    c.send(&ClientMessage::GetSnapshot).await.expect("send");
    loop {
        if let ServerMessage::Snapshot { state, .. } = recv(c).await {
            return *state;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_fight_loses_no_acknowledged_event() {
    let data = tempfile::tempdir().expect("tempdir");
    let (server, addr) = start(data.path(), &[]);
    let (_, text) = fray_server::rules::builtin_encounters("13th-age")[0];
    let created = create_session(addr, support::ADMIN_KEY, "goblin-ambush", text, Some(4))
        .await
        .expect("create");
    let gm_token = created["tokens"]["gm"]
        .as_str()
        .expect("gm token")
        .to_string();
    let session = created["session"].as_str().expect("session").to_string();
    let url = format!("ws://{addr}/ws");
    let mut gm = Client::connect(&url, Encoding::Json)
        .await
        .expect("connect");
    gm.hello(&gm_token, None).await.expect("hello");
    // The GM plays every move (the GM may command every combatant) for a while.
    let mut acked = 0u64;
    for id in 1..=25u64 {
        let s = state(&mut gm).await;
        let Some(cmd) = choose(&fray_protocol::Role::Gm, &s, id).or_else(|| {
            s.current
                .clone()
                .map(|actor| fray_protocol::Command::EndTurn { actor })
        }) else {
            break;
        };
        gm.send(&ClientMessage::Command { id, command: cmd })
            .await
            .expect("send");
        loop {
            match recv(&mut gm).await {
                ServerMessage::Accepted {
                    command_id,
                    last_seq,
                    ..
                } if command_id == id => {
                    acked = last_seq;
                    break;
                }
                ServerMessage::Rejected { command_id, .. } if command_id == id => break,
                _ => {}
            }
        }
    }
    assert!(acked > 10, "too few events acknowledged: {acked}");
    // Kill -9: no chance to flush anything.
    drop(server);

    let (_server, addr) = start(data.path(), &[]);
    let url = format!("ws://{addr}/ws");
    let mut gm = Client::connect(&url, Encoding::Json)
        .await
        .expect("reconnect");
    gm.hello(&gm_token, Some(0)).await.expect("hello");
    let ServerMessage::Welcome { seq, .. } = recv(&mut gm).await else {
        panic!("welcome")
    };
    assert!(seq >= acked, "acknowledged events lost: {seq} < {acked}");
    let mut n = 0;
    while n < seq {
        if let ServerMessage::Event { seq: s, .. } = recv(&mut gm).await {
            n += 1;
            assert_eq!(s, n);
        }
    }
    let live = state(&mut gm).await;
    let fight = replay::read_log(&data.path().join("sessions").join(&session)).expect("read");
    let folded = replay::fold(&fight).expect("fold");
    assert_eq!(state_hash(&live), folded.state_hash);
    assert_eq!(folded.events.len() as u64, seq);
}
