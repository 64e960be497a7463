//! The browser client in a real Chromium, through WebDriver (Debian's `chromedriver`, started
//! here on a free port): the lobby lists the fights and creates one; a GM and a player, each in
//! their own browser, play a 13th Age fight to its end by clicking the legal-action buttons; a
//! spectator's page shows the same events with the monsters' hit points hidden; a refused
//! command's reason is shown; the GM tools' table talk (a whisper read only by its player, public
//! and blind rolls), a rewind by clicking and the server playing the monsters. Screenshots go to
//! `<target>/tmp/browser/` (look at them).
//!
//! Without `chromedriver` the tests say they were skipped and why; under CI (`FRAY_CI=1`) they fail.
//! The tests that open Chromium take turns (one at a time), and a chromedriver that dies or misses
//! a session is restarted and asked again, its log quoted when it still fails.

use anyhow::{Context, Result, anyhow, bail, ensure};
use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use fray_tests::{ADMIN_KEY, TestServer};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// How long any one wait may take (the page answers in milliseconds; this is for slow CI).
const WAIT: Duration = Duration::from_secs(20);

/// How many times a chromedriver is started, or a browser session opened, before giving up.
const ATTEMPTS: usize = 3;

/// One Chromium test at a time: the CI machine has two cores, and several Chromiums started at
/// once made chromedriver miss its connections.
static ONE_AT_A_TIME: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);

/// `chromedriver` on a free port; killed when dropped. Its log is kept in
/// `<target>/tmp/browser/chromedriver-<port>.log` and quoted when it fails.
struct Driver {
    child: Child,
    port: u16,
    path: PathBuf,
    url: String,
    profiles: Vec<tempfile::TempDir>,
    _turn: tokio::sync::SemaphorePermit<'static>,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn find(program: &str, fallback: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join(program))
        .chain(std::iter::once(PathBuf::from(fallback)))
        .find(|p| p.is_file())
}

/// Where a chromedriver on `port` writes its log.
fn driver_log(port: u16) -> Result<PathBuf> {
    Ok(shots()?.join(format!("chromedriver-{port}.log")))
}

/// The last lines of a chromedriver's log, for an error message.
fn log_tail(port: u16) -> String {
    let text = driver_log(port)
        .and_then(|p| Ok(std::fs::read_to_string(p)?))
        .unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}

/// Starts chromedriver on a free port and waits until it listens. `None` when it exited first
/// (say, another process took the port between our probe and its bind).
async fn spawn_driver(path: &Path) -> Result<Option<(Child, u16)>> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let mut child = Command::new(path)
        .arg(format!("--port={port}"))
        .arg(format!("--log-path={}", driver_log(port)?.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("starting {}", path.display()))?;
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            eprintln!(
                "chromedriver on port {port} exited ({status}) before listening:\n{}",
                log_tail(port)
            );
            return Ok(None);
        }
        if tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
        {
            return Ok(Some((child, port)));
        }
        if start.elapsed() > WAIT {
            let _ = child.kill();
            bail!(
                "chromedriver did not listen on port {port}:\n{}",
                log_tail(port)
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

impl Driver {
    /// Starts chromedriver, once the test before has finished with its own. When it is missing:
    /// under CI (`FRAY_CI=1`, set by `.ci/run`, which installs it) an error; elsewhere `None`, and
    /// the test says it was skipped.
    async fn start() -> Result<Option<Driver>> {
        let Some(path) = find("chromedriver", "/usr/bin/chromedriver") else {
            let what = "chromedriver not found: the browser tests need Chromium and its WebDriver \
                        (Debian: apt-get install -y chromium chromium-driver)";
            if std::env::var_os("FRAY_CI").is_some() {
                bail!("{what}");
            }
            eprintln!("SKIPPED the browser tests: {what}");
            return Ok(None);
        };
        let turn = ONE_AT_A_TIME.acquire().await?;
        for _ in 0..ATTEMPTS {
            if let Some((child, port)) = spawn_driver(&path).await? {
                return Ok(Some(Driver {
                    child,
                    port,
                    path,
                    url: format!("http://127.0.0.1:{port}"),
                    profiles: Vec::new(),
                    _turn: turn,
                }));
            }
        }
        bail!("chromedriver exited before listening, {ATTEMPTS} times (logs in target/tmp/browser)")
    }

    /// Starts a new chromedriver when this one has exited.
    async fn revive(&mut self) -> Result<()> {
        if self.child.try_wait()?.is_none() {
            return Ok(());
        }
        eprintln!(
            "chromedriver on port {} had exited:\n{}",
            self.port,
            log_tail(self.port)
        );
        for _ in 0..ATTEMPTS {
            if let Some((child, port)) = spawn_driver(&self.path).await? {
                self.child = child;
                self.port = port;
                self.url = format!("http://127.0.0.1:{port}");
                return Ok(());
            }
        }
        bail!("chromedriver could not be restarted")
    }

    /// A new browser (its own Chromium and profile). A session that chromedriver fails to open
    /// is tried again (after restarting chromedriver if it died); the third failure is an error
    /// quoting chromedriver's log.
    async fn browser(&mut self, width: u32, height: u32) -> Result<Client> {
        let mut last = None;
        for attempt in 1..=ATTEMPTS {
            self.revive().await?;
            match self.open(width, height).await {
                Ok(client) => return Ok(client),
                Err(e) => {
                    eprintln!("opening a Chromium session, attempt {attempt}: {e:#}");
                    last = Some(e);
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }
        }
        let e = last.unwrap_or_else(|| anyhow!("no attempt made"));
        Err(e.context(format!(
            "opening a Chromium session through chromedriver; its log ends:\n{}",
            log_tail(self.port)
        )))
    }

    async fn open(&mut self, width: u32, height: u32) -> Result<Client> {
        let profile = tempfile::tempdir()?;
        let mut args = vec![
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.path().display()),
        ];
        args.sort();
        let mut options = json!({ "args": args });
        if let Some(binary) = find("chromium", "/usr/bin/chromium") {
            options["binary"] = json!(binary.display().to_string());
        }
        // A window is never narrower than 500 px: a phone's width is emulated.
        if width < 500 {
            options["mobileEmulation"] = json!({
                "deviceMetrics": { "width": width, "height": height, "pixelRatio": 1.0, "touch": false }
            });
        }
        let mut caps = serde_json::Map::new();
        caps.insert("goog:chromeOptions".into(), options);
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&self.url)
            .await?;
        self.profiles.push(profile);
        Ok(client)
    }
}

/// Where the screenshots go.
fn shots() -> Result<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

async fn screenshot(c: &Client, name: &str) -> Result<()> {
    let png = c.screenshot().await?;
    std::fs::write(shots()?.join(format!("{name}.png")), png)?;
    Ok(())
}

/// Runs `js` (a function body returning a value) until it returns something other than null
/// or false; returns that.
async fn until(c: &Client, what: &str, js: &str, args: Vec<Value>) -> Result<Value> {
    let start = Instant::now();
    loop {
        let v = c.execute(js, args.clone()).await?;
        if !(v.is_null() || v == Value::Bool(false)) {
            return Ok(v);
        }
        if start.elapsed() > WAIT {
            bail!("timed out waiting for {what}");
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

async fn wait_css(c: &Client, css: &str) -> Result<Element> {
    until(
        c,
        css,
        "return document.querySelector(arguments[0]) !== null;",
        vec![json!(css)],
    )
    .await?;
    Ok(c.find(Locator::Css(css)).await?)
}

async fn text(c: &Client, css: &str) -> Result<String> {
    Ok(wait_css(c, css).await?.text().await?)
}

/// The last event's seq on a table page, and its view's seq.
async fn seqs(c: &Client) -> Result<(u64, u64)> {
    let v = c
        .execute(
            "const last = document.querySelector('#log li:last-child');
             const t = document.getElementById('table');
             return [Number(last ? last.dataset.seq : 0), Number(t ? t.dataset.viewSeq ?? -1 : -1)];",
            vec![],
        )
        .await?;
    let n = |i: usize| v.get(i).and_then(Value::as_u64).unwrap_or(0);
    Ok((n(0), n(1)))
}

/// Waits until the page's log and view have caught up with event `seq`.
async fn caught_up(c: &Client, seq: u64) -> Result<()> {
    until(
        c,
        &format!("the page to reach seq {seq}"),
        "const last = document.querySelector('#log li:last-child');
         const t = document.getElementById('table');
         return !!last && Number(last.dataset.seq) >= arguments[0]
             && !!t && Number(t.dataset.viewSeq) >= arguments[0]
             && !document.getElementById('actions').hasAttribute('aria-busy');",
        vec![json!(seq)],
    )
    .await?;
    Ok(())
}

/// The play policy, run in a page: for the combatant whose turn it is, when this page offers it
/// actions — attack an enemy, else engage one, else end the turn. Returns `[group, label]` or
/// null. Only the buttons the page shows are used (their groups and labels).
const CHOOSE: &str = r#"
const cur = document.querySelector('#order li[aria-current]');
const phase = document.getElementById('table').dataset.phase;
if (!cur || phase !== 'running') return null;
const id = cur.dataset.id;
const sec = document.querySelector(`#actions section.actor[data-actor="${id}"]`);
if (!sec) return null;
const me = document.querySelector(`#combatants article[data-id="${id}"]`);
const mySide = me.classList.contains('side-heroes') ? 'side-heroes' : 'side-monsters';
const enemies = new Set([...document.querySelectorAll('#combatants article')]
  .filter(a => !a.classList.contains(mySide) && a.classList.contains('status-conscious'))
  .map(a => a.getAttribute('aria-label')));
const choices = [...sec.querySelectorAll('button[data-label]')]
  .map(b => [b.dataset.group, b.dataset.label]);
const other = new Set(['End turn', 'Rally', 'Ready', 'Delay', 'Engage', 'Move', 'Disengage',
  'Intercept', 'Healing potion', 'Stabilize', 'Let go', 'Quick rest', 'Undelay', 'Fight in spirit']);
const attack = choices.find(([g, l]) => !other.has(g) && !g.includes('(') && enemies.has(l));
if (attack) return attack;
const engage = choices.find(([g, l]) => g === 'Engage' && enemies.has(l));
if (engage) return engage;
const end = choices.find(([g]) => g === 'End turn');
return end ?? null;
"#;

/// Clicks the button of `group` and `label` in a page's actions, opening its picker first when
/// the group has several choices.
async fn click_action(c: &Client, group: &str, label: &str) -> Result<()> {
    let quoted = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let choice = format!(
        "#actions button[data-group=\"{}\"][data-label=\"{}\"]",
        quoted(group),
        quoted(label)
    );
    let el = c.find(Locator::Css(&choice)).await?;
    if !el.is_displayed().await? {
        let opener = format!(
            "#actions button[data-group=\"{}\"][aria-expanded]",
            quoted(group)
        );
        c.find(Locator::Css(&opener)).await?.click().await?;
        wait_css(c, &format!("{choice}:not([disabled])")).await?;
        let el = c.find(Locator::Css(&choice)).await?;
        el.click().await?;
    } else {
        el.click().await?;
    }
    Ok(())
}

/// GET over a raw socket: (status, content type, body).
async fn get(addr: SocketAddr, path: &str) -> Result<(u16, String, String)> {
    let mut s = tokio::net::TcpStream::connect(addr).await?;
    s.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await?;
    let text = String::from_utf8_lossy(&buf).to_string();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| anyhow!("no header end"))?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| anyhow!("no status"))?;
    let ctype = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-type:")
                .map(|v| v.trim().to_string())
        })
        .unwrap_or_default();
    Ok((status, ctype, body.to_string()))
}

