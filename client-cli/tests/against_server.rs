//! The real `fray` binary against a real Fray server (in this process, port 0) and the real
//! recorded fights in `replays/`.

use fray_protocol::BxCommand;
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
    fray_with_env(args, stdin, Vec::new()).await
}

/// The `fray` binary started with `args` (and `env`, none of the caller's own `FRAY_*`
/// settings), its stdout and stderr piped.
fn fray_child<S: AsRef<std::ffi::OsStr>>(
    args: &[S],
    stdin: Stdio,
    env: Vec<(&'static str, String)>,
) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(args)
        .env_remove("FRAY_SERVER")
        .env_remove("FRAY_ADMIN_TOKEN")
        .env_remove("FRAY_DATA_DIR")
        .env_remove("FRAY_CA_CERT")
        .envs(env)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn fray")
}

/// [`fray`] with these environment variables set.
async fn fray_with_env(
    args: Vec<String>,
    stdin: Option<String>,
    env: Vec<(&'static str, String)>,
) -> Output {
    let run = tokio::task::spawn_blocking(move || {
        let input = if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        };
        let mut child = fray_child(&args, input, env);
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

/// Waits (up to 30 s on a loaded machine) until the demo has created its first session.
async fn demo_listed(server: &Server) {
    for _ in 0..300 {
        let (_, body) = fray_server::demo::client::http(server.addr, "GET", "/sessions", "")
            .await
            .expect("GET /sessions");
        if body.contains("\"spectator_token\":\"") {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the demo never listed a session");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectate_finds_the_demo_and_follows_it_to_the_end() {
    let server = start(true).await;
    demo_listed(&server).await;
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
    let (_, text_toml) = fray_server::rules::builtin_encounters("13th-age")[0];
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
    let (_, text_toml) = fray_server::rules::builtin_encounters("orcus")[0];
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
    // The help of an Orcus session: its grid verbs, not 13th Age's escalation die.
    assert!(
        stdout.contains("Commands of this session (orcus"),
        "{stdout}"
    );
    assert!(stdout.contains("  walk X,Y"), "{stdout}");
    assert!(!stdout.contains("escalation hold"), "{stdout}");
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
    let exported = text(&out.stdout);
    let lines: Vec<serde_json::Value> = exported
        .lines()
        .map(|l| serde_json::from_str(l).expect("export is JSON lines"))
        .collect();
    assert_eq!(lines[0]["audience"], "public");
    assert!(lines.iter().any(|l| l["events"]["events"].is_array()));
    assert!(!exported.contains("replay-gm"), "tokens leaked");
    // The public log verifies, saying what it could not check.
    let dir = tempfile::tempdir().expect("tempdir");
    let public = dir.path().join("public.jsonl");
    std::fs::write(&public, &exported).expect("write");
    let out = fray(vec!["verify".into(), public.display().to_string()], None).await;
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("Public log"), "{stdout}");
    assert!(
        stdout.contains("Not checked without the secret seed"),
        "{stdout}"
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
    // The pick's +2 proficiency, not the longsword's +3, named among the roll's terms.
    assert!(
        stdout
            .lines()
            .any(|l| l.contains("Kael attacks Brute 1 with Sword: d20=")
                && l.contains(" +5 attack bonus +2 proficiency = ")),
        "{all}"
    );
    assert!(all.contains("no_side_weapon"), "{all}");
    assert!(stdout.contains("must maintain effect #1"), "{all}");
    assert!(stdout.contains("(released) [effect #1]"), "{all}");
}

/// The recipe of protocol/README.md § "How a player checks the dice", run as written: a
/// player downloads the public log of a finished Old-School Essentials session that has GM-only
/// secret rolls and `fray verify` passes on it; the log holds no secret roll's result and no
/// secret seed; one public die changed in it fails verification.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_protocol_documents_recipe_checks_the_dice_of_a_finished_ose_session() {
    use fray_protocol::codec::Encoding;
    use fray_protocol::ose::SecretCheck;
    use fray_protocol::{ClientMessage, CombatantId, Command, ServerMessage};
    use fray_server::demo::client::Client;

    let server = start(false).await;
    let (_, toml) = fray_server::rules::builtin_encounters("ose")
        .iter()
        .find(|(n, _)| *n == "barrow-of-the-hollow-king")
        .copied()
        .expect("the OSE encounter");
    let created =
        fray_server::demo::client::create_session(server.addr, ADMIN_KEY, "barrow", toml, Some(4))
            .await
            .expect("create");
    let session = created["session"].as_str().expect("id").to_owned();
    let gm_token = created["tokens"]["gm"].as_str().expect("gm").to_owned();
    let player = created["tokens"]["players"][0]["token"]
        .as_str()
        .expect("a player")
        .to_owned();
    // The GM: two secret rolls, then the battle starts and ends (the seed is revealed).
    let mut gm = Client::connect(&format!("ws://{}/ws", server.addr), Encoding::Json)
        .await
        .expect("connect");
    gm.hello(&gm_token, None).await.expect("hello");
    let listen = Command::Bx(BxCommand::SecretRoll {
        check: SecretCheck::Listen,
        combatant: Some(CombatantId::new("quill")),
        chance: 2,
        area: None,
    });
    let wandering = Command::Bx(BxCommand::SecretRoll {
        check: SecretCheck::WanderingMonster,
        combatant: None,
        chance: 2,
        area: None,
    });
    let commands = [listen, wandering, Command::StartBattle, Command::EndBattle];
    for (id, command) in (1u64..).zip(commands) {
        gm.send(&ClientMessage::Command { id, command })
            .await
            .expect("send");
        loop {
            match tokio::time::timeout(GIVE_UP, gm.recv())
                .await
                .expect("timely")
                .expect("a message")
            {
                ServerMessage::Accepted { command_id, .. } if command_id == id => break,
                ServerMessage::Rejected { message, .. } => panic!("refused: {message}"),
                _ => {}
            }
        }
    }

    // The recipe, as the document writes it.
    let readme = std::fs::read_to_string(repo("protocol/README.md")).expect("README");
    let recipe = readme
        .split("<!-- recipe: check-the-dice -->")
        .nth(1)
        .and_then(|r| r.split("<!-- end recipe -->").next())
        .expect("the recipe markers");
    let script: String = recipe
        .lines()
        .filter(|l| !l.starts_with("```"))
        .map(|l| format!("{l}\n"))
        .collect();
    let bin_dir = PathBuf::from(env!("CARGO_BIN_EXE_fray"))
        .parent()
        .expect("bin dir")
        .to_path_buf();
    let work = tempfile::tempdir().expect("tempdir");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = |script: String| {
        let dir = work.path().to_path_buf();
        let env = [
            ("SESSION", session.clone()),
            ("TOKEN", player.clone()),
            ("SERVER", server.addr.to_string()),
            ("PATH", path.clone()),
        ];
        tokio::task::spawn_blocking(move || {
            std::process::Command::new("bash")
                .args(["-euo", "pipefail", "-c", &script])
                .current_dir(dir)
                .envs(env)
                .env_remove("FRAY_SERVER")
                .output()
                .expect("bash")
        })
    };
    let out = run(script.clone()).await.expect("recipe");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("OK:"), "{stdout}");
    assert!(stdout.contains("2 GM-only secret rolls"), "{stdout}");

    // No secret: the secret rolls are redacted, the secret seed and salt are not there.
    let log = std::fs::read_to_string(work.path().join("fight.jsonl")).expect("the log");
    let full = fray_server::replay::read_log(&server._dir.path().join("sessions").join(&session))
        .expect("the server's full log");
    let g = full.genesis();
    assert!(!log.contains(&g.secret_seed.to_string()) && !log.contains(&g.secret_salt));
    assert!(!log.contains(&gm_token) && !log.contains(&player));
    let mut secret_rolls = 0;
    for line in log.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
        for e in v["events"]["events"].as_array().into_iter().flatten() {
            if let Some(r) = e.get("secret_rolled") {
                secret_rolls += 1;
                assert!(r["roll"].is_null() && r["success"].is_null() && r["distance"].is_null());
            }
        }
    }
    assert_eq!(secret_rolls, 2);

    // One public die changed (the first initiative roll's face): verification fails.
    let mut changed = false;
    let forged: String = log
        .lines()
        .map(|line| {
            if !changed && line.contains("\"face\":") && line.starts_with("{\"events\"") {
                let at = line.find("\"face\":").expect("a face") + 7;
                let end = at
                    + line[at..]
                        .find(|c: char| !c.is_ascii_digit())
                        .expect("digits");
                let face: u32 = line[at..end].parse().expect("a number");
                changed = true;
                format!("{}{}{}\n", &line[..at], face % 6 + 1, &line[end..])
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    assert!(changed);
    std::fs::write(work.path().join("fight.jsonl"), forged).expect("write");
    let out = run("fray verify fight.jsonl".into()).await.expect("verify");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("MISMATCH"),
        "{}",
        text(&out.stdout)
    );
}

/// A copy of a recorded fight's folder (`replays/…`) in `dir`, to damage.
fn copy_golden(fight: &str, dir: &std::path::Path) -> PathBuf {
    let copy = dir.join("fight");
    std::fs::create_dir_all(&copy).expect("mkdir");
    for e in std::fs::read_dir(repo(fight)).expect("golden") {
        let e = e.expect("entry");
        std::fs::copy(e.path(), copy.join(e.file_name())).expect("copy");
    }
    copy
}

/// A byte flipped in the middle of a shipped replay's segment: `verify`, `replay` and `export`
/// each fail (exit 2, the log cannot be read as it is) naming the segment file, the byte offset
/// and the last good seq — none of them passes off the damage as a torn tail.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_replay_and_export_refuse_a_log_damaged_in_the_middle() {
    let dir = tempfile::tempdir().expect("tempdir");
    let copy = copy_golden("replays/ose/barrow-of-the-hollow-king-seed-24", dir.path());
    let seg = copy.join("seg-000000.log");
    let mut bytes = std::fs::read(&seg).expect("read");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x01;
    std::fs::write(&seg, bytes).expect("write");
    for verb in ["verify", "replay", "export"] {
        let out = fray(vec![verb.into(), copy.display().to_string()], None).await;
        let stderr = text(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{verb}: {stderr}{}",
            text(&out.stdout)
        );
        assert!(stderr.contains("corruption in"), "{verb}: {stderr}");
        assert!(stderr.contains("seg-000000.log"), "{verb}: {stderr}");
        assert!(stderr.contains("at byte"), "{verb}: {stderr}");
        assert!(stderr.contains("last good frame seq"), "{verb}: {stderr}");
    }
}

/// A crash in the middle of an append leaves a torn tail: `verify` still checks everything
/// before it (exit 0) and says on stderr what it left out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_says_when_it_leaves_out_a_torn_tail() {
    let dir = tempfile::tempdir().expect("tempdir");
    let copy = copy_golden("replays/13th-age/goblin-ambush-seed-111", dir.path());
    // Half a frame appended, as a crash mid-append leaves it.
    let seg = copy.join("seg-000000.log");
    let mut bytes = std::fs::read(&seg).expect("read");
    bytes.extend_from_slice(&[40, 0, 0, 0, 1, 2, 3, 4, 9, 9]);
    std::fs::write(&seg, bytes).expect("write");
    let out = fray(vec!["verify".into(), copy.display().to_string()], None).await;
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}{}", text(&out.stdout));
    assert!(stderr.contains("torn tail of 10 bytes"), "{stderr}");
}

/// The GM's tools from `fray play`: a chat line, a free roll and a rewind to the start, each
/// narrated; the GM's log of the session, downloaded with `fray log`, passes `fray verify`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gm_talks_rolls_and_rewinds_from_play_and_the_log_verifies() {
    let server = start(false).await;
    let addr = server.addr.to_string();
    let (_, text_toml) = fray_server::rules::builtin_encounters("13th-age")[0];
    let created =
        fray_server::demo::client::create_session(server.addr, ADMIN_KEY, "g", text_toml, Some(8))
            .await
            .expect("create");
    let gm = created["tokens"]["gm"].as_str().expect("gm").to_string();
    let session = created["session"].as_str().expect("session").to_string();
    let out = fray(
        vec![
            "play".into(),
            "--token".into(),
            gm.clone(),
            "--server".into(),
            addr.clone(),
        ],
        Some("start\nsay hold the ford\n/roll 2d6+1 morale\nrewind 0\nsethp brakka 50\n".into()),
    )
    .await;
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("[the GM] hold the ford"), "{stdout}");
    assert!(stdout.contains("the GM rolls (morale) 2d6+1:"), "{stdout}");
    assert!(
        stdout.contains("GM override: the fight is rewound to event 0"),
        "{stdout}"
    );
    assert!(
        stdout.contains("invalid_argument"),
        "above the maximum: {stdout}"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("gm.jsonl");
    let out = fray(
        vec![
            "log".into(),
            session,
            "--token".into(),
            gm,
            "--server".into(),
            addr,
            "-o".into(),
            log.display().to_string(),
        ],
        None,
    )
    .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = fray(vec!["verify".into(), log.display().to_string()], None).await;
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// `fray play` at a terminal (a pseudo-terminal, so the line editor runs as for a person):
/// Tab completes a combatant's id, Up recalls the last command, the history file keeps the
/// completed lines, the table has coloured hit-point bars, `end` with the standard action
/// unused asks for a second `end`, and Ctrl-D leaves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_at_a_terminal_completes_names_with_tab_and_recalls_commands_with_up() {
    let server = start(false).await;
    let (_, goblins) = fray_server::rules::builtin_encounters("13th-age")[0];
    let created =
        fray_server::demo::client::create_session(server.addr, ADMIN_KEY, "g", goblins, Some(3))
            .await
            .expect("create");
    let gm = created["tokens"]["gm"].as_str().expect("gm").to_string();
    let home = tempfile::tempdir().expect("tempdir");
    let history = home.path().join("history");
    let addr = server.addr.to_string();
    let hist = history.clone();
    let run = tokio::task::spawn_blocking(move || -> Result<(), rexpect::error::Error> {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_fray"));
        cmd.args(["play", "--token", &gm, "--server", &addr])
            .env("TERM", "xterm")
            .env("FRAY_HISTORY", &hist)
            .env_remove("FRAY_SERVER");
        let mut p = rexpect::session::spawn_command(cmd, Some(60_000))?;
        p.exp_string("Type `help`")?;
        p.exp_string("> ")?;
        // Tab completes `bra` to the only id it starts: brakka.
        p.send("sethp bra\t")?;
        p.flush()?;
        std::thread::sleep(Duration::from_millis(300));
        p.send(" 7\r")?;
        p.flush()?;
        // As a person would, wait for the answer before typing on.
        p.exp_string("hit points set to 7")?;
        std::thread::sleep(Duration::from_millis(300));
        p.send("state\r")?;
        p.flush()?;
        p.exp_regex(r"brakka\s[^\n]*\x1b\[3\dm7/\d+ ")?;
        // Up recalls `state`: the table again, Brakka still at 7.
        p.send("\x1b[A")?;
        p.flush()?;
        std::thread::sleep(Duration::from_millis(300));
        p.send("\r")?;
        p.flush()?;
        p.exp_regex(r"brakka\s[^\n]*\x1b\[3\dm7/\d+ ")?;
        // Ending a turn with its standard action unused asks for `end` once more.
        std::thread::sleep(Duration::from_millis(300));
        p.send("start\r")?;
        p.flush()?;
        p.exp_string("'s turn")?;
        std::thread::sleep(Duration::from_millis(300));
        p.send("end\r")?;
        p.flush()?;
        p.exp_string("`end` again ends the turn anyway")?;
        std::thread::sleep(Duration::from_millis(300));
        p.send("end\r")?;
        p.flush()?;
        p.exp_string("ends the turn")?;
        std::thread::sleep(Duration::from_millis(300));
        p.send_control('d')?;
        p.exp_eof()?;
        Ok(())
    });
    tokio::time::timeout(GIVE_UP, run)
        .await
        .expect("the terminal session ended")
        .expect("join")
        .expect("the terminal session went as typed");
    let kept = std::fs::read_to_string(&history).expect("the history file");
    let lines: Vec<&str> = kept.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.contains(&"sethp brakka 7"), "{kept}");
    assert!(lines.contains(&"state"), "{kept}");
}

