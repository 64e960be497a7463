//! The demo after a restart: a demo fight that was being played when the server died is never
//! served again as "running" with no one to play it. Restarted without `--demo` the server does
//! not list it (its log stays on disk); restarted with `--demo` its bots finish it.

mod support;

use fray_server::demo::client::http;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use support::start;

async fn sessions(addr: SocketAddr) -> Vec<serde_json::Value> {
    let (status, body) = http(addr, "GET", "/sessions", "")
        .await
        .expect("GET /sessions");
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).expect("a JSON list")
}

/// Polls the listing until `f` finds what it wants, for at most a minute.
async fn wait_for<T>(addr: SocketAddr, f: impl Fn(&[serde_json::Value]) -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        let list = sessions(addr).await;
        if let Some(t) = f(&list) {
            return t;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "gave up waiting; the listing is {list:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_demo_fight_cut_off_by_a_crash_is_unlisted_without_the_demo_and_finished_by_its_bots_with_it()
 {
    let data = tempfile::tempdir().expect("tempdir");
    let (server, addr) = start(data.path(), &["--demo", "--demo-pace-ms", "30"]);
    // The first demo fight, some way into its rounds.
    let id = wait_for(addr, |list| {
        list.iter()
            .find(|s| s["demo"] == true && s["phase"] == "running" && s["seq"].as_u64() > Some(8))
            .and_then(|s| s["session"].as_str().map(str::to_owned))
    })
    .await;
    drop(server); // SIGKILL mid-fight

    let (server, addr) = start(data.path(), &[]);
    let list = sessions(addr).await;
    assert!(
        list.iter().all(|s| s["session"] != id.as_str()),
        "the unfinished demo fight is served with no bots: {list:?}"
    );
    drop(server);
    let log_dir = data.path().join("sessions").join(&id);
    assert!(log_dir.is_dir(), "its log stays on disk");

    let (_server, addr) = start(data.path(), &["--demo", "--demo-pace-ms", "30"]);
    let phase = wait_for(addr, |list| {
        list.iter()
            .find(|s| s["session"] == id.as_str() && s["phase"] == "ended")
            .map(|s| s["phase"].clone())
    })
    .await;
    assert_eq!(phase, "ended");
}