#[tokio::test]
async fn the_server_serves_the_page_its_modules_and_the_encounters() -> Result<()> {
    let server = TestServer::start().await?;
    let (status, ctype, body) = get(server.addr, "/").await?;
    assert_eq!(status, 200);
    assert!(ctype.starts_with("text/html"), "{ctype}");
    assert!(
        body.contains("<script type=\"module\" src=\"/app.js\">"),
        "{body}"
    );
    for path in [
        "/app.js",
        "/client.js",
        "/table.js",
        "/chat.js",
        "/rewind.js",
    ] {
        let (status, ctype, body) = get(server.addr, path).await?;
        assert_eq!(status, 200, "{path}");
        assert!(ctype.starts_with("text/javascript"), "{path}: {ctype}");
        assert!(!body.is_empty(), "{path}");
    }
    let (status, ctype, _) = get(server.addr, "/app.css").await?;
    assert_eq!((status, ctype.starts_with("text/css")), (200, true));
    let (status, _, _) = get(server.addr, "/nothing.js").await?;
    assert_eq!(status, 404);
    let (status, ctype, body) = get(server.addr, "/encounters").await?;
    assert_eq!(status, 200);
    assert!(ctype.starts_with("application/json"), "{ctype}");
    let list: Vec<Value> = serde_json::from_str(&body)?;
    let goblins = list
        .iter()
        .find(|e| e["name"] == "goblin-ambush")
        .ok_or_else(|| anyhow!("no goblin-ambush in {body}"))?;
    assert_eq!(goblins["ruleset"], "13th-age");
    assert_eq!(goblins["title"], "Goblin ambush at Ford Varren");
    assert!(
        goblins["toml"]
            .as_str()
            .is_some_and(|t| t.contains("ruleset"))
    );
    server.stop().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gm_and_a_player_play_a_13th_age_fight_in_chromium() -> Result<()> {
    let Some(mut driver) = Driver::start().await? else {
        return Ok(());
    };
    let server = TestServer::start().await?;
    let base = format!("http://{}/", server.addr);
    let gm = driver.browser(1280, 1000).await?;
    let result = play(&mut driver, &gm, &base).await;
    if result.is_err() {
        let _ = screenshot(&gm, "failure-gm").await;
    }
    let _ = gm.close().await;
    server.stop().await;
    result
}

async fn play(driver: &mut Driver, gm: &Client, base: &str) -> Result<()> {
    // The lobby: create the fight with the operator key, from the built-in encounter list.
    gm.goto(base).await?;
    wait_css(gm, "#encounter option[value=\"goblin-ambush\"]").await?;
    wait_css(gm, "#operator-key")
        .await?
        .send_keys(ADMIN_KEY)
        .await?;
    gm.execute(
        "const s = document.getElementById('encounter'); s.value = 'goblin-ambush';
         document.getElementById('seed').value = '7';",
        vec![],
    )
    .await?;
    screenshot(gm, "01-lobby").await?;
    wait_css(gm, "#create").await?.click().await?;
    let gm_link = wait_css(gm, "a[data-seat=\"gm\"]")
        .await?
        .attr("href")
        .await?;
    let alice_link = wait_css(gm, "a[data-seat=\"player:alice\"]")
        .await?
        .attr("href")
        .await?;
    let spectator_link = wait_css(gm, "a[data-seat=\"spectator\"]")
        .await?
        .attr("href")
        .await?;
    let (Some(gm_link), Some(alice_link), Some(spectator_link)) =
        (gm_link, alice_link, spectator_link)
    else {
        bail!("a seat link has no href");
    };
    // The list now shows the new fight (the operator key lists every fight).
    let listed = text(gm, "#sessions li[data-session]").await?;
    ensure!(listed.contains("Goblin ambush at Ford Varren"), "{listed}");
    screenshot(gm, "02-lobby-created").await?;

    // Three seats, three browsers.
    gm.goto(&gm_link).await?;
    let alice = driver.browser(1100, 1000).await?;
    let spectator = driver.browser(390, 844).await?;
    alice.goto(&alice_link).await?;
    spectator.goto(&spectator_link).await?;
    ensure!(text(gm, "#role").await? == "Game master");
    ensure!(text(&alice, "#role").await? == "Player alice");
    ensure!(text(&spectator, "#role").await? == "Spectator");
    // Before the battle only the GM may start it.
    wait_css(gm, "#actions button[data-group=\"Start battle\"]").await?;
    let alice_actions = text(&alice, "#actions").await?;
    ensure!(!alice_actions.contains("Start battle"), "{alice_actions}");

    // A refused command shows its reason: Alice commands one of Bob's heroes.
    wait_css(&alice, "#actions details.raw summary")
        .await?
        .click()
        .await?;
    wait_css(&alice, "#raw-command")
        .await?
        .send_keys(r#"{"end_turn":{"actor":"orin"}}"#)
        .await?;
    wait_css(&alice, "#raw-send").await?.click().await?;
    until(
        &alice,
        "the refusal",
        "const n = document.getElementById('notice'); return !n.hidden && n.textContent;",
        vec![],
    )
    .await?;
    let refusal = text(&alice, "#notice").await?;
    ensure!(
        refusal.contains("not_your_combatant") && refusal.contains("does not control orin"),
        "{refusal}"
    );
    screenshot(&alice, "03-player-refused").await?;

    wait_css(gm, "#actions button[data-group=\"Start battle\"]")
        .await?
        .click()
        .await?;
    let pages = [("alice", &alice), ("gm", gm)];
    let mut clicks = 0;
    let mut by_alice = 0;
    let mut refused = 0;
    let mut shot_mid = false;
    loop {
        // Both players' pages have caught up with the last event before anyone decides.
        let (gm_seq, _) = seqs(gm).await?;
        let (alice_seq, _) = seqs(&alice).await?;
        let seq = gm_seq.max(alice_seq);
        caught_up(gm, seq).await?;
        caught_up(&alice, seq).await?;
        let phase = gm
            .execute(
                "return document.getElementById('table').dataset.phase;",
                vec![],
            )
            .await?;
        if phase == "ended" {
            break;
        }
        if clicks > 600 {
            bail!("the fight did not end in 600 clicks");
        }
        // The player acts for her heroes on her page, the GM for everyone else on his.
        let mut chosen = None;
        for (who, page) in pages {
            let v = page.execute(CHOOSE, vec![]).await?;
            if let (Some(g), Some(l)) = (
                v.get(0).and_then(Value::as_str),
                v.get(1).and_then(Value::as_str),
            ) {
                chosen = Some((who, page, g.to_string(), l.to_string()));
                break;
            }
        }
        let Some((who, page, group, label)) = chosen else {
            bail!("no page offers an action to the combatant whose turn it is (seq {seq})");
        };
        click_action(page, &group, &label).await?;
        clicks += 1;
        if who == "alice" {
            by_alice += 1;
        }
        // The click is answered: the command's events arrive, or its refusal is shown (a
        // button can be a moment stale while the other page's command lands; then choose again).
        until(
            page,
            "the command's answer",
            "const last = document.querySelector('#log li:last-child');
             const n = document.getElementById('notice');
             const busy = document.getElementById('actions').hasAttribute('aria-busy');
             return !busy && ((!!last && Number(last.dataset.seq) > arguments[0]) || !n.hidden);",
            vec![json!(seq)],
        )
        .await?;
        let notice = page
            .execute("const n = document.getElementById('notice'); return n.hidden ? null : n.textContent;", vec![])
            .await?;
        if let Some(n) = notice.as_str() {
            refused += 1;
            if refused > 10 {
                bail!("too many refusals; the last: {n}");
            }
        }
        if !shot_mid && clicks >= 20 {
            shot_mid = true;
            screenshot(gm, "04-gm-mid-fight").await?;
            screenshot(&alice, "05-player-mid-fight").await?;
            screenshot(&spectator, "06-spectator-phone").await?;
        }
    }
    eprintln!(
        "the fight ended after {clicks} clicks ({by_alice} by the player, {refused} refused)"
    );
    ensure!(by_alice > 0, "the player never acted");

    // Everyone saw the end and the seed.
    let (gm_seq, _) = seqs(gm).await?;
    until(
        gm,
        "the seed",
        "return !!document.querySelector('#log li[data-kind=\"seed_revealed\"]');",
        vec![],
    )
    .await?;
    caught_up(&spectator, gm_seq).await?;
    caught_up(&alice, gm_seq).await?;
    screenshot(gm, "07-gm-ended").await?;
    screenshot(&alice, "08-player-ended").await?;
    screenshot(&spectator, "09-spectator-ended").await?;

    // The spectator's page shows the same events, with the same dice; the monsters' hit
    // points are hidden from it and shown to the GM. (The GM's lines also carry rewind
    // controls, left out here.)
    let events = "const told = li => { const c = li.cloneNode(true); c.querySelector('.rewind')?.remove(); return c.textContent; };
                  return [...document.querySelectorAll('#log li')].map(li => [Number(li.dataset.seq), li.dataset.kind, li.dataset.kind === 'attack_rolled' || li.dataset.kind === 'damage_rolled' ? told(li) : '']);";
    let on_gm = gm.execute(events, vec![]).await?;
    let on_spectator = spectator.execute(events, vec![]).await?;
    ensure!(
        on_gm == on_spectator,
        "the spectator's log differs from the GM's"
    );
    let on_alice = alice.execute(events, vec![]).await?;
    ensure!(on_gm == on_alice, "the player's log differs from the GM's");
    let count = on_gm.as_array().map_or(0, Vec::len);
    ensure!(count > 50, "only {count} events");
    let hidden = spectator
        .execute("return document.querySelectorAll('#combatants article.side-monsters [data-hp=\"hidden\"]').length;", vec![])
        .await?;
    let shown = gm
        .execute("return document.querySelectorAll('#combatants article.side-monsters [role=\"meter\"]').length;", vec![])
        .await?;
    ensure!(
        (hidden.as_u64(), shown.as_u64()) == (Some(5), Some(5)),
        "monsters' hit points: {hidden} hidden from the spectator, {shown} shown to the GM"
    );
    // Every die of every attack roll is shown as a face.
    let faces = gm
        .execute("return document.querySelectorAll('#log li[data-kind=\"attack_rolled\"] .die.d20').length;", vec![])
        .await?;
    ensure!(faces.as_u64().unwrap_or(0) > 0, "no d20 faces in the log");

    let _ = alice.close().await;
    let _ = spectator.close().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gm_walks_an_orcus_combatant_by_clicking_the_map() -> Result<()> {
    let Some(mut driver) = Driver::start().await? else {
        return Ok(());
    };
    let server = TestServer::start().await?;
    let created = fray_tests::create_session(server.addr, "bridge-of-bones", 5).await?;
    let token = created["tokens"]["gm"]
        .as_str()
        .ok_or_else(|| anyhow!("no GM token in {created}"))?;
    let gm = driver.browser(1280, 1000).await?;
    let result = walk(&gm, server.addr, token).await;
    if result.is_err() {
        let _ = screenshot(&gm, "failure-orcus").await;
    }
    let _ = gm.close().await;
    server.stop().await;
    result
}

async fn walk(gm: &Client, addr: SocketAddr, token: &str) -> Result<()> {
    gm.goto(&format!("http://{addr}/#/table?token={token}"))
        .await?;
    // The map: its terrain and a token for each combatant.
    let tokens = until(
        gm,
        "the map's tokens",
        "const n = document.querySelectorAll('svg.map g.token').length;
         return n > 0 && n === document.querySelectorAll('#combatants article').length ? n : null;",
        vec![],
    )
    .await?;
    let walls = gm
        .execute(
            "return document.querySelectorAll('svg.map rect.wall').length;",
            vec![],
        )
        .await?;
    ensure!(walls.as_u64().unwrap_or(0) > 0, "no walls drawn");
    wait_css(gm, "#actions button[data-group=\"Start battle\"]")
        .await?
        .click()
        .await?;
    // Whoever's turn it is walks: open the Walk picker, then click a square on the map.
    let current = until(
        gm,
        "the first turn",
        "const c = document.querySelector('#order li[aria-current]'); return c && c.dataset.id;",
        vec![],
    )
    .await?;
    let current = current.as_str().unwrap_or_default().to_string();
    let opener = format!(
        "#actions section.actor[data-actor=\"{current}\"] button[data-group=\"Walk\"][aria-expanded]"
    );
    wait_css(gm, &opener).await?.click().await?;
    let targets = until(
        gm,
        "the squares to walk to",
        "return document.querySelectorAll('svg.map rect.target').length;",
        vec![],
    )
    .await?;
    screenshot(gm, "10-orcus-walk-targets").await?;
    let before = until(
        gm,
        "the token's square",
        "const t = document.querySelector(`svg.map g.token[data-id=\"${arguments[0]}\"] title`); return t && t.textContent;",
        vec![json!(current)],
    )
    .await?;
    let (seq, _) = seqs(gm).await?;
    // The farthest target from the list's start: the last one drawn.
    gm.execute(
        "const ts = document.querySelectorAll('svg.map rect.target'); ts[ts.length - 1].focus();",
        vec![],
    )
    .await?;
    let label = gm
        .execute("return document.activeElement.dataset.label;", vec![])
        .await?;
    // Keyboard: Enter on the focused square chooses it: the map shows the path, and the
    // squares the combatant can reach, before anything is sent.
    let enter = char::from(fantoccini::key::Key::Enter).to_string();
    gm.active_element().await?.send_keys(&enter).await?;
    let shown = until(
        gm,
        "the walk's path on the map",
        "const p = document.querySelector('svg.map .preview.path.chosen');
         const reach = document.querySelectorAll('svg.map .reach-layer rect.reach').length;
         const bar = document.getElementById('map-choice-text');
         return p && bar && [Number(p.dataset.squares), p.querySelectorAll('.step').length, reach,
                             bar.textContent, document.activeElement.id];",
        vec![],
    )
    .await?;
    ensure!(
        shown[0].as_u64().unwrap_or(0) > 0
            && shown[0] == shown[1]
            && shown[2].as_u64() == targets.as_u64()
            && shown[3]
                .as_str()
                .is_some_and(|t| t.contains(label.as_str().unwrap_or("?")))
            && shown[4] == "map-confirm",
        "the path, the reach and the confirm bar: {shown} ({targets} walk targets)"
    );
    ensure!(seqs(gm).await?.0 == seq, "choosing a square sent the walk");
    screenshot(gm, "10b-orcus-walk-preview").await?;
    // Enter again, on the focused Confirm button, sends it.
    gm.active_element().await?.send_keys(&enter).await?;
    until(
        gm,
        "the walk's events",
        "return !!document.querySelector('#log li[data-kind=\"grid_moved\"]');",
        vec![],
    )
    .await?;
    caught_up(gm, seq + 1).await?;
    let after = gm
        .execute(
            "const t = document.querySelector(`svg.map g.token[data-id=\"${arguments[0]}\"] title`); return t && t.textContent;",
            vec![json!(current)],
        )
        .await?;
    let label = label.as_str().unwrap_or_default();
    ensure!(
        before != after && after.as_str().is_some_and(|t| t.contains(label)),
        "{current} was at {before}, is at {after}, walked to {label}"
    );
    screenshot(gm, "11-orcus-walked").await?;
    eprintln!("{tokens} tokens, {targets} squares to walk to; {current} walked to {label}");
    area_preview(gm).await
}

/// The GM ends turns until Orin's, then picks Frost Bloom's origin (a far burst 1) on the map:
/// the map shows the burst's squares as the server's `preview` answers them (nine at most, less
/// the walls and what lies behind them) before the attack is sent.
async fn area_preview(gm: &Client) -> Result<()> {
    for _ in 0..12 {
        let current = until(
            gm,
            "a turn",
            "const c = document.querySelector('#order li[aria-current]'); return c && c.dataset.id;",
            vec![],
        )
        .await?;
        if current == "orin" {
            break;
        }
        let (seq, _) = seqs(gm).await?;
        wait_css(
            gm,
            &format!("#actions section.actor[data-actor={current}] button[data-command=end_turn]:not([disabled])"),
        )
        .await?
        .click()
        .await?;
        caught_up(gm, seq + 1).await?;
    }
    wait_css(
        gm,
        "#actions section.actor[data-actor=orin] button[data-group=\"Frost Bloom\"][aria-expanded]:not([disabled])",
    )
    .await?
    .click()
    .await?;
    wait_css(gm, "svg.map rect.target[data-group=\"Frost Bloom\"]")
        .await?
        .click()
        .await?;
    let area = until(
        gm,
        "the burst on the map",
        "const p = document.querySelector('svg.map .preview.area.chosen[data-state=answered]');
         return p && [Number(p.dataset.squares), p.querySelectorAll('.preview-origin').length,
                      document.getElementById('map-choice-text').textContent,
                      p.querySelectorAll('rect.preview-square').length];",
        vec![],
    )
    .await?;
    ensure!(
        (1..=9).contains(&area[0].as_u64().unwrap_or(0))
            && area[1] == 1
            && area[0] == area[3]
            && area[2]
                .as_str()
                .is_some_and(|t| t.contains("Frost Bloom") && t.contains(" square")),
        "{area}"
    );
    screenshot(gm, "11b-orcus-area-preview").await?;
    let (seq, _) = seqs(gm).await?;
    wait_css(gm, "#map-confirm").await?.click().await?;
    logged(gm, "attack_rolled").await?;
    caught_up(gm, seq + 1).await?;
    Ok(())
}

/// Sends a command as JSON through a table page's "Another command (JSON)" box.
async fn send_raw(c: &Client, command: &Value) -> Result<()> {
    let open = c
        .execute(
            "return document.querySelector('#actions details.raw').open;",
            vec![],
        )
        .await?;
    if open != Value::Bool(true) {
        wait_css(c, "#actions details.raw summary")
            .await?
            .click()
            .await?;
    }
    let input = wait_css(c, "#raw-command").await?;
    input.clear().await?;
    input.send_keys(&command.to_string()).await?;
    wait_css(c, "#raw-send:not([disabled])")
        .await?
        .click()
        .await?;
    Ok(())
}

/// Waits until a table page's log holds an event of `kind`; returns how many it holds.
async fn logged(c: &Client, kind: &str) -> Result<u64> {
    let n = until(
        c,
        &format!("a {kind} event in the log"),
        "const n = document.querySelectorAll(`#log li[data-kind=\"${arguments[0]}\"]`).length; return n > 0 ? n : null;",
        vec![json!(kind)],
    )
    .await?;
    Ok(n.as_u64().unwrap_or(0))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gm_only_secret_roll_never_reaches_a_players_page() -> Result<()> {
    let Some(mut driver) = Driver::start().await? else {
        return Ok(());
    };
    let server = TestServer::start().await?;
    let created = fray_tests::create_session(server.addr, "barrow-of-the-hollow-king", 3).await?;
    let gm_token = created["tokens"]["gm"]
        .as_str()
        .ok_or_else(|| anyhow!("no GM token in {created}"))?;
    let alice_token = created["tokens"]["players"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["name"] == "alice"))
        .and_then(|p| p["token"].as_str())
        .ok_or_else(|| anyhow!("no seat for alice in {created}"))?;
    let gm = driver.browser(1280, 1000).await?;
    let alice = driver.browser(1100, 1000).await?;
    let result = secret_roll(&gm, &alice, server.addr, gm_token, alice_token).await;
    if result.is_err() {
        let _ = screenshot(&gm, "failure-secret-gm").await;
        let _ = screenshot(&alice, "failure-secret-player").await;
    }
    let _ = gm.close().await;
    let _ = alice.close().await;
    server.stop().await;
    result
}

async fn secret_roll(
    gm: &Client,
    alice: &Client,
    addr: SocketAddr,
    gm_token: &str,
    alice_token: &str,
) -> Result<()> {
    gm.goto(&format!("http://{addr}/#/table?token={gm_token}"))
        .await?;
    alice
        .goto(&format!("http://{addr}/#/table?token={alice_token}"))
        .await?;
    ensure!(text(gm, "#role").await? == "Game master");
    ensure!(text(alice, "#role").await? == "Player alice");
    // The exploration panel is there before anything happened: turn 0, no light.
    for page in [gm, alice] {
        ensure!(text(page, "#exploration [data-fact=\"turn\"] dd").await? == "0");
        ensure!(text(page, "#exploration #lights").await? == "No light burns.");
    }

    // A torch is lit and an exploration turn passes: both pages show the tracker and the light
    // from their views.
    send_raw(
        gm,
        &json!({"light_source": {"carrier": "quill", "source": "torch"}}),
    )
    .await?;
    logged(gm, "light_lit").await?;
    wait_css(gm, "#actions button[data-group=\"Exploration turn\"]").await?;
    click_action(gm, "Exploration turn", "explore").await?;
    for page in [gm, alice] {
        logged(page, "exploration_turn_passed").await?;
        until(
            page,
            "the exploration turn in the panel",
            "const d = document.querySelector('#exploration [data-fact=\"turn\"] dd'); return d && d.textContent === '1';",
            vec![],
        )
        .await?;
        let light = text(page, "#exploration #lights li[data-carrier=\"quill\"]").await?;
        ensure!(
            light.contains("torch") && light.contains("5 turns left"),
            "{light}"
        );
    }

    // The GM searches the crypt hall for a trap in secret, from the GM tools' form; the player's
    // page has no GM tools.
    ensure!(
        alice
            .execute("return document.getElementById('gm-tools').hidden;", vec![])
            .await?
            == true,
        "the player's page shows the GM tools"
    );
    wait_css(gm, "#gm-tools details.gm-tools summary")
        .await?
        .click()
        .await?;
    for (id, value) in [
        ("gm-secret_roll-check", "room_trap"),
        ("gm-secret_roll-combatant", "quill"),
        ("gm-secret_roll-chance", "1"),
        ("gm-secret_roll-area", "crypt-hall"),
    ] {
        gm.execute(
            "document.getElementById(arguments[0]).value = arguments[1];",
            vec![json!(id), json!(value)],
        )
        .await?;
    }
    wait_css(gm, "#gm-secret_roll-send").await?.click().await?;
    logged(gm, "secret_rolled").await?;
    logged(alice, "secret_rolled").await?;
    caught_up(gm, seqs(alice).await?.0.max(seqs(gm).await?.0)).await?;
    caught_up(alice, seqs(gm).await?.0).await?;

    // The GM's page shows the die and the result.
    let on_gm = gm
        .execute(
            "const li = document.querySelector('#log li[data-kind=\"secret_rolled\"]');
             return [li.dataset.secretResult ?? null, li.querySelectorAll('.die.d6').length,
                     [...li.querySelectorAll('.die')].map(d => d.textContent), li.textContent];",
            vec![],
        )
        .await?;
    let result = on_gm[0].as_str().unwrap_or_default().to_string();
    ensure!(
        (result == "success" || result == "failure") && on_gm[1] == json!(1),
        "the GM's page shows no die or result: {on_gm}"
    );
    let gm_line = on_gm[3].as_str().unwrap_or_default();
    ensure!(
        gm_line.contains(&result) && gm_line.contains("Only the GM sees this"),
        "{gm_line}"
    );

    // The player's page shows only that a roll was made: no die, no result, anywhere.
    let on_alice = alice
        .execute(
            "const li = document.querySelector('#log li[data-kind=\"secret_rolled\"]');
             return [li.classList.contains('secret'), li.querySelectorAll('.die, .roll').length,
                     document.querySelectorAll('[data-secret-result]').length, li.textContent,
                     document.body.innerText, document.documentElement.outerHTML];",
            vec![],
        )
        .await?;
    let alice_line = on_alice[3].as_str().unwrap_or_default();
    let alice_text = on_alice[4].as_str().unwrap_or_default();
    let alice_html = on_alice[5].as_str().unwrap_or_default();
    ensure!(
        on_alice[0] == json!(true) && on_alice[1] == json!(0) && on_alice[2] == json!(0),
        "the player's page shows something of the secret roll: {on_alice}"
    );
    ensure!(
        alice_line.contains("the result is hidden") && alice_line.contains("room trap"),
        "{alice_line}"
    );
    for leak in [
        "success",
        "failure",
        "Only the GM sees this",
        "Secret roll (",
    ] {
        ensure!(
            !alice_text.contains(leak) && !alice_html.contains(leak),
            "the player's page contains {leak:?}"
        );
    }
    // What the view carries is on both pages: the search was made (one chance each).
    for page in [gm, alice] {
        let searched = text(page, "#exploration #searched").await?;
        ensure!(
            searched.contains("crypt-hall") && searched.contains("Quill"),
            "{searched}"
        );
    }
    screenshot(gm, "12-ose-gm-secret-roll").await?;
    screenshot(alice, "13-ose-player-secret-roll").await?;
    Ok(())
}

/// The repository's recorded fights.
fn repo_replays() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../replays")
}

/// POST over a raw socket: (status, content type, body).
async fn post(addr: SocketAddr, path: &str, body: &str) -> Result<(u16, String, String)> {
    let mut s = tokio::net::TcpStream::connect(addr).await?;
    s.write_all(
        format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/x-ndjson\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .as_bytes(),
    )
    .await?;
    s.write_all(body.as_bytes()).await?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await?;
    let text = String::from_utf8_lossy(&buf).to_string();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| anyhow!("no header end"))?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| anyhow!("no status"))?;
    let ctype = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-type:")
                .map(|v| v.trim().to_string())
        })
        .unwrap_or_default();
    Ok((status, ctype, body.to_string()))
}