/// `https://` and `wss://` addresses are reached over TLS (rustls): against this plain server the
/// TLS handshake fails on its plain-text answer, where an `http://` address gets the server's
/// own refusal. (A server behind a TLS proxy: `a_server_behind_a_tls_proxy_is_played_over_wss_with_its_ca_cert`.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn https_and_wss_addresses_speak_tls() {
    let server = start(false).await;
    let at = |scheme: &str| format!("{scheme}://{}", server.addr);
    let log = |address: String| {
        vec![
            "log".to_owned(),
            "s-none".to_owned(),
            "--token".to_owned(),
            "t".to_owned(),
            "--server".to_owned(),
            address,
        ]
    };
    let plain = fray(log(at("http")), None).await;
    assert!(
        text(&plain.stderr).contains("unauthorized"),
        "{}",
        text(&plain.stderr)
    );
    let tls = fray(log(at("https")), None).await;
    assert_eq!(tls.status.code(), Some(1));
    assert!(
        text(&tls.stderr).contains("corrupt message"),
        "a TLS handshake: {}",
        text(&tls.stderr)
    );
    let ws = fray(
        vec![
            "play".into(),
            "--token".into(),
            "t".into(),
            "--server".into(),
            at("wss"),
        ],
        None,
    )
    .await;
    assert_eq!(ws.status.code(), Some(1));
    assert!(
        text(&ws.stderr).contains("cannot open wss://")
            && text(&ws.stderr).contains("corrupt message"),
        "{}",
        text(&ws.stderr)
    );
}

