//! The real `fray` binary against a real Fray server (in this process, port 0) and the real
//! recorded fights in `replays/`.

use fray_server::net::{self, Registry};
use fray_server::session::SessionConfig;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Output, Stdio};
use std::time::Duration;

const GIVE_UP: Duration = Duration::from_secs(120);
/// The test server's operator key.
const ADMIN_KEY: &str = "cli-tests-operator-key";

struct Server {
    addr: SocketAddr,
    _dir: tempfile::TempDir,
}

async fn start(demo: bool) -> Server {
    let dir = tempfile::tempdir().expect("tempdir");
    let registry = Registry::new(dir.path().to_path_buf(), SessionConfig::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let reg = registry.clone();
    tokio::spawn(async move {
        let admin = fray_server::net::admin::AdminKey::new(ADMIN_KEY);
        let _ = net::serve(listener, reg, admin, std::future::pending()).await;
    });
    if demo {
        tokio::spawn(fray_server::demo::run(
            registry,
            addr,
            Duration::from_millis(5),
            Vec::new(),
        ));
    }
    Server { addr, _dir: dir }
}

async fn fray(args: Vec<String>, stdin: Option<String>) -> Output {
    let run = tokio::task::spawn_blocking(move || {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_fray"))
            .args(&args)
            .env_remove("FRAY_SERVER")
            .env_remove("FRAY_ADMIN_TOKEN")
            .env_remove("FRAY_DATA_DIR")
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn fray");
        if let (Some(text), Some(mut pipe)) = (stdin, child.stdin.take()) {
            pipe.write_all(text.as_bytes()).expect("write stdin");
        }
        child.wait_with_output().expect("fray output")
    });
    tokio::time::timeout(GIVE_UP, run)
        .await
        .expect("fray finished")
        .expect("join")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn repo(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
        .display()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_prints_tokens_and_reports_bad_encounters() {
    let server = start(false).await;
    let addr = server.addr.to_string();
    let goblins = repo("server/content/13th-age/encounters/goblin-ambush.toml");
    let new = |extra: &[&str]| {
        let mut args: Vec<String> = vec![
            "new".into(),
            goblins.clone(),
            "--seed".into(),
            "7".into(),
            "--server".into(),
            addr.clone(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    // The operator key from the server's data directory (as when both run in one folder).
    let data = tempfile::tempdir().expect("tempdir");
    std::fs::write(data.path().join("admin-token"), format!("{ADMIN_KEY}\n")).expect("key file");
    let data_dir = data.path().display().to_string();
    let out = fray(new(&["--data-dir", &data_dir]), None).await;
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("fray play --token"), "{stdout}");
    assert!(stdout.contains("fray spectate --token"), "{stdout}");
    assert!(stdout.contains("alice"), "{stdout}");

    // No key anywhere: refused before asking the server, saying where the key is looked for.
    let empty = tempfile::tempdir().expect("tempdir");
    let out = fray(
        new(&["--data-dir", &empty.path().display().to_string()]),
        None,
    )
    .await;
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("operator key"),
        "{}",
        text(&out.stderr)
    );

    // A wrong key: the server refuses with `unauthorized`.
    let out = fray(new(&["--admin-token", "not-the-operator-key"]), None).await;
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("unauthorized"),
        "{}",
        text(&out.stderr)
    );

    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "ruleset = \"13th-age\"\nheroes = [\"nobody\"]\n[[monsters]]\ntemplate = \"goblin-scrapper\"\n")
        .expect("write");
    let out = fray(
        vec![
            "new".into(),
            bad.display().to_string(),
            "--admin-token".into(),
            ADMIN_KEY.into(),
            "--server".into(),
            addr,
        ],
        None,
    )
    .await;
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("invalid_encounter") && stderr.contains("no hero with id 'nobody'"),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectate_finds_the_demo_and_follows_it_to_the_end() {
    let server = start(true).await;
    // Wait (up to 30 s on a loaded machine) until the demo has created its first session.
    let mut listed = false;
    for _ in 0..300 {
        let (_, body) = fray_server::demo::client::http(server.addr, "GET", "/sessions", "")
            .await
            .expect("GET /sessions");
        if body.contains("\"spectator_token\":\"") {
            listed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(listed, "the demo never listed a session");
    let out = fray(
        vec![
            "spectate".into(),
            "--once".into(),
            "--server".into(),
            server.addr.to_string(),
        ],
        None,
    )
    .await;
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("Watching demo session"), "{stdout}");
    assert!(stdout.contains("Seed commitment"), "{stdout}");
    assert!(stdout.contains("attacks"), "{stdout}");
    println!("{stdout}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_piped_as_gm_starts_and_refuses_illegal_moves() {
    let server = start(false).await;
    let addr = server.addr.to_string();
    let (_, text_toml) = fray_server::content::builtin_encounters("13th-age")[0];
    let created =
        fray_server::demo::client::create_session(server.addr, ADMIN_KEY, "g", text_toml, Some(3))
            .await
            .expect("create");
    let gm = created["tokens"]["gm"].as_str().expect("gm").to_string();
    let alice = created["tokens"]["players"][0]["token"]
        .as_str()
        .expect("alice")
        .to_string();
    let out = fray(
        vec![
            "play".into(),
            "--token".into(),
            gm,
            "--server".into(),
            addr.clone(),
        ],
        Some("start\nstate\n".into()),
    )
    .await;
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.to_lowercase().contains("initiative"), "{stdout}");
    // Alice may not start the battle again, nor act for Bob's hero.
    let out = fray(
        vec![
            "play".into(),
            "--token".into(),
            alice,
            "--server".into(),
            addr,
            "--encoding".into(),
            "bincode".into(),
        ],
        Some("start\n".into()),
    )
    .await;
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(all.contains("gm_only"), "{all}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_on_the_orcus_grid_shows_the_map_and_takes_grid_verbs() {
    let server = start(false).await;
    let addr = server.addr.to_string();
    let (_, text_toml) = fray_server::content::builtin_encounters("orcus")[0];
    let created =
        fray_server::demo::client::create_session(server.addr, ADMIN_KEY, "o", text_toml, Some(3))
            .await
            .expect("create");
    let gm = created["tokens"]["gm"].as_str().expect("gm").to_string();
    // The GM starts, looks at the map, and tries to walk a monster through the gorge wall.
    let out = fray(
        vec!["play".into(), "--token".into(), gm, "--server".into(), addr],
        Some("start\nstate\nhelp\nwalk 0,0\n".into()),
    )
    .await;
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    // The map: the gorge's walls, and Brenna (the first hero, A) at 3,5.
    assert!(stdout.contains("############"), "{stdout}");
    assert!(stdout.contains("A brenna (3,5)"), "{stdout}");
    assert!(stdout.contains("Grid commands (Orcus"), "{stdout}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_verify_and_export_work_on_recorded_fights() {
    let fight = repo("replays/13th-age/crypt-of-ash-seed-0");
    let out = fray(vec!["verify".into(), fight.clone()], None).await;
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let out = fray(vec!["replay".into(), fight.clone()], None).await;
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.lines().count() > 100, "{stdout}");
    let out = fray(vec!["export".into(), fight.clone(), "--json".into()], None).await;
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("export is JSON");
    assert!(json["events"].as_array().is_some_and(|e| !e.is_empty()));
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("replay-gm"),
        "tokens leaked"
    );
    // A missing file is exit 2.
    let out = fray(vec!["verify".into(), "/nonexistent/log".into()], None).await;
    assert_eq!(out.status.code(), Some(2));
    // A tampered copy is exit 1, naming the mismatch.
    let dir = tempfile::tempdir().expect("tempdir");
    let seg = PathBuf::from(&fight).join("seg-000000.log");
    let mut bytes = std::fs::read(&seg).expect("read");
    let target = dir.path().join("seg-000000.log");
    // Flip the RNG state in the header and fix the header checksum: the dice no longer derive
    // from the seed.
    let header_len = bytes.len().min(200);
    let pos = bytes[..header_len]
        .windows(5)
        .position(|w| w == b"pcg64")
        .expect("rng id")
        + 5;
    bytes[pos] ^= 1;
    let _ = std::fs::write(&target, &bytes);
    let out = fray(vec!["verify".into(), target.display().to_string()], None).await;
    assert_ne!(out.status.code(), Some(0), "a tampered log verified");
}

/// Kael (a longsword and a light pick as side weapon, a Weapon power `sword`, and `hold`, a
/// free utility power whose slowed effect needs maintaining) next to a brute, and going first.
const SIDE_WEAPON_ENCOUNTER: &str = r#"
ruleset = "orcus"
heroes = ["kael"]
[[monsters]]
template = "brute"
count = 1
[map]
rows = ["........", "........", "........", "........"]
[positions]
kael = [0, 0]
brute-1 = [1, 0]
[[hero]]
id = "kael"
name = "Kael"
level = 1
hp = 30
ac = 16
fortitude = 14
reflex = 13
will = 12
initiative = 30
speed = 5
recoveries = 2
weapon = "longsword"
side_weapon = "light pick"
[[hero.powers]]
id = "sword"
name = "Sword"
origin = "melee"
vs = "ac"
bonus = 5
hit = "1dW+2"
basic = true
tags = ["weapon"]
[[hero.powers]]
id = "hold"
name = "Hold"
action = "free"
origin = "ranged"
range = [10]
targets = "one creature"
maintain = "move"
effect = [{ condition = "slowed", duration = "maintain" }]
[[monster]]
template = "brute"
name = "Brute"
level = 1
role = "wrecker"
rank = "standard"
[[monster.powers]]
id = "club"
name = "Club"
origin = "melee"
vs = "ac"
hit = "1d10+3"
basic = true
"#;

/// orcus-basic-rules.txt § Weapon properties, Side Weapon and § Maintain, through the real
/// `fray play` and server: `side sword brute-1` attacks with the light pick (+5 and the pick's
/// +2 proficiency, not the longsword's +3), `hold` lays a maintained effect, and
/// `end-effect` releases it (a free action); `side` with a non-Weapon power is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_sends_side_weapon_attacks_and_ends_effects_side_weapon_maintain() {
    let server = start(false).await;
    let addr = server.addr.to_string();
    let created = fray_server::demo::client::create_session(
        server.addr,
        ADMIN_KEY,
        "s",
        SIDE_WEAPON_ENCOUNTER,
        Some(5),
    )
    .await
    .expect("create");
    let gm = created["tokens"]["gm"].as_str().expect("gm").to_string();
    let out = fray(
        vec!["play".into(), "--token".into(), gm, "--server".into(), addr],
        Some("start\nside sword brute-1\nside hold brute-1\nhold brute-1\nend-effect 1\n".into()),
    )
    .await;
    let stdout = text(&out.stdout);
    let all = format!("{stdout}{}", text(&out.stderr));
    assert!(out.status.success(), "{all}");
    // The pick's +2, not the longsword's +3.
    assert!(
        stdout
            .lines()
            .any(|l| l.contains("Kael attacks Brute 1 with Sword: d20=") && l.contains(" +7 = ")),
        "{all}"
    );
    assert!(all.contains("no_side_weapon"), "{all}");
    assert!(stdout.contains("must maintain effect #1"), "{all}");
    assert!(stdout.contains("(released) [effect #1]"), "{all}");
}