#[tokio::test]
async fn the_replay_endpoints_serve_the_goldens_and_refuse_what_is_not_a_log() -> Result<()> {
    fray_server::net::web::serve_replays_from(repo_replays());
    let server = TestServer::start().await?;
    let (status, _, body) = get(server.addr, "/replays").await?;
    ensure!(status == 200, "{status} {body}");
    let list: Vec<Value> = serde_json::from_str(&body)?;
    ensure!(
        list.iter()
            .any(|e| e["ruleset"] == "13th-age" && e["fight"] == "goblin-ambush-seed-111"),
        "{body}"
    );
    let (status, ctype, log) = get(server.addr, "/replays/13th-age/goblin-ambush-seed-111").await?;
    ensure!(
        status == 200 && ctype.starts_with("application/x-ndjson"),
        "{status} {ctype}"
    );
    // The public log: no tokens, no secret seed.
    let head: Value = serde_json::from_str(log.lines().next().unwrap_or_default())?;
    ensure!(head["audience"] == "public" && head["genesis"].get("tokens").is_none());
    for bad in [
        "/replays/13th-age/nope",
        "/replays/..%2F..%2Fetc/passwd",
        "/replays/13th-age/..",
    ] {
        let (status, _, _) = get(server.addr, bad).await?;
        ensure!(status == 404, "{bad}: {status}");
    }
    // The views of the public log: one patch per event.
    let (status, _, body) = post(server.addr, "/replay/views", &log).await?;
    ensure!(status == 200, "{status} {body}");
    let views: Value = serde_json::from_str(&body)?;
    let events = views["events"].as_array().map_or(0, Vec::len);
    ensure!(events > 50 && views["patches"].as_array().map_or(0, Vec::len) == events);
    ensure!(views["hashes_checked"].as_u64().unwrap_or(0) > 0);
    let (status, _, body) = post(server.addr, "/replay/verify", &log).await?;
    ensure!(status == 200, "{status} {body}");
    let answer: Value = serde_json::from_str(&body)?;
    ensure!(
        answer["verified"] == true && answer["checked"]["commitment_checked"] == true,
        "{answer}"
    );
    // Not a log: refused with the reason, as JSON.
    for path in ["/replay/views", "/replay/verify"] {
        let (status, ctype, body) = post(server.addr, path, "this is not a log").await?;
        ensure!(
            status == 400 && ctype.starts_with("application/json"),
            "{path}: {status} {body}"
        );
        let e: Value = serde_json::from_str(&body)?;
        ensure!(
            e["code"] == "invalid_log" && e["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{e}"
        );
    }
    server.stop().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_replay_viewer_steps_through_a_golden_and_verifies_it() -> Result<()> {
    let Some(mut driver) = Driver::start().await? else {
        return Ok(());
    };
    fray_server::net::web::serve_replays_from(repo_replays());
    let server = TestServer::start().await?;
    let page = driver.browser(1280, 1000).await?;
    let result = step_through(&page, server.addr).await;
    if result.is_err() {
        let _ = screenshot(&page, "failure-replay").await;
    }
    let _ = page.close().await;
    server.stop().await;
    result
}

/// The viewer's step once it is `step`.
async fn at_step(c: &Client, step: u64) -> Result<()> {
    until(
        c,
        &format!("step {step}"),
        "const v = document.getElementById('viewer'); return !!v && v.dataset.step === String(arguments[0]);",
        vec![json!(step)],
    )
    .await?;
    Ok(())
}

async fn step_through(c: &Client, addr: SocketAddr) -> Result<()> {
    c.goto(&format!("http://{addr}/")).await?;
    wait_css(c, "#replay-link").await?.click().await?;
    wait_css(c, "button[data-load=\"13th-age/goblin-ambush-seed-111\"]")
        .await?
        .click()
        .await?;
    at_step(c, 0).await?;
    ensure!(
        text(c, "#position")
            .await?
            .starts_with("Before the first event")
    );
    let n = c
        .execute(
            "return document.querySelectorAll('#replay-log li').length;",
            vec![],
        )
        .await?
        .as_u64()
        .unwrap_or(0);
    ensure!(n > 50, "only {n} events");
    // One event at a time, forwards and back; the narrative shows the events so far.
    for _ in 0..3 {
        wait_css(c, "#next").await?.click().await?;
    }
    at_step(c, 3).await?;
    let shown = c
        .execute(
            "return [document.querySelectorAll('#replay-log li:not(.future)').length, document.querySelector('#replay-log li.now').dataset.seq];",
            vec![],
        )
        .await?;
    ensure!(shown == json!([3, "3"]), "{shown}");
    wait_css(c, "#prev").await?.click().await?;
    at_step(c, 2).await?;
    // The keyboard: the right arrow steps on.
    c.active_element()
        .await?
        .send_keys(&char::from(fantoccini::key::Key::Right).to_string())
        .await?;
    at_step(c, 3).await?;

    // Jump to round 2: the state panel is the server's view at that event.
    c.execute("document.getElementById('goto-round').value = '2';", vec![])
        .await?;
    wait_css(c, "#goto-round-go").await?.click().await?;
    until(
        c,
        "round 2",
        "const v = document.getElementById('viewer'); return v.dataset.round === '2';",
        vec![],
    )
    .await?;
    let now = c
        .execute(
            "const li = document.querySelector('#replay-log li.now'); return [li.dataset.kind, Number(li.dataset.round), document.getElementById('replay-round').textContent];",
            vec![],
        )
        .await?;
    ensure!(now == json!(["round_started", 2, "Round 2"]), "{now}");
    // Monsters' hit points stay hidden in a public log's views; the heroes' are shown.
    let hp = c
        .execute(
            "return [document.querySelectorAll('#replay-state tr.side-monsters td[data-hp=\"hidden\"]').length, document.querySelectorAll('#replay-state tr.side-heroes td[data-hp]:not([data-hp=\"hidden\"])').length];",
            vec![],
        )
        .await?;
    ensure!(hp == json!([5, 4]), "hit points hidden/shown: {hp}");
    screenshot(c, "14-replay-round-2").await?;

    // Jump to the last event: the battle is over.
    let input = wait_css(c, "#goto-event").await?;
    input.clear().await?;
    input.send_keys(&n.to_string()).await?;
    wait_css(c, "#goto-event-go").await?.click().await?;
    at_step(c, n).await?;
    ensure!(text(c, "#replay-winner").await?.contains("won"));

    // Play from the start at the fastest speed, then pause.
    wait_css(c, "#first").await?.click().await?;
    at_step(c, 0).await?;
    c.execute("document.getElementById('speed').value = '25';", vec![])
        .await?;
    wait_css(c, "#play").await?.click().await?;
    until(
        c,
        "playing on",
        "return Number(document.getElementById('viewer').dataset.step) >= 5;",
        vec![],
    )
    .await?;
    wait_css(c, "#play").await?.click().await?;
    ensure!(text(c, "#play").await? == "Play");

    // Verify: the server re-decides every command and says what it checked.
    wait_css(c, "#verify-button").await?.click().await?;
    let verified = until(
        c,
        "the verification",
        "const v = document.querySelector('[data-verified]'); return v && v.dataset.verified;",
        vec![],
    )
    .await?;
    ensure!(
        verified == "true",
        "not verified: {}",
        text(c, "#verify-result").await?
    );
    let commands: u64 = text(c, "[data-fact=\"commands\"] dd").await?.parse()?;
    ensure!(commands > 0);
    ensure!(text(c, "[data-fact=\"commitment\"] dd").await? == "yes");
    screenshot(c, "15-replay-verified").await?;

    // An uploaded log whose dice were edited replays (the state does not depend on the face)
    // but does not verify: the viewer names the event that differs.
    let (_, _, log) = get(addr, "/replays/13th-age/goblin-ambush-seed-111").await?;
    let i = log
        .lines()
        .position(|l| l.contains("\"attack_rolled\""))
        .ok_or_else(|| anyhow!("no attack in the golden"))?;
    let edited: Vec<String> = log
        .lines()
        .enumerate()
        .map(|(k, l)| {
            if k != i {
                return l.to_string();
            }
            // The first d20's face, turned to another.
            let Some(at) = l.find("\"face\":") else {
                return l.to_string();
            };
            let digits: String = l[at + 7..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            let other = if digits == "7" { "8" } else { "7" };
            format!(
                "{}\"face\":{other}{}",
                &l[..at],
                &l[at + 7 + digits.len()..]
            )
        })
        .collect();
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("edited.jsonl");
    std::fs::write(&file, edited.join("\n"))?;
    wait_css(c, "#replay-file")
        .await?
        .send_keys(&file.display().to_string())
        .await?;
    until(
        c,
        "the uploaded log",
        "const h = document.getElementById('viewer-h'); const v = document.getElementById('viewer'); return !!h && v.dataset.step === '0' && !document.querySelector('[data-verified]');",
        vec![],
    )
    .await?;
    wait_css(c, "#verify-button").await?.click().await?;
    let verified = until(
        c,
        "the verification of the edited log",
        "const v = document.querySelector('[data-verified]'); return v && [v.dataset.verified, v.dataset.problem];",
        vec![],
    )
    .await?;
    ensure!(
        verified == json!(["false", "event_mismatch"]),
        "{verified}: {}",
        text(c, "#verify-result").await?
    );
    screenshot(c, "16-replay-edited-not-verified").await?;
    Ok(())
}

/// A table page's GM policy for any ruleset without a map, from the buttons' command names: for
/// the combatant whose turn it is, a melee attack on a standing enemy, else a missile attack at
/// short range, else engaging an enemy, else ending the turn. Returns `[group, label]` or null.
const FIGHT: &str = r#"
const cur = document.querySelector('#order li[aria-current]');
if (!cur || document.getElementById('table').dataset.phase !== 'running') return null;
const sec = document.querySelector(`#actions section.actor[data-actor="${cur.dataset.id}"]`);
const me = document.querySelector(`#combatants article[data-id="${cur.dataset.id}"]`);
if (!sec || !me) return null;
const mySide = me.classList.contains('side-heroes') ? 'side-heroes' : 'side-monsters';
const enemies = new Set([...document.querySelectorAll('#combatants article.status-conscious')]
  .filter(a => !a.classList.contains(mySide)).map(a => a.getAttribute('aria-label')));
const choices = [...sec.querySelectorAll('button[data-label]')]
  .map(b => [b.dataset.group, b.dataset.label, b.dataset.command]);
const on = (commands, test) => choices.find(([g, l, c]) => commands.includes(c) && enemies.has(l) && test(g));
const pick = on(['attack', 'ose_attack'], g => !g.includes('('))
  ?? on(['ose_attack'], g => g.includes('short'))
  ?? on(['move'], () => true)
  ?? choices.find(([, , c]) => c === 'end_turn');
return pick ? [pick[0], pick[1]] : null;
"#;

/// The round the page's header shows.
async fn round_shown(c: &Client) -> Result<u64> {
    let t = text(c, "#round-number").await?;
    t.trim_start_matches("Round ")
        .parse()
        .with_context(|| format!("the round shown: {t}"))
}

/// Every combatant's hit points as the GM's cards show them, in order.
async fn hit_points(c: &Client) -> Result<Value> {
    Ok(c.execute(
        "return [...document.querySelectorAll('#combatants article [data-hp]')].map(e => e.dataset.hp);",
        vec![],
    )
    .await?)
}

/// The GM clicks `FIGHT`'s choice, one command at a time, until the header shows round
/// `round` (or the battle ends); returns the clicks made.
async fn fight_until_round(gm: &Client, round: u64, most: usize) -> Result<usize> {
    let mut clicks = 0;
    loop {
        let (seq, _) = seqs(gm).await?;
        caught_up(gm, seq).await?;
        let phase = gm
            .execute(
                "return document.getElementById('table').dataset.phase;",
                vec![],
            )
            .await?;
        if phase == "ended" || round_shown(gm).await? >= round {
            return Ok(clicks);
        }
        ensure!(clicks < most, "round {round} did not come in {most} clicks");
        let v = gm.execute(FIGHT, vec![]).await?;
        let (Some(group), Some(label)) = (v[0].as_str(), v[1].as_str()) else {
            bail!("no action for the combatant whose turn it is (seq {seq})");
        };
        click_action(gm, group, label).await?;
        clicks += 1;
        until(
            gm,
            "the command's events",
            "const last = document.querySelector('#log li:last-child');
             const n = document.getElementById('notice');
             return !document.getElementById('actions').hasAttribute('aria-busy')
                 && ((!!last && Number(last.dataset.seq) > arguments[0]) || !n.hidden);",
            vec![json!(seq)],
        )
        .await?;
        let notice = gm
            .execute("const n = document.getElementById('notice'); return n.hidden ? null : n.textContent;", vec![])
            .await?;
        ensure!(notice.is_null(), "{group} ({label}) was refused: {notice}");
    }
}

/// The lobby creates `encounter` with `seed`; returns the GM seat's link.
async fn create_in_lobby(c: &Client, base: &str, encounter: &str, seed: u64) -> Result<String> {
    c.goto(base).await?;
    wait_css(c, &format!("#encounter option[value=\"{encounter}\"]")).await?;
    wait_css(c, "#operator-key")
        .await?
        .send_keys(ADMIN_KEY)
        .await?;
    c.execute(
        "document.getElementById('encounter').value = arguments[0];
         document.getElementById('seed').value = String(arguments[1]);",
        vec![json!(encounter), json!(seed)],
    )
    .await?;
    wait_css(c, "#create").await?.click().await?;
    wait_css(c, "a[data-seat=\"gm\"]")
        .await?
        .attr("href")
        .await?
        .ok_or_else(|| anyhow!("the GM's seat link has no href"))
}

/// How many events of `kind` a page's log holds.
async fn count(c: &Client, kind: &str) -> Result<u64> {
    let n = c
        .execute(
            "return document.querySelectorAll(`#log li[data-kind=\"${arguments[0]}\"]`).length;",
            vec![json!(kind)],
        )
        .await?;
    Ok(n.as_u64().unwrap_or(0))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gm_plays_an_ose_round_and_an_exploration_turn_by_clicking() -> Result<()> {
    let Some(mut driver) = Driver::start().await? else {
        return Ok(());
    };
    let server = TestServer::start().await?;
    let gm = driver.browser(1280, 1000).await?;
    let result = ose_by_clicking(&gm, &format!("http://{}/", server.addr)).await;
    if result.is_err() {
        let _ = screenshot(&gm, "failure-ose-clicking").await;
    }
    let _ = gm.close().await;
    server.stop().await;
    result
}

async fn ose_by_clicking(gm: &Client, base: &str) -> Result<()> {
    let link = create_in_lobby(gm, base, "barrow-of-the-hollow-king", 11).await?;
    gm.goto(&link).await?;
    ensure!(text(gm, "#role").await? == "Game master");
    // An exploration turn before the fight, from its button: the panel counts it.
    click_action(gm, "Exploration turn", "explore").await?;
    logged(gm, "exploration_turn_passed").await?;
    until(
        gm,
        "turn 1 in the exploration panel",
        "const d = document.querySelector('#exploration [data-fact=\"turn\"] dd'); return d && d.textContent === '1';",
        vec![],
    )
    .await?;
    let before = hit_points(gm).await?;
    // The battle: side initiative is rolled, everyone acts by the buttons, round 2 begins.
    wait_css(gm, "#actions button[data-group=\"Start battle\"]")
        .await?
        .click()
        .await?;
    logged(gm, "side_initiative").await?;
    ensure!(round_shown(gm).await? == 1);
    // A declaration for the next round, from its picker.
    let (seq, _) = seqs(gm).await?;
    let hero = gm
        .execute(
            "return document.querySelector('#actions section.actor button[data-command=\"declare\"]').dataset.actor;",
            vec![],
        )
        .await?;
    let hero = hero.as_str().unwrap_or_default().to_string();
    wait_css(
        gm,
        &format!("#actions section.actor[data-actor=\"{hero}\"] button[data-group=\"Declare\"][aria-expanded]"),
    )
    .await?
    .click()
    .await?;
    wait_css(
        gm,
        &format!("#actions section.actor[data-actor=\"{hero}\"] button[data-group=\"Declare\"][data-label=\"nothing\"]:not([disabled])"),
    )
    .await?
    .click()
    .await?;
    logged(gm, "declared").await?;
    caught_up(gm, seq + 1).await?;
    let clicks = fight_until_round(gm, 2, 60).await?;
    ensure!(round_shown(gm).await? == 2, "the battle ended in round 1");
    let after = hit_points(gm).await?;
    let (attacks, damaged) = (
        count(gm, "attack_rolled").await?,
        count(gm, "damaged").await?,
    );
    ensure!(
        attacks > 0 && damaged > 0 && count(gm, "round_started").await? >= 2,
        "{attacks} attacks, {damaged} blows in round 1"
    );
    ensure!(before != after, "no hit points changed: {after}");
    ensure!(
        count(gm, "side_initiative").await? >= 2,
        "round 2's initiative was not rolled"
    );
    gm.execute("window.scrollTo(0, 0);", vec![]).await?;
    screenshot(gm, "17-ose-round-by-clicking").await?;
    eprintln!(
        "OSE round 1 in {clicks} clicks: {attacks} attacks, {damaged} blows; hit points {before} → {after}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gm_plays_a_five_torches_deep_round_by_clicking() -> Result<()> {
    let Some(mut driver) = Driver::start().await? else {
        return Ok(());
    };
    let server = TestServer::start().await?;
    let gm = driver.browser(1280, 1000).await?;
    let result = ftd_by_clicking(&gm, &format!("http://{}/", server.addr)).await;
    if result.is_err() {
        let _ = screenshot(&gm, "failure-ftd-clicking").await;
    }
    let _ = gm.close().await;
    server.stop().await;
    result
}

async fn ftd_by_clicking(gm: &Client, base: &str) -> Result<()> {
    let link = create_in_lobby(gm, base, "flooded-chapel", 4).await?;
    gm.goto(&link).await?;
    wait_css(gm, "#actions button[data-group=\"Start battle\"]")
        .await?
        .click()
        .await?;
    logged(gm, "initiative_scores").await?;
    let before = hit_points(gm).await?;
    let clicks = fight_until_round(gm, 2, 60).await?;
    ensure!(round_shown(gm).await? == 2, "the battle ended in round 1");
    let attacks = count(gm, "attack_rolled").await?;
    ensure!(attacks > 0, "no attack in round 1");
    // The positions drawing: whoever engaged stands in a melee.
    let melees = gm
        .execute(
            "return document.querySelectorAll('#positions .melee').length;",
            vec![],
        )
        .await?;
    ensure!(
        melees.as_u64().unwrap_or(0) > 0,
        "no melee drawn after round 1"
    );
    let after = hit_points(gm).await?;
    gm.execute("window.scrollTo(0, 0);", vec![]).await?;
    screenshot(gm, "18-ftd-round-by-clicking").await?;
    eprintln!(
        "Five Torches Deep round 1 in {clicks} clicks: {attacks} attacks; hit points {before} → {after}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_13th_age_positions_show_an_engaged_group_and_the_gm_tools_send_their_forms()
-> Result<()> {
    let Some(mut driver) = Driver::start().await? else {
        return Ok(());
    };
    let server = TestServer::start().await?;
    let created = fray_tests::create_session(server.addr, "goblin-ambush", 7).await?;
    let gm_token = created["tokens"]["gm"]
        .as_str()
        .ok_or_else(|| anyhow!("no GM token in {created}"))?;
    let spectator_token = created["tokens"]["spectator"]
        .as_str()
        .ok_or_else(|| anyhow!("no spectator token in {created}"))?;
    let gm = driver.browser(1280, 1000).await?;
    let phone = driver.browser(390, 844).await?;
    let result = positions_and_tools(&gm, &phone, server.addr, gm_token, spectator_token).await;
    if result.is_err() {
        let _ = screenshot(&gm, "failure-positions-gm").await;
        let _ = screenshot(&phone, "failure-positions-phone").await;
    }
    let _ = gm.close().await;
    let _ = phone.close().await;
    server.stop().await;
    result
}

/// The ids of the combatants in the same melee as `id` on a page's positions drawing.
async fn melee_of(c: &Client, id: &str) -> Result<Value> {
    Ok(c.execute(
        "const t = document.querySelector(`#positions .melee [data-id=\"${arguments[0]}\"]`);
         return t && [...t.closest('.melee').querySelectorAll('[data-id]')].map(e => e.dataset.id);",
        vec![json!(id)],
    )
    .await?)
}

async fn positions_and_tools(
    gm: &Client,
    phone: &Client,
    addr: SocketAddr,
    gm_token: &str,
    spectator_token: &str,
) -> Result<()> {
    gm.goto(&format!("http://{addr}/#/table?token={gm_token}"))
        .await?;
    phone
        .goto(&format!("http://{addr}/#/table?token={spectator_token}"))
        .await?;
    // Before the battle everyone is nearby, on their side; no one is engaged.
    wait_css(gm, "#positions [data-zone=\"heroes-nearby\"] [data-id]").await?;
    wait_css(gm, "#positions [data-zone=\"monsters-nearby\"] [data-id]").await?;
    ensure!(
        text(gm, "#positions [data-zone=\"melee\"]")
            .await?
            .contains("No one is engaged")
    );
    wait_css(gm, "#actions button[data-group=\"Start battle\"]")
        .await?
        .click()
        .await?;
    // Whoever's turn it is engages an enemy with the Engage picker.
    let current = until(
        gm,
        "the first turn with an Engage choice",
        "const c = document.querySelector('#order li[aria-current]');
         return c && document.querySelector(`#actions section.actor[data-actor=\"${c.dataset.id}\"] button[data-group=\"Engage\"][data-label]`) && c.dataset.id;",
        vec![],
    )
    .await?;
    let current = current.as_str().unwrap_or_default().to_string();
    let foe = gm
        .execute(
            "const b = document.querySelector(`#actions section.actor[data-actor=\"${arguments[0]}\"] button[data-group=\"Engage\"][data-label]`);
             return [b.dataset.label, document.querySelector(`#combatants article[aria-label=\"${b.dataset.label}\"]`).dataset.id];",
            vec![json!(current)],
        )
        .await?;
    let (foe_name, foe_id) = (
        foe[0].as_str().unwrap_or_default().to_string(),
        foe[1].as_str().unwrap_or_default().to_string(),
    );
    let (seq, _) = seqs(gm).await?;
    click_action(gm, "Engage", &foe_name).await?;
    caught_up(gm, seq + 1).await?;
    for page in [gm, phone] {
        let group = until(
            page,
            "the engaged group",
            "const t = document.querySelector(`#positions .melee [data-id=\"${arguments[0]}\"]`);
             return t && [...t.closest('.melee').querySelectorAll('[data-id]')].map(e => e.dataset.id);",
            vec![json!(current)],
        )
        .await?;
        ensure!(
            group.as_array().is_some_and(|g| g.contains(&json!(foe_id))),
            "{current} engaged {foe_id}, the melee holds {group}"
        );
    }
    // Whose turn it is is marked, and said to a screen reader.
    let marked = gm
        .execute(
            "const t = document.querySelector(`#positions [data-id=\"${arguments[0]}\"]`);
             return [t.getAttribute('aria-current'), t.getAttribute('aria-label')];",
            vec![json!(current)],
        )
        .await?;
    ensure!(
        marked[0] == "step" && marked[1].as_str().is_some_and(|l| l.contains("their turn")),
        "{marked}"
    );
    // The phone's page does not scroll sideways; the spectator has no GM tools.
    let phone_facts = phone
        .execute(
            "return [document.documentElement.scrollWidth, window.innerWidth, document.getElementById('gm-tools').hidden];",
            vec![],
        )
        .await?;
    ensure!(
        phone_facts[0].as_u64() <= phone_facts[1].as_u64() && phone_facts[2] == true,
        "scroll width, window width, tools hidden: {phone_facts}"
    );
    phone
        .execute(
            "document.getElementById('positions').scrollIntoView();",
            vec![],
        )
        .await?;
    screenshot(phone, "19-13th-age-positions-phone").await?;
    screenshot(gm, "20-13th-age-positions-gm").await?;
    gm_tools(gm, phone, &current, &foe_id).await
}

/// The GM's tools: a refused teleport shows its reason under the form; temporary hit points
/// and a teleport into melee are sent from their forms and reach both pages' views.
async fn gm_tools(gm: &Client, phone: &Client, mover: &str, foe: &str) -> Result<()> {
    wait_css(gm, "#gm-tools details.gm-tools summary")
        .await?
        .click()
        .await?;
    // A hero, not in the melee above, teleports next to a monster.
    let hero = gm
        .execute(
            "return [...document.querySelectorAll('#positions [data-zone=\"heroes-nearby\"] [data-id]')].map(e => e.dataset.id)[0];",
            vec![],
        )
        .await?;
    let hero = hero
        .as_str()
        .ok_or_else(|| anyhow!("no free hero nearby"))?
        .to_string();
    let monster = if gm_side(gm, mover).await? == "monsters" {
        mover
    } else {
        foe
    };
    let set = "const [id, value] = arguments; const e = document.getElementById(id);
               if (e.type === 'checkbox') e.checked = value; else e.value = value;";
    for (id, value) in [
        ("gm-teleport-target", json!(hero)),
        ("gm-teleport-engage", json!(monster)),
        ("gm-teleport-far_away", json!(true)),
    ] {
        gm.execute(set, vec![json!(id), value]).await?;
    }
    wait_css(gm, "#gm-teleport-send").await?.click().await?;
    let refused = until(
        gm,
        "the teleport's refusal",
        "const a = document.querySelector('form[data-command=\"teleport\"] .tool-answer');
         return a.dataset.answer === 'refused' && a.textContent;",
        vec![],
    )
    .await?;
    ensure!(
        refused
            .as_str()
            .is_some_and(|r| r.contains("invalid_argument") && r.contains("not both")),
        "{refused}"
    );
    gm.execute(set, vec![json!("gm-teleport-far_away"), json!(false)])
        .await?;
    let (seq, _) = seqs(gm).await?;
    wait_css(gm, "#gm-teleport-send").await?.click().await?;
    logged(gm, "teleported").await?;
    caught_up(gm, seq + 1).await?;
    let group = melee_of(gm, &hero).await?;
    ensure!(
        group
            .as_array()
            .is_some_and(|g| g.contains(&json!(monster))),
        "{hero} teleported next to {monster}; the melee holds {group}"
    );
    // Temporary hit points: the card shows them on both pages (a hero's are public).
    for (id, value) in [
        ("gm-grant_temp_hp-target", hero.as_str()),
        ("gm-grant_temp_hp-amount", "7"),
    ] {
        gm.execute(set, vec![json!(id), json!(value)]).await?;
    }
    wait_css(gm, "#gm-grant_temp_hp-send")
        .await?
        .click()
        .await?;
    logged(gm, "temp_hp_gained").await?;
    for page in [gm, phone] {
        until(
            page,
            "the temporary hit points on the card",
            "const t = document.querySelector(`#combatants article[data-id=\"${arguments[0]}\"] .hp-text`);
             return t && t.textContent.includes('(+7 temp)');",
            vec![json!(hero)],
        )
        .await?;
    }
    let answer = text(gm, "form[data-command=\"grant_temp_hp\"] .tool-answer").await?;
    ensure!(answer == "Done.", "{answer}");
    gm.execute(
        "document.getElementById('gm-tools').scrollIntoView();",
        vec![],
    )
    .await?;
    screenshot(gm, "21-13th-age-gm-tools").await?;
    Ok(())
}

/// A combatant's side on a page's cards.
async fn gm_side(c: &Client, id: &str) -> Result<String> {
    let v = c
        .execute(
            "return document.querySelector(`#combatants article[data-id=\"${arguments[0]}\"]`).classList.contains('side-heroes') ? 'heroes' : 'monsters';",
            vec![json!(id)],
        )
        .await?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

/// Presses Enter in an element (a form's input: the form is sent).
async fn press_enter(el: &Element) -> Result<()> {
    el.send_keys(&char::from(fantoccini::key::Key::Enter).to_string())
        .await?;
    Ok(())
}

/// Sets form controls by id (`value`, or `checked` for a checkbox).
async fn set_values(c: &Client, values: &[(&str, Value)]) -> Result<()> {
    for (id, value) in values {
        c.execute(
            "const [id, value] = arguments; const e = document.getElementById(id);
             if (e.type === 'checkbox') e.checked = value; else e.value = value;",
            vec![json!(id), value.clone()],
        )
        .await?;
    }
    Ok(())
}

/// The token of a player seat in a session creation's answer.
fn seat_token(created: &Value, seat: &str) -> Result<String> {
    created["tokens"]["players"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["name"] == seat))
        .and_then(|p| p["token"].as_str())
        .map(str::to_string)
        .ok_or_else(|| anyhow!("no seat for {seat} in {created}"))
}

/// The talk panel's free rolls on a page: `[text, hidden, faces]` each.
async fn free_rolls(c: &Client) -> Result<Value> {
    Ok(c.execute(
        "const where = document.getElementById('talk').hidden ? '#log' : '#talk-lines';
         return [...document.querySelectorAll(`${where} li[data-kind=\"free_rolled\"]`)]
           .map(li => [li.textContent, li.classList.contains('secret'),
                       [...li.querySelectorAll('.die')].map(d => d.textContent)]);",
        vec![],
    )
    .await?)
}

/// Waits until a page shows `n` free rolls (in its talk panel, or its log for a spectator).
async fn rolls_shown(c: &Client, n: usize) -> Result<Value> {
    until(
        c,
        &format!("{n} free rolls"),
        "const talk = document.getElementById('talk');
         const where = talk.hidden ? '#log' : '#talk-lines';
         return document.querySelectorAll(`${where} li[data-kind=\"free_rolled\"]`).length >= arguments[0];",
        vec![json!(n)],
    )
    .await?;
    free_rolls(c).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whisper_reaches_only_its_player_and_a_public_roll_reaches_everyone_with_its_dice()
-> Result<()> {
    let Some(mut driver) = Driver::start().await? else {
        return Ok(());
    };
    let server = TestServer::start().await?;
    let created = fray_tests::create_session(server.addr, "goblin-ambush", 7).await?;
    let gm = driver.browser(1280, 1000).await?;
    let alice = driver.browser(390, 844).await?;
    let other = driver.browser(1100, 1000).await?;
    let result = talk(&gm, &alice, &other, server.addr, &created).await;
    if result.is_err() {
        let _ = screenshot(&gm, "failure-talk-gm").await;
        let _ = screenshot(&alice, "failure-talk-alice").await;
        let _ = screenshot(&other, "failure-talk-other").await;
    }
    for c in [gm, alice, other] {
        let _ = c.close().await;
    }
    server.stop().await;
    result
}

const WHISPER: &str = "The idol is a fake.";

async fn talk(
    gm: &Client,
    alice: &Client,
    bob: &Client,
    addr: SocketAddr,
    created: &Value,
) -> Result<()> {
    let gm_token = created["tokens"]["gm"].as_str().unwrap_or_default();
    let at = |token: &str| format!("http://{addr}/#/table?token={token}");
    gm.goto(&at(gm_token)).await?;
    alice.goto(&at(&seat_token(created, "alice")?)).await?;
    bob.goto(&at(&seat_token(created, "bob")?)).await?;
    ensure!(text(bob, "#role").await? == "Player bob");
    // The seats come from the log's header: the GM may whisper to either player.
    wait_css(gm, "#chat-to option[value=\"player:alice\"]").await?;
    wait_css(alice, "#chat-to option[value=\"player:bob\"]").await?;
    set_values(gm, &[("chat-to", json!("player:alice"))]).await?;
    let line = wait_css(gm, "#chat-text").await?;
    line.send_keys(WHISPER).await?;
    press_enter(&line).await?;
    let on_alice = text(alice, "#talk-lines li[data-kind=\"chatted\"]").await?;
    ensure!(
        on_alice == format!("GM to alice (private): {WHISPER}"),
        "{on_alice}"
    );
    let on_bob = text(bob, "#log li[data-kind=\"chatted\"].secret").await?;
    ensure!(
        on_bob.contains("GM whispers to alice (private)"),
        "{on_bob}"
    );
    ensure!(
        !page_contains(bob, "idol").await?,
        "bob's page holds the whisper"
    );
    ensure!(
        gm.execute("return document.getElementById('chat-text').value;", vec![])
            .await?
            == "",
        "the sent line stays in the GM's box"
    );

    // A public roll from the GM: every page shows its two dice, the same faces.
    set_values(
        gm,
        &[
            ("roll-label", json!("haggling")),
            ("roll-visibility", json!("public")),
        ],
    )
    .await?;
    let dice = wait_css(gm, "#roll-dice").await?;
    dice.send_keys("2d6+1").await?;
    press_enter(&dice).await?;
    let shown = rolls_shown(gm, 1).await?;
    let faces = &shown[0][2];
    ensure!(
        faces.as_array().is_some_and(|f| f.len() == 2) && shown[0][1] == false,
        "{shown}"
    );
    for page in [alice, bob] {
        let there = rolls_shown(page, 1).await?;
        ensure!(
            &there[0][2] == faces
                && there[0][0]
                    .as_str()
                    .is_some_and(|t| t.contains("GM rolls 2d6+1 for haggling")),
            "{there} against {shown}"
        );
    }

    // Alice rolls blind: the GM sees the die, alice only that she rolled.
    set_values(
        alice,
        &[
            ("roll-label", json!("")),
            ("roll-visibility", json!("blind")),
        ],
    )
    .await?;
    let dice = wait_css(alice, "#roll-dice").await?;
    dice.clear().await?;
    dice.send_keys("d20").await?;
    press_enter(&dice).await?;
    let mine = rolls_shown(alice, 2).await?;
    ensure!(
        mine[1][1] == true
            && mine[1][2] == json!([])
            && mine[1][0].as_str().is_some_and(
                |t| t.contains("alice rolls d20 (blind: the GM only): the result is hidden")
            ),
        "{mine}"
    );
    let gms = rolls_shown(gm, 2).await?;
    ensure!(
        gms[1][1] == false && gms[1][2].as_array().is_some_and(|f| f.len() == 1),
        "{gms}"
    );
    let phone = alice
        .execute(
            "document.getElementById('talk').scrollIntoView();
             return [document.documentElement.scrollWidth, window.innerWidth];",
            vec![],
        )
        .await?;
    ensure!(
        phone[0].as_u64() <= phone[1].as_u64(),
        "the phone scrolls sideways: {phone}"
    );
    screenshot(alice, "22-talk-player-phone").await?;
    gm.execute("document.getElementById('talk').scrollIntoView();", vec![])
        .await?;
    screenshot(gm, "23-talk-gm").await?;

    // The spectator joins later: the whisper's text is not in its history either, it has no
    // talk panel, and the public roll's dice are in its log.
    let spectator = created["tokens"]["spectator"].as_str().unwrap_or_default();
    bob.goto(&at(spectator)).await?;
    ensure!(text(bob, "#role").await? == "Spectator");
    let seen = rolls_shown(bob, 2).await?;
    ensure!(
        &seen[0][2] == faces && seen[1][1] == true && seen[1][2] == json!([]),
        "{seen}"
    );
    ensure!(
        text(bob, "#log li[data-kind=\"chatted\"]")
            .await?
            .contains("(private)")
    );
    ensure!(
        !page_contains(bob, "idol").await?,
        "the spectator's page holds the whisper"
    );
    ensure!(
        bob.execute("return document.getElementById('talk').hidden;", vec![])
            .await?
            == true,
        "the spectator may talk"
    );
    reissue(gm, bob, &at(&seat_token(created, "bob")?)).await
}

/// Whether a page's HTML holds `needle`.
async fn page_contains(c: &Client, needle: &str) -> Result<bool> {
    Ok(c.execute(
        "return document.documentElement.outerHTML.includes(arguments[0]);",
        vec![json!(needle)],
    )
    .await?
        == true)
}

/// The GM gives bob a new token from the GM tools: the GM's log shows bob's new link, which
/// opens bob's seat, while the old link is refused.
async fn reissue(gm: &Client, other: &Client, old_link: &str) -> Result<()> {
    wait_css(gm, "#gm-tools details.gm-tools summary")
        .await?
        .click()
        .await?;
    wait_css(gm, "#gm-reissue_token-seat option[value=\"bob\"]").await?;
    set_values(gm, &[("gm-reissue_token-seat", json!("bob"))]).await?;
    wait_css(gm, "#gm-reissue_token-send")
        .await?
        .click()
        .await?;
    let link = wait_css(gm, "#log a[data-seat-link=\"bob\"]")
        .await?
        .attr("href")
        .await?
        .ok_or_else(|| anyhow!("the new link has no href"))?;
    ensure!(
        link != old_link && link.contains("#/table?token="),
        "{link}"
    );
    ensure!(
        text(gm, "#log li[data-kind=\"token_reissued\"]")
            .await?
            .contains("GM")
    );
    other.goto(old_link).await?;
    until(
        other,
        "the old link refused",
        "const n = document.getElementById('notice'); return !n.hidden && n.textContent.includes('token_revoked');",
        vec![],
    )
    .await?;
    other.goto(&link).await?;
    ensure!(text(other, "#role").await? == "Player bob");
    Ok(())
}

/// The GM's page on a new goblin-ambush fight, its battle started by clicking; returns the
/// last event's seq once the page has caught up.
async fn gm_in_battle(driver: &mut Driver, addr: SocketAddr) -> Result<(Client, u64)> {
    let created = fray_tests::create_session(addr, "goblin-ambush", 7).await?;
    let gm_token = created["tokens"]["gm"].as_str().unwrap_or_default();
    let gm = driver.browser(1280, 1000).await?;
    gm.goto(&format!("http://{addr}/#/table?token={gm_token}"))
        .await?;
    wait_css(&gm, "#actions button[data-group=\"Start battle\"]")
        .await?
        .click()
        .await?;
    logged(&gm, "turn_order").await?;
    let (seq, _) = seqs(&gm).await?;
    caught_up(&gm, seq).await?;
    Ok((gm, seq))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gm_rewinds_by_clicking_and_the_hit_points_go_back() -> Result<()> {
    let Some(mut driver) = Driver::start().await? else {
        return Ok(());
    };
    let server = TestServer::start().await?;
    let (gm, start) = gm_in_battle(&mut driver, server.addr).await?;
    let result = rewind_by_clicking(&gm, start).await;
    if result.is_err() {
        let _ = screenshot(&gm, "failure-rewind-gm").await;
    }
    let _ = gm.close().await;
    server.stop().await;
    result
}

/// The current turn's combatant on a page.
async fn current(c: &Client) -> Result<Value> {
    Ok(c.execute(
        "const c = document.querySelector('#order li[aria-current]'); return c && c.dataset.id;",
        vec![],
    )
    .await?)
}

/// Clicks the FIGHT policy's choice once and waits for its events; the new last seq.
async fn fight_once(gm: &Client) -> Result<u64> {
    let (seq, _) = seqs(gm).await?;
    caught_up(gm, seq).await?;
    let v = gm.execute(FIGHT, vec![]).await?;
    let (Some(group), Some(label)) = (v[0].as_str(), v[1].as_str()) else {
        bail!("no action for the combatant whose turn it is (seq {seq})");
    };
    click_action(gm, group, label).await?;
    until(
        gm,
        "the command's events",
        "const last = document.querySelector('#log li:last-child');
         return !!last && Number(last.dataset.seq) > arguments[0];",
        vec![json!(seq)],
    )
    .await?;
    let (now, _) = seqs(gm).await?;
    caught_up(gm, now).await?;
    Ok(now)
}

async fn rewind_by_clicking(gm: &Client, start: u64) -> Result<()> {
    let before = hit_points(gm).await?;
    let turn = current(gm).await?;
    // The GM fights until someone is hurt.
    let mut clicks = 0;
    while hit_points(gm).await? == before {
        ensure!(clicks < 40, "no one was hurt in 40 clicks");
        fight_once(gm).await?;
        clicks += 1;
    }
    // The last line of the start's tick has a rewind button; Enter opens its confirm and the
    // "Yes" takes the focus.
    let button = wait_css(gm, &format!("#log li[data-seq=\"{start}\"] .rewind-button")).await?;
    gm.execute(
        "arguments[0].scrollIntoView({block: 'center'});",
        vec![json!(button)],
    )
    .await?;
    press_enter(&button).await?;
    let focused = gm
        .execute(
            "return document.activeElement.dataset.confirm ?? null;",
            vec![],
        )
        .await?;
    ensure!(
        focused == "yes",
        "the confirm's Yes has not the focus: {focused}"
    );
    screenshot(gm, "24-rewind-confirm").await?;
    wait_css(
        gm,
        &format!("#log li[data-seq=\"{start}\"] [data-confirm=\"yes\"]"),
    )
    .await?
    .click()
    .await?;
    let line = text(gm, "#log li[data-kind=\"rewound\"]").await?;
    ensure!(
        line.contains("GM override") && line.contains(&format!("rewound to #{start}")),
        "{line}"
    );
    until(
        gm,
        "the hit points as they were",
        "return JSON.stringify([...document.querySelectorAll('#combatants article [data-hp]')].map(e => e.dataset.hp)) === arguments[0];",
        vec![json!(before.to_string())],
    )
    .await?;
    ensure!(
        current(gm).await? == turn,
        "the turn is not the start's again"
    );

    // One more command, then "Undo last" (keyboard: Enter, then Enter on Yes) goes back to the
    // rewind's state: the same hit points and turn.
    fight_once(gm).await?;
    let undo = wait_css(gm, "#undo .undo-button").await?;
    press_enter(&undo).await?;
    let yes = wait_css(gm, "#undo [data-confirm=\"yes\"]").await?;
    press_enter(&yes).await?;
    until(
        gm,
        "the second rewind",
        "return document.querySelectorAll('#log li[data-kind=\"rewound\"]').length === 2;",
        vec![],
    )
    .await?;
    let (seq, _) = seqs(gm).await?;
    caught_up(gm, seq).await?;
    ensure!(hit_points(gm).await? == before && current(gm).await? == turn);
    gm.execute(
        "document.querySelector('#log li[data-kind=\"rewound\"]').scrollIntoView({block: 'center'});",
        vec![],
    )
    .await?;
    screenshot(gm, "25-rewound").await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gm_hands_the_monsters_to_the_server_and_they_act_without_a_click() -> Result<()> {
    let Some(mut driver) = Driver::start().await? else {
        return Ok(());
    };
    let server = TestServer::start().await?;
    let (gm, _) = gm_in_battle(&mut driver, server.addr).await?;
    let result = monsters_by_the_server(&gm).await;
    if result.is_err() {
        let _ = screenshot(&gm, "failure-auto-play-gm").await;
    }
    let _ = gm.close().await;
    server.stop().await;
    result
}

/// Whether a monster's turn has ended on the GM's page.
const MONSTER_TURN_ENDED: &str = r#"
const monsters = [...document.querySelectorAll('#combatants article.side-monsters')].map(a => a.getAttribute('aria-label'));
return [...document.querySelectorAll('#log li[data-kind="turn_ended"]')]
  .some(li => monsters.some(m => li.textContent.includes(`${m} ends the turn.`)));
"#;

async fn monsters_by_the_server(gm: &Client) -> Result<()> {
    wait_css(gm, "#gm-tools details.gm-tools summary")
        .await?
        .click()
        .await?;
    set_values(
        gm,
        &[
            ("gm-auto_play-side", json!("monsters")),
            ("gm-auto_play-on", json!(true)),
        ],
    )
    .await?;
    wait_css(gm, "#gm-auto_play-send").await?.click().await?;
    let line = text(gm, "#log li[data-kind=\"auto_play_set\"]").await?;
    ensure!(line.contains("GM: the server now plays"), "{line}");
    // The GM clicks only for the heroes; the monsters' turns pass by themselves.
    let mut clicks = 0;
    while gm.execute(MONSTER_TURN_ENDED, vec![]).await? != true {
        ensure!(
            clicks < 30,
            "no monster's turn ended in 30 of the heroes' clicks"
        );
        let side = until(
            gm,
            "a hero's turn or a monster's turn ended",
            &format!(
                "const done = (() => {{ {MONSTER_TURN_ENDED} }})();
                 if (done) return 'done';
                 const c = document.querySelector('#order li[aria-current]');
                 const hero = c && c.classList.contains('side-heroes')
                   && document.querySelector(`#actions section.actor[data-actor=\"${{c.dataset.id}}\"]`);
                 return hero ? 'hero' : null;"
            ),
            vec![],
        )
        .await?;
        if side == "hero" {
            fight_once(gm).await?;
            clicks += 1;
        }
    }
    gm.execute(
        "document.querySelector('#log li:last-child').scrollIntoView({block: 'center'});",
        vec![],
    )
    .await?;
    screenshot(gm, "26-auto-play").await?;
    Ok(())
}