/// A TLS-terminating proxy in front of `upstream`, as README's "Running it for others" has it
/// (nginx, Caddy, …): it accepts TLS with a self-signed certificate made now for `127.0.0.1`
/// and `localhost` and forwards the decrypted bytes, HTTP and the WebSocket upgrade alike.
struct TlsProxy {
    addr: SocketAddr,
    /// The proxy's certificate as a PEM file, for `--ca-cert`.
    ca_cert: PathBuf,
    /// Connections whose TLS handshake succeeded.
    handshakes: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    /// The acceptor new connections get (`rotate` replaces it).
    acceptor: std::sync::Arc<std::sync::Mutex<tokio_rustls::TlsAcceptor>>,
    /// Cuts every open connection (`rotate`).
    cut: tokio::sync::watch::Sender<u32>,
    _dir: tempfile::TempDir,
}

/// A TLS acceptor with a fresh self-signed certificate, and that certificate as PEM.
fn self_signed() -> (tokio_rustls::TlsAcceptor, String) {
    use std::sync::Arc;
    use tokio_rustls::rustls;
    let rcgen::CertifiedKey { cert, signing_key } =
        rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
            .expect("a self-signed certificate");
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(signing_key.serialize_der().into());
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("protocol versions")
        .with_no_client_auth()
        .with_single_cert(vec![cert.der().clone()], key)
        .expect("the proxy's TLS configuration");
    (
        tokio_rustls::TlsAcceptor::from(Arc::new(config)),
        cert.pem(),
    )
}

async fn tls_proxy(upstream: SocketAddr) -> TlsProxy {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    let (acceptor, pem) = self_signed();
    let acceptor = Arc::new(Mutex::new(acceptor));
    let dir = tempfile::tempdir().expect("tempdir");
    let ca_cert = dir.path().join("proxy.pem");
    std::fs::write(&ca_cert, pem).expect("write the certificate");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let handshakes = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&handshakes);
    let (cut, cuts) = tokio::sync::watch::channel(0);
    let current = Arc::clone(&acceptor);
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let acceptor = current.lock().expect("the acceptor").clone();
            let counted = Arc::clone(&counted);
            let mut cuts = cuts.clone();
            tokio::spawn(async move {
                // A client that does not trust the certificate ends the handshake here.
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                counted.fetch_add(1, Ordering::SeqCst);
                let Ok(mut server) = tokio::net::TcpStream::connect(upstream).await else {
                    return;
                };
                tokio::select! {
                    _ = tokio::io::copy_bidirectional(&mut tls, &mut server) => {}
                    _ = cuts.changed() => {}
                }
            });
        }
    });
    TlsProxy {
        addr,
        ca_cert,
        handshakes,
        acceptor,
        cut,
        _dir: dir,
    }
}

impl TlsProxy {
    /// The proxy restarts with a new self-signed certificate: open connections are cut, and
    /// new ones meet the new certificate (which no `--ca-cert` file holds).
    fn rotate(&self) {
        let (acceptor, _) = self_signed();
        *self.acceptor.lock().expect("the acceptor") = acceptor;
        self.cut.send_modify(|n| *n += 1);
    }
}

/// `fray --ca-cert … new` over the proxy's `https://`: the session's id and GM token.
async fn new_behind(proxy: &TlsProxy) -> (String, String) {
    let https = format!("https://{}", proxy.addr);
    let ca_cert = proxy.ca_cert.display().to_string();
    let goblins = repo("server/content/13th-age/encounters/goblin-ambush.toml");
    let out = fray(
        vec![
            "--ca-cert".into(),
            ca_cert,
            "new".into(),
            goblins,
            "--seed".into(),
            "5".into(),
            "--admin-token".into(),
            ADMIN_KEY.into(),
            "--server".into(),
            https.clone(),
        ],
        None,
    )
    .await;
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    // The pasted lines keep the scheme: a bare host:port would speak plain text to the proxy.
    assert!(stdout.contains(&format!("--server {https}")), "{stdout}");
    let session = stdout
        .split_whitespace()
        .find(|w| w.starts_with("s-"))
        .expect("the session id")
        .to_owned();
    let gm = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("GM:"))
        .map(|t| t.trim().to_owned())
        .expect("the GM's token");
    (session, gm)
}

/// Issue 22: `fray` reaches a server behind a TLS-terminating proxy whose certificate it was
/// told to trust (`--ca-cert`, or `FRAY_CA_CERT`): `new` over `https://`, then `play` over
/// `wss://` joins as GM, starts the battle and shows the state; `log` downloads the log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_behind_a_tls_proxy_is_played_over_wss_with_its_ca_cert() {
    let server = start(false).await;
    let proxy = tls_proxy(server.addr).await;
    let https = format!("https://{}", proxy.addr);
    let ca_cert = proxy.ca_cert.display().to_string();
    let (session, gm) = new_behind(&proxy).await;
    let after_new = proxy.handshakes.load(std::sync::atomic::Ordering::SeqCst);
    assert!(after_new >= 1, "the request went through the proxy");

    let out = fray(
        vec![
            "play".into(),
            "--token".into(),
            gm.clone(),
            "--server".into(),
            format!("wss://{}", proxy.addr),
            "--ca-cert".into(),
            ca_cert.clone(),
        ],
        Some("start\nstate\n".into()),
    )
    .await;
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains(&format!("Joined session {session} as GM")),
        "{stdout}"
    );
    assert!(stdout.to_lowercase().contains("initiative"), "{stdout}");
    assert!(
        proxy.handshakes.load(std::sync::atomic::Ordering::SeqCst) > after_new,
        "the WebSocket went through the proxy"
    );

    // FRAY_CA_CERT does the same; the log shows the battle started over the proxy.
    let out = fray_with_env(
        vec![
            "log".into(),
            session,
            "--token".into(),
            gm,
            "--server".into(),
            https,
        ],
        None,
        vec![("FRAY_CA_CERT", ca_cert)],
    )
    .await;
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("battle_started"), "{stdout}");
}

/// Without `--ca-cert` the proxy's self-signed certificate is refused, over `wss://` and
/// `https://` alike, with an error that says why and what to pass; an unreadable `--ca-cert`
/// file is named.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proxy_with_an_untrusted_certificate_is_refused_with_a_certificate_error() {
    let server = start(false).await;
    let proxy = tls_proxy(server.addr).await;
    let play = fray(
        vec![
            "play".into(),
            "--token".into(),
            "t".into(),
            "--server".into(),
            format!("wss://{}", proxy.addr),
        ],
        Some("state\n".into()),
    )
    .await;
    let stderr = text(&play.stderr);
    assert_eq!(play.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("invalid peer certificate") && stderr.contains("--ca-cert"),
        "{stderr}"
    );
    let log = fray(
        vec![
            "log".into(),
            "s-none".into(),
            "--token".into(),
            "t".into(),
            "--server".into(),
            format!("https://{}", proxy.addr),
        ],
        None,
    )
    .await;
    let stderr = text(&log.stderr);
    println!("{}{stderr}", text(&play.stderr));
    assert_eq!(log.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("invalid peer certificate") && stderr.contains("--ca-cert"),
        "{stderr}"
    );
    assert_eq!(
        proxy.handshakes.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "no handshake completed"
    );
    let missing = proxy.ca_cert.with_file_name("missing.pem");
    let out = fray(
        vec![
            "--ca-cert".into(),
            missing.display().to_string(),
            "play".into(),
            "--token".into(),
            "t".into(),
            "--server".into(),
            format!("wss://{}", proxy.addr),
        ],
        None,
    )
    .await;
    let stderr = text(&out.stderr);
    println!("{stderr}");
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("cannot read the CA certificate file") && stderr.contains("missing.pem"),
        "{stderr}"
    );
}

/// A proxy that comes back with a certificate `fray` does not trust (restarted with a new
/// self-signed one) ends `play` with the certificate error at once: retrying cannot help, so
/// the reconnection loop does not retry it for ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proxy_whose_certificate_changes_mid_session_ends_play_with_the_certificate_error() {
    let server = start(false).await;
    let proxy = tls_proxy(server.addr).await;
    let (_, gm) = new_behind(&proxy).await;
    let args = [
        "play".to_owned(),
        "--token".to_owned(),
        gm,
        "--server".to_owned(),
        format!("wss://{}", proxy.addr),
        "--ca-cert".to_owned(),
        proxy.ca_cert.display().to_string(),
    ];
    let mut child = fray_child(&args, Stdio::piped(), Vec::new());
    // Its stdin stays open: `play` waits for lines, connected, until the proxy changes.
    let stdin = child.stdin.take();
    // Read to the end (a closed pipe would end `play` another way), until it joined.
    let printed = Printed::follow(child.stdout.take().expect("stdout"));
    printed
        .until("play to join over the proxy", |t| {
            t.contains("Joined session")
        })
        .await;
    proxy.rotate();
    let ended = tokio::task::spawn_blocking(move || child.wait_with_output());
    let out = tokio::time::timeout(GIVE_UP, ended)
        .await
        .expect("play ended instead of retrying")
        .expect("join")
        .expect("fray output");
    drop(stdin);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("invalid peer certificate") && stderr.contains("--ca-cert"),
        "{stderr}"
    );
}

/// `fray spectate … | head -1`: the reader leaves while the demo goes on, and `fray` ends
/// quietly at its next line, with 141 (what a shell reports for a program SIGPIPE ended, as
/// `cat` would be), instead of panicking with "failed printing to stdout".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectate_piped_into_a_reader_that_leaves_ends_without_a_panic() {
    use std::io::{BufRead, BufReader, Read};
    let server = start(true).await;
    demo_listed(&server).await;
    let args = [
        "spectate".to_owned(),
        "--server".to_owned(),
        server.addr.to_string(),
    ];
    let mut child = fray_child(&args, Stdio::null(), Vec::new());
    let stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let ended = tokio::task::spawn_blocking(move || {
        let mut first = String::new();
        // The reader takes one line and leaves (its end of the pipe closes here).
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("a line");
        let mut said = String::new();
        stderr.read_to_string(&mut said).expect("stderr");
        (first, said, child.wait().expect("fray ends"))
    });
    let (first, said, status) = tokio::time::timeout(GIVE_UP, ended)
        .await
        .expect("spectate ended once its reader left")
        .expect("join");
    assert!(!first.is_empty());
    assert!(!said.contains("panicked"), "{status:?}: {said}");
    assert_eq!(status.code(), Some(141), "{said}");
}

/// What a running `fray` printed so far, read line by line on a thread of its own.
struct Printed(std::sync::Arc<std::sync::Mutex<String>>);

impl Printed {
    fn follow(out: std::process::ChildStdout) -> Printed {
        use std::io::{BufRead, BufReader};
        let text = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let sink = text.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if let Ok(mut t) = sink.lock() {
                    t.push_str(&line);
                    t.push('\n');
                }
            }
        });
        Printed(text)
    }

    fn now(&self) -> String {
        self.0.lock().map(|t| t.clone()).unwrap_or_default()
    }

    /// Waits until what was printed satisfies `done`, and returns it.
    async fn until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let deadline = tokio::time::Instant::now() + GIVE_UP;
        loop {
            let now = self.now();
            if done(&now) {
                return now;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "waited for {what}; printed so far:\n{now}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// The GM (over its own connection) ends every turn until one of `heroes` is up; returns it.
async fn gm_ends_turns_until(
    gm: &mut fray_server::demo::client::Client,
    heroes: &[String],
) -> String {
    use fray_protocol::{ClientMessage, CombatantId, Command, GameEvent, ServerMessage};
    let mut command = Command::StartBattle;
    for id in 1.. {
        gm.send(&ClientMessage::Command { id, command })
            .await
            .expect("send");
        let mut current = None;
        loop {
            match gm.recv().await.expect("the GM's answer") {
                ServerMessage::Event {
                    event: GameEvent::TurnStarted { combatant, .. },
                    ..
                } => current = Some(combatant),
                ServerMessage::Accepted { command_id, .. } if command_id == id => break,
                ServerMessage::Rejected { message, .. } => panic!("GM refused: {message}"),
                _ => {}
            }
        }
        let current: CombatantId = current.expect("each command here starts a turn");
        if heroes.iter().any(|h| h == current.as_str()) {
            return current.to_string();
        }
        command = Command::EndTurn { actor: current };
    }
    unreachable!()
}

/// A player's turn that starts by the GM's command (the view patch and the turn's legal actions
/// come in one write, the patch first): the menu waits for those legal actions and numbers their
/// targets, each attack says which of them it may hit, and the numbers it gives are accepted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_turn_started_by_the_gm_shows_the_targets_of_that_turns_legal_actions() {
    let server = start(false).await;
    let (_, text_toml) = fray_server::rules::builtin_encounters("13th-age")[0];
    let created =
        fray_server::demo::client::create_session(server.addr, ADMIN_KEY, "g", text_toml, Some(5))
            .await
            .expect("create");
    let gm_token = created["tokens"]["gm"].as_str().expect("gm").to_string();
    let alice = &created["tokens"]["players"][0];
    let token = alice["token"].as_str().expect("alice").to_string();
    let heroes: Vec<String> = alice["controls"]
        .as_array()
        .expect("controls")
        .iter()
        .filter_map(|c| c.as_str().map(str::to_owned))
        .collect();
    let args = [
        "play",
        "--token",
        &token,
        "--server",
        &server.addr.to_string(),
    ]
    .map(str::to_owned);
    let mut child = fray_child(&args, Stdio::piped(), Vec::new());
    let mut stdin = child.stdin.take().expect("stdin");
    let printed = Printed::follow(child.stdout.take().expect("stdout"));
    printed
        .until("the wait for the GM", |t| t.contains("Waiting for the GM"))
        .await;

    let url = format!("ws://{}/ws", server.addr);
    let mut gm =
        fray_server::demo::client::Client::connect(&url, fray_protocol::codec::Encoding::Json)
            .await
            .expect("connect");
    gm.hello(&gm_token, None).await.expect("hello");
    let hero = gm_ends_turns_until(&mut gm, &heroes).await;

    // The menu ends with its `Also:` line, and the legal actions follow it. (Were they late
    // beyond the grace period, the turn would be shown again with them: take the last.)
    let shown = printed
        .until("the turn's menu and legal actions", |t| {
            t.rsplit("your turn")
                .next()
                .is_some_and(|m| m.contains("Also:") && m.contains("Legal actions"))
                && t.contains("your turn")
        })
        .await;
    let menu = shown
        .rsplit("your turn")
        .next()
        .expect("the menu")
        .to_owned();
    assert!(menu.contains("Targets:"), "{menu}");
    assert!(!menu.contains("No legal target now"), "{menu}");
    // The first attack that has a target, and the first of its target numbers.
    let (attack, target) = menu
        .lines()
        .filter_map(|l| {
            let (number, rest) = l.trim().split_once(". ")?;
            let numbers = rest.split("[").nth(1)?.split("target").nth(1)?;
            let first = numbers
                .trim_start_matches('s')
                .trim()
                .split([',', ']'])
                .next()?;
            Some((number.to_owned(), first.trim().to_owned()))
        })
        .next()
        .unwrap_or_else(|| panic!("an attack with its targets in:\n{menu}"));
    writeln!(stdin, "a {attack} {target}").expect("type");
    let attacked = printed
        .until("the attack's answer", |t| {
            let after = t.split("your turn").nth(1).unwrap_or("");
            after.contains("Rejected") || after.matches(hero.as_str()).count() > 2
        })
        .await;
    writeln!(stdin, "quit").expect("type");
    drop(stdin);
    let status = tokio::task::spawn_blocking(move || child.wait().expect("fray ends"))
        .await
        .expect("join");
    assert!(status.success());
    let after = attacked.split("your turn").nth(1).unwrap_or("");
    assert!(!after.contains("Rejected"), "{after}");
    gm.close().await;
}
