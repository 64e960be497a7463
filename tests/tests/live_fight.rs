//! End to end over real sockets: a GM, two players and spectators (JSON and bincode) play a
//! 13th Age fight to its end; illegal commands are refused with their own codes and change
//! nothing; a client resumes after a disconnect; the seed commitment holds; Orcus hiding in the
//! README's JSON (hide, search, reveal).

use anyhow::{Result, anyhow, bail};
use fray_protocol::codec::Encoding;
use fray_protocol::command::AttackMode;
use fray_protocol::ids::{CombatantId, Role};
use fray_protocol::{BxCommand, BxEvent, OrcusCommand, OrcusEvent, ThirteenthAgeEvent};
use fray_protocol::{ClientMessage, Command, ErrorCode, GameEvent, ServerMessage, SessionState};
use fray_server::demo::bot::next_for_table;
use fray_server::demo::client::Client;
use fray_tests::{TestServer, create_session};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

const T: Duration = Duration::from_secs(10);

async fn recv(c: &mut Client) -> Result<ServerMessage> {
    Ok(tokio::time::timeout(T, c.recv()).await??)
}

/// Reads until a message matches; returns it (events seen on the way are dropped).
async fn until(c: &mut Client, f: impl Fn(&ServerMessage) -> bool) -> Result<ServerMessage> {
    loop {
        let m = recv(c).await?;
        if f(&m) {
            return Ok(m);
        }
    }
}

async fn join(url: &str, token: &str, enc: Encoding) -> Result<(Client, Role, SessionState)> {
    let mut c = Client::connect(url, enc).await?;
    c.hello(token, None).await?;
    let ServerMessage::Welcome { role, .. } = recv(&mut c).await? else {
        bail!("expected welcome")
    };
    let ServerMessage::Snapshot { state, .. } = recv(&mut c).await? else {
        bail!("expected snapshot")
    };
    Ok((c, role, *state))
}

async fn snapshot(c: &mut Client) -> Result<SessionState> {
    c.send(&ClientMessage::GetSnapshot).await?;
    match until(c, |m| matches!(m, ServerMessage::Snapshot { .. })).await? {
        ServerMessage::Snapshot { state, .. } => Ok(*state),
        _ => unreachable!(),
    }
}

/// Sends a command; returns Ok(Accepted) or the rejection code.
async fn command(
    c: &mut Client,
    id: u64,
    cmd: Command,
) -> Result<std::result::Result<(), (ErrorCode, String)>> {
    c.send(&ClientMessage::Command { id, command: cmd }).await?;
    loop {
        match recv(c).await? {
            ServerMessage::Accepted { command_id, .. } if command_id == id => return Ok(Ok(())),
            ServerMessage::Rejected {
                command_id,
                code,
                message,
            } if command_id == id => return Ok(Err((code, message))),
            _ => {}
        }
    }
}

/// Collects events until the seed is revealed.
async fn collect(mut c: Client) -> Result<Vec<(u64, GameEvent)>> {
    let mut out = Vec::new();
    loop {
        if let ServerMessage::Event { seq, event, .. } =
            tokio::time::timeout(Duration::from_secs(60), c.recv()).await??
        {
            let end = matches!(event, GameEvent::SeedRevealed { .. });
            out.push((seq, event));
            if end {
                return Ok(out);
            }
        }
    }
}

struct Table {
    gm: Client,
    players: Vec<(Client, Role)>,
    next_id: u64,
}

impl Table {
    /// Plays one move with the right client; returns false once the battle is over.
    async fn step(&mut self) -> Result<bool> {
        let state = snapshot(&mut self.gm).await?;
        if state.phase == fray_protocol::state::Phase::Ended {
            return Ok(false);
        }
        let mut roles = vec![Role::Gm];
        roles.extend(self.players.iter().map(|(_, r)| r.clone()));
        let (role, cmd) =
            next_for_table(&state, &roles, self.next_id).ok_or_else(|| anyhow!("no move"))?;
        self.next_id += 1;
        let id = self.next_id;
        let client = match &role {
            Role::Gm => &mut self.gm,
            r => {
                &mut self
                    .players
                    .iter_mut()
                    .find(|(_, pr)| pr == r)
                    .ok_or_else(|| anyhow!("no client for {r:?}"))?
                    .0
            }
        };
        if let Err((code, msg)) = command(client, id, cmd.clone()).await? {
            bail!("legal move refused: {cmd:?}: {code}: {msg}");
        }
        Ok(true)
    }
}

/// Plays a built-in encounter to its end over real sockets (GM JSON, alice JSON, bob bincode,
/// spectators in both encodings); returns what the JSON and bincode spectators saw, and the
/// creation answer.
async fn play_over_sockets(
    server: &TestServer,
    encounter: &str,
    seed: u64,
) -> Result<(
    Vec<(u64, GameEvent)>,
    Vec<(u64, GameEvent)>,
    serde_json::Value,
)> {
    let created = create_session(server.addr, encounter, seed).await?;
    let url = server.ws_url();
    let tok = |p: &str| {
        created["tokens"][p]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let player_tok = |i: usize| {
        created["tokens"]["players"][i]["token"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let (spec_json, _, _) = join(&url, &tok("spectator"), Encoding::Json).await?;
    let (spec_bin, _, _) = join(&url, &tok("spectator"), Encoding::Bincode).await?;
    let watch_json = tokio::spawn(collect(spec_json));
    let watch_bin = tokio::spawn(collect(spec_bin));
    let (gm, gm_role, _) = join(&url, &tok("gm"), Encoding::Json).await?;
    assert_eq!(gm_role, Role::Gm);
    let (alice, alice_role, _) = join(&url, &player_tok(0), Encoding::Json).await?;
    let (bob, bob_role, _) = join(&url, &player_tok(1), Encoding::Bincode).await?;
    let mut table = Table {
        gm,
        players: vec![(alice, alice_role), (bob, bob_role)],
        next_id: 0,
    };
    let mut steps = 0;
    while table.step().await? {
        steps += 1;
        assert!(steps < 3000, "the fight does not end");
    }
    Ok((watch_json.await??, watch_bin.await??, created))
}

/// 13th-age-combat.txt, the whole chapter in one fight over real sockets: flexible attacks,
/// ongoing damage with save ends, disengaging and opportunity attacks, a rally, death saves and
/// a coup de grace, each played by the client of the seat that controls the combatant.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_13th_age_fight_with_the_whole_chapter_over_real_sockets() -> Result<()> {
    let server = TestServer::start().await?;
    let (seen, _, _) = play_over_sockets(&server, "crypt-of-ash", 0).await?;
    let has = |f: &dyn Fn(&GameEvent) -> bool| seen.iter().any(|(_, e)| f(e));
    use fray_protocol::event::{EffectKind, SavePurpose};
    assert!(
        has(&|e| matches!(
            e,
            GameEvent::ThirteenthAge(ThirteenthAgeEvent::ManeuverTriggered { .. })
        )),
        "a flexible attack"
    );
    assert!(has(
        &|e| matches!(e, GameEvent::EffectApplied { effect } if matches!(effect.kind, EffectKind::OngoingDamage { .. }))
    ));
    assert!(has(&|e| matches!(
        e,
        GameEvent::Damaged {
            cause: fray_protocol::event::DamageCause::Ongoing { .. },
            ..
        }
    )));
    assert!(
        has(&|e| matches!(
            e,
            GameEvent::SaveRolled {
                purpose: SavePurpose::Effect(_),
                success: true,
                ..
            }
        )),
        "save ends"
    );
    assert!(
        has(&|e| matches!(
            e,
            GameEvent::SaveRolled {
                purpose: SavePurpose::Disengage,
                ..
            }
        )),
        "a disengage check"
    );
    assert!(
        has(&|e| matches!(e, GameEvent::OpportunityTaken { .. })),
        "an opportunity attack"
    );
    assert!(has(&|e| matches!(e, GameEvent::Rallied { .. })), "a rally");
    assert!(
        has(&|e| matches!(
            e,
            GameEvent::SaveRolled {
                purpose: SavePurpose::Death,
                ..
            }
        )),
        "a death save"
    );
    assert!(
        has(&|e| matches!(e, GameEvent::CoupDeGrace { .. })),
        "a coup de grace"
    );
    server.stop().await;
    Ok(())
}

/// orcus-basic-rules.txt on a grid over real sockets: the bots of each seat walk into
/// opportunity attacks, flank, use an area power, deal persistent damage, shake off a save-ends
/// effect, suffer an aftereffect, spend an action point and make a death save.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_orcus_fight_on_the_grid_over_real_sockets() -> Result<()> {
    let server = TestServer::start().await?;
    let (seen, seen_bin, created) = play_over_sockets(&server, "bridge-of-bones", 5).await?;
    assert_eq!(created["ruleset"], "orcus");
    assert_eq!(seen, seen_bin, "both encodings see the same fight");
    let (name, text) = fray_server::rules::builtin_encounters("orcus")
        .iter()
        .find(|(n, _)| *n == "bridge-of-bones")
        .ok_or_else(|| anyhow!("no bridge-of-bones"))?;
    let enc = fray_server::rules::load_encounter(name, text)?;
    let events: Vec<GameEvent> = seen.into_iter().map(|(_, e)| e).collect();
    let tags = fray_tests::orcus_coverage(&fray_tests::orcus_start(&enc), &events);
    for need in [
        "opportunity",
        "flanking",
        "area",
        "persistent",
        "save-ends",
        "aftereffect",
        "action-point",
        "death-save",
    ] {
        assert!(tags.contains(need), "{need} missing from {tags:?}");
    }
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GameEvent::BattleEnded { .. })),
        "the fight ends"
    );
    server.stop().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_fight_over_real_sockets_in_both_encodings() -> Result<()> {
    let server = TestServer::start().await?;
    let (a, b, created) = play_over_sockets(&server, "goblin-ambush", 7).await?;
    let commitment = created["commitment"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    // Every event, in order, without gaps, identical in both encodings.
    for (i, (seq, _)) in a.iter().enumerate() {
        assert_eq!(*seq, i as u64 + 1, "gap or reorder at {i}");
    }
    assert_eq!(a, b, "JSON and bincode spectators saw different events");
    assert!(
        a.iter()
            .any(|(_, e)| matches!(e, GameEvent::BattleEnded { winner: Some(_) }))
    );
    // Spectators never see a monster's exact hit points.
    for (_, e) in &a {
        if let GameEvent::Damaged {
            target, hp_after, ..
        } = e
            && target.as_str().starts_with("goblin")
        {
            assert_eq!(*hp_after, None, "monster hp leaked to a spectator");
        }
    }
    // Fairness: the commitment published at creation is SHA-256(seed ‖ salt) of the reveal.
    let Some((_, GameEvent::SeedRevealed { seed, salt })) = a.last() else {
        bail!("no reveal")
    };
    assert_eq!(*seed, 7);
    let salt: [u8; 16] = hex::decode(salt)?
        .try_into()
        .map_err(|_| anyhow!("salt length"))?;
    assert_eq!(
        hex::encode(fray_server::dice::commitment(*seed, &salt)),
        commitment
    );
    server.stop().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_commands_are_refused_with_their_own_codes_and_change_nothing() -> Result<()> {
    let server = TestServer::start().await?;
    let created = create_session(server.addr, "goblin-ambush", 11).await?;
    let url = server.ws_url();
    let tok = |p: &str| {
        created["tokens"][p]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let player_tok = |i: usize| {
        created["tokens"]["players"][i]["token"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let (mut gm, _, _) = join(&url, &tok("gm"), Encoding::Json).await?;
    let (mut alice, _, _) = join(&url, &player_tok(0), Encoding::Json).await?;
    let (mut spec, _, _) = join(&url, &tok("spectator"), Encoding::Json).await?;

    // Before the battle: a player may not start it.
    let r = command(&mut alice, 1, Command::StartBattle).await?;
    assert_eq!(r.unwrap_err().0, ErrorCode::GmOnly);
    assert!(command(&mut gm, 1, Command::StartBattle).await?.is_ok());

    let state = snapshot(&mut gm).await?;
    let current = state.current.clone().ok_or_else(|| anyhow!("no current"))?;
    let cur = state
        .combatant(&current)
        .ok_or_else(|| anyhow!("no current combatant"))?;
    // Someone who is not on turn, on the other side of the current combatant's side or same.
    let idle = state
        .combatants
        .iter()
        .find(|c| c.id != current && c.side == fray_protocol::Side::Heroes)
        .ok_or_else(|| anyhow!("no idle hero"))?
        .id
        .clone();
    let enemy_of = |side| {
        state
            .combatants
            .iter()
            .find(|c| c.side != side)
            .map(|c| c.id.clone())
            .unwrap_or_else(|| CombatantId::new("x"))
    };

    let before = snapshot(&mut gm).await?;
    // Acting out of turn.
    let r = command(
        &mut gm,
        2,
        Command::Attack {
            actor: idle.clone(),
            attack: "melee".into(),
            targets: vec![enemy_of(fray_protocol::Side::Heroes)],
            mode: AttackMode::Standard,
            knock_out: false,
            forced: Vec::new(),
            weapon: None,
            secondary_target: None,
        },
    )
    .await?;
    assert_eq!(r.unwrap_err().0, ErrorCode::NotYourTurn);
    // Commanding another player's combatant (alice controls brakka and sela only).
    let r = command(
        &mut alice,
        3,
        Command::EndTurn {
            actor: CombatantId::new("vex"),
        },
    )
    .await?;
    assert_eq!(r.unwrap_err().0, ErrorCode::NotYourCombatant);
    // A spectator sending a command.
    let r = command(
        &mut spec,
        4,
        Command::EndTurn {
            actor: current.clone(),
        },
    )
    .await?;
    assert_eq!(r.unwrap_err().0, ErrorCode::SpectatorCannotCommand);
    // Malformed JSON.
    gm.send_raw(Message::Text("{\"command\": {\"id\": 5, ".into()))
        .await?;
    let m = until(&mut gm, |m| matches!(m, ServerMessage::Error { .. })).await?;
    assert!(
        matches!(
            m,
            ServerMessage::Error {
                code: ErrorCode::MalformedFrame,
                ..
            }
        ),
        "{m:?}"
    );
    // Unknown command shape.
    gm.send_raw(Message::Text(
        "{\"command\":{\"id\":6,\"command\":{\"fly\":{}}}}".into(),
    ))
    .await?;
    let m = until(&mut gm, |m| matches!(m, ServerMessage::Error { .. })).await?;
    assert!(
        matches!(
            m,
            ServerMessage::Error {
                code: ErrorCode::MalformedFrame,
                ..
            }
        ),
        "{m:?}"
    );
    let after = snapshot(&mut gm).await?;
    assert_eq!(before, after, "refused commands changed the state");

    // A melee attack while unengaged (13th Age § Engaged / Unengaged).
    let target = enemy_of(cur.side);
    let melee = cur
        .attacks
        .iter()
        .find(|a| a.range == "melee")
        .ok_or_else(|| anyhow!("no melee attack"))?
        .id
        .clone();
    let attack = Command::Attack {
        actor: current.clone(),
        attack: melee,
        targets: vec![target.clone()],
        mode: AttackMode::Standard,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    };
    let r = command(&mut gm, 7, attack.clone()).await?;
    assert_eq!(r.unwrap_err().0, ErrorCode::NotEngaged);
    assert_eq!(before, snapshot(&mut gm).await?);
    // Engage, attack, then a second standard action in the same turn.
    let engage = Command::Move {
        actor: current.clone(),
        engage: Some(target.clone()),
        far_away: false,
    };
    assert!(command(&mut gm, 8, engage).await?.is_ok());
    assert!(command(&mut gm, 9, attack.clone()).await?.is_ok());
    let before = snapshot(&mut gm).await?;
    if before.current.as_ref() == Some(&current) {
        let r = command(&mut gm, 10, attack).await?;
        assert_eq!(r.unwrap_err().0, ErrorCode::ActionAlreadyUsed);
        assert_eq!(before, snapshot(&mut gm).await?);
    }

    // An unknown token.
    let mut stranger = Client::connect(&url, Encoding::Json).await?;
    stranger.hello("not-a-token", None).await?;
    let m = recv(&mut stranger).await?;
    assert!(
        matches!(
            m,
            ServerMessage::Error {
                code: ErrorCode::UnknownToken,
                ..
            }
        ),
        "{m:?}"
    );

    // A frame over the size limit closes the connection after saying why.
    let big = format!(
        "{{\"ping\":{{\"nonce\":1}},\"pad\":\"{}\"}}",
        "x".repeat(70 * 1024)
    );
    spec.send_raw(Message::Text(big.into())).await?;
    let m = until(&mut spec, |m| matches!(m, ServerMessage::Error { .. })).await?;
    assert!(
        matches!(
            m,
            ServerMessage::Error {
                code: ErrorCode::FrameTooLarge,
                ..
            }
        ),
        "{m:?}"
    );
    assert!(spec.recv().await.is_err(), "connection should be closed");

    assert_eq!(
        before.combatants.len(),
        snapshot(&mut gm).await?.combatants.len()
    );
    server.stop().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_resumes_and_receives_exactly_the_events_it_missed() -> Result<()> {
    let server = TestServer::start().await?;
    let created = create_session(server.addr, "goblin-ambush", 21).await?;
    let url = server.ws_url();
    let tok = |p: &str| {
        created["tokens"][p]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let player_tok = |i: usize| {
        created["tokens"]["players"][i]["token"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let (gm, _, _) = join(&url, &tok("gm"), Encoding::Json).await?;
    let (alice, ar, _) = join(&url, &player_tok(0), Encoding::Json).await?;
    let (bob, br, _) = join(&url, &player_tok(1), Encoding::Json).await?;
    let mut table = Table {
        gm,
        players: vec![(alice, ar), (bob, br)],
        next_id: 0,
    };
    // A spectator watches a few moves, then drops.
    let (mut watcher, _, _) = join(&url, &tok("spectator"), Encoding::Bincode).await?;
    for _ in 0..4 {
        table.step().await?;
    }
    let mut last = 0;
    while let Ok(Ok(m)) = tokio::time::timeout(Duration::from_millis(300), watcher.recv()).await {
        if let ServerMessage::Event { seq, .. } = m {
            assert_eq!(seq, last + 1);
            last = seq;
        }
    }
    assert!(last > 0, "the spectator saw nothing");
    watcher.close().await;
    // The fight goes on.
    for _ in 0..6 {
        if !table.step().await? {
            break;
        }
    }
    // A fresh GM view from the start gives the reference list.
    let mut reference = Client::connect(&url, Encoding::Json).await?;
    reference.hello(&tok("gm"), Some(0)).await?;
    let mut all = Vec::new();
    let ServerMessage::Welcome { seq: total, .. } = recv(&mut reference).await? else {
        bail!("welcome")
    };
    while all.len() < total as usize {
        if let ServerMessage::Event { seq, event, .. } = recv(&mut reference).await? {
            all.push((seq, event));
        }
    }
    // Reconnect with the last seen seq.
    let mut back = Client::connect(&url, Encoding::Bincode).await?;
    back.hello(&tok("spectator"), Some(last)).await?;
    let ServerMessage::Welcome { seq, .. } = recv(&mut back).await? else {
        bail!("welcome")
    };
    assert_eq!(seq, total);
    let mut missed = Vec::new();
    while missed.len() < (total - last) as usize {
        if let ServerMessage::Event { seq, event, .. } = recv(&mut back).await? {
            missed.push((seq, event));
        }
    }
    let expected: Vec<_> = all
        .into_iter()
        .filter(|(s, _)| *s > last)
        .map(|(s, e)| {
            (
                s,
                e.redacted(|id| !["brakka", "sela", "orin", "vex"].contains(&id.as_str())),
            )
        })
        .collect();
    assert_eq!(missed, expected);
    // Nothing more arrives (no duplicates).
    assert!(
        tokio::time::timeout(Duration::from_millis(300), back.recv())
            .await
            .is_err()
    );
    // Resuming past the end is refused.
    let mut ahead = Client::connect(&url, Encoding::Json).await?;
    ahead.hello(&tok("spectator"), Some(total + 100)).await?;
    let m = recv(&mut ahead).await?;
    assert!(
        matches!(
            m,
            ServerMessage::Error {
                code: ErrorCode::ResumeOutOfRange,
                ..
            }
        ),
        "{m:?}"
    );
    server.stop().await;
    Ok(())
}

/// Old-School Essentials § Searching, § Listening at Doors, § Wandering Monsters (issue 6,
/// Secrets): the GM's secret rolls (listening, a search, an exploration turn's wandering-monster
/// check) reach the GM with their die, result and a wandering monster's distance; the player's
/// and the spectator's sockets (JSON and bincode) see that they were made and nothing more, as
/// does the public export of the log — also after the end, when the seed is revealed: the secret
/// rolls come from the secret stream (`dice::rng`), whose seed the export never holds (only its
/// `secret_commitment`, the one the session's creation answered); a secret roll after the
/// battle is allowed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secret_rolls_reach_only_the_gm_on_every_socket() -> Result<()> {
    use fray_protocol::ose::SecretCheck;
    let server = TestServer::start().await?;
    let created = create_session(server.addr, "barrow-of-the-hollow-king", 4).await?;
    let url = server.ws_url();
    let tok = |p: &str| {
        created["tokens"][p]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let player = created["tokens"]["players"][0]["token"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let (mut gm, _, _) = join(&url, &tok("gm"), Encoding::Json).await?;
    let (mut alice, _, _) = join(&url, &player, Encoding::Json).await?;
    let (mut spectator, _, _) = join(&url, &tok("spectator"), Encoding::Bincode).await?;
    let roll = Command::Bx(BxCommand::SecretRoll {
        check: SecretCheck::Listen,
        combatant: Some(CombatantId::new("quill")),
        chance: 1,
        area: None,
    });
    // A player may not make the roll.
    assert_eq!(
        command(&mut alice, 1, roll.clone()).await?.map_err(|e| e.0),
        Err(ErrorCode::GmOnly)
    );
    // Listening, a search of a named area and an exploration turn's wandering-monster check
    // (6-in-6: a monster comes, so the GM's event carries its distance too).
    let search = Command::Bx(BxCommand::SecretRoll {
        check: SecretCheck::SecretDoor,
        combatant: Some(CombatantId::new("pell")),
        chance: 1,
        area: Some("crypt-wall".into()),
    });
    let turn = Command::Bx(BxCommand::ExplorationTurn {
        wandering: Some(6),
        rest: false,
    });
    for (id, cmd) in [(1, roll), (2, search), (3, turn)] {
        gm.send(&ClientMessage::Command { id, command: cmd })
            .await?;
    }
    let secret = |m: &ServerMessage| {
        matches!(
            m,
            ServerMessage::Event {
                event: GameEvent::SecretRolled { .. },
                ..
            }
        )
    };
    let mut gm_saw = Vec::new();
    let mut gm_rolls = Vec::new();
    for _ in 0..3 {
        let ServerMessage::Event { event: seen, .. } = until(&mut gm, secret).await? else {
            bail!("no event")
        };
        let GameEvent::SecretRolled {
            check,
            combatant,
            chance,
            roll: Some(roll),
            success: Some(_),
            area,
            distance,
            turns,
        } = seen.clone()
        else {
            bail!("the GM sees the roll: {seen:?}")
        };
        gm_rolls.push((roll, distance.clone()));
        // Only the wandering monster that came has a distance (§ Distance, 2d6 × 10′).
        assert_eq!(
            distance.is_some(),
            check == SecretCheck::WanderingMonster,
            "{seen:?}"
        );
        // What the others must see: the same event without roll, result and distance.
        gm_saw.push(GameEvent::SecretRolled {
            check,
            combatant,
            chance,
            roll: None,
            success: None,
            area,
            distance: None,
            turns,
        });
    }
    for c in [&mut alice, &mut spectator] {
        let mut saw = Vec::new();
        for _ in 0..3 {
            let ServerMessage::Event { event, .. } = until(c, secret).await? else {
                bail!("no event")
            };
            saw.push(event);
        }
        assert_eq!(
            saw[0],
            GameEvent::SecretRolled {
                check: SecretCheck::Listen,
                combatant: Some(CombatantId::new("quill")),
                chance: 1,
                roll: None,
                success: None,
                area: None,
                distance: None,
                turns: 0
            },
            "only the GM sees a secret roll"
        );
        // The search and the wandering check: that they were made, nothing more.
        assert_eq!(
            saw, gm_saw,
            "only the GM sees a secret roll or a monster's distance"
        );
    }
    // The battle ends (the seed is revealed); a secret roll after it is still made in secret.
    assert_eq!(command(&mut gm, 4, Command::StartBattle).await?, Ok(()));
    assert_eq!(command(&mut gm, 5, Command::EndBattle).await?, Ok(()));
    let listen = Command::Bx(BxCommand::SecretRoll {
        check: SecretCheck::Listen,
        combatant: Some(CombatantId::new("quill")),
        chance: 1,
        area: None,
    });
    gm.send(&ClientMessage::Command {
        id: 6,
        command: listen,
    })
    .await?;
    let ServerMessage::Event {
        event: GameEvent::SecretRolled {
            roll: Some(roll), ..
        },
        ..
    } = until(&mut gm, secret).await?
    else {
        bail!("the GM sees the roll after the end")
    };
    gm_rolls.push((roll, None));
    let dir = server.stop().await;
    let id = created["session"].as_str().unwrap_or_default().to_string();
    let path = dir.path().join("sessions").join(&id);
    let fight = fray_server::replay::read_log(&path)?;
    let text =
        fray_server::replay::log_lines::write(&fight, fray_server::replay::Audience::Public)?;
    // The GM's rolls are the secret stream's, from the secret seed in the full log only.
    let g = fight.genesis();
    let mut stream = fray_server::dice::SessionRng::from_secret_seed(g.secret_seed);
    for (roll, distance) in &gm_rolls {
        assert_eq!(*roll, fray_server::dice::roll_die(&mut stream, 6));
        if let Some(d) = distance {
            let again = fray_server::dice::DiceExpr::parse("2d6")?
                .roll(&mut stream, &fray_server::dice::Placeholders::default())?;
            assert_eq!(*d, again);
        }
    }
    assert!(fight.revealed().is_some(), "the seed is revealed");
    assert!(!text.contains(&g.secret_seed.to_string()), "no secret seed");
    assert!(!text.contains(&g.secret_salt), "no secret salt");
    // The public log is JSON lines: read it as JSON, not as text.
    let lines = text
        .lines()
        .map(serde_json::from_str::<serde_json::Value>)
        .collect::<Result<Vec<_>, _>>()?;
    let genesis = &lines.first().ok_or_else(|| anyhow!("an empty log"))?["genesis"];
    assert_eq!(genesis["secret_commitment"], created["secret_commitment"]);
    assert_eq!(genesis["secret_commitment"], g.secret_commitment.as_str());
    let secrets: Vec<&serde_json::Value> = lines
        .iter()
        .filter_map(|l| l["events"]["events"].as_array())
        .flatten()
        .filter_map(|e| e.get("secret_rolled"))
        .collect();
    assert_eq!(secrets.len(), 4, "{secrets:?}");
    for s in secrets {
        for field in ["roll", "success", "distance"] {
            assert!(s[field].is_null(), "the public export shows {field}: {s}");
        }
    }
    Ok(())
}

/// Old-School Essentials end to end over real sockets (issue 6): the GM rolls surprise and the
/// reaction, the magic-user's player declares a spell, and the table plays side-initiative
/// rounds of missiles and melee until the barrow's monsters are slain or flee; the GM checks
/// morale whenever the server proposes it; the magic-user declares a spell every round and the
/// GM's monsters go for a caster still to cast, so that one is disrupted (§ Disrupting Spells),
/// and a monster breaks and flees (§ Morale Checks). The players send their own characters' commands
/// (alice: Odo and Wenna; bob: Pell and Quill), the GM the monsters'; a spectator (bincode)
/// sees the whole encounter, monsters' hit points hidden. A side acts in its phase order
/// (§ Combat Sequence Per Round): a character meaning to strike in melee holds its turn
/// (`ose_hold`) while a member of its side still means to shoot or cast.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_old_school_essentials_encounter_over_real_sockets() -> Result<()> {
    use fray_protocol::ids::Side;
    use fray_protocol::ose::{Declaration, MissileRange};
    use fray_protocol::state::{LifeStatus, Phase};
    let server = TestServer::start().await?;
    // Seed 4: the fight has a disrupted spell and a morale break (issue 6, Done when).
    let created = create_session(server.addr, "barrow-of-the-hollow-king", 4).await?;
    let url = server.ws_url();
    let tok = |p: &str| {
        created["tokens"][p]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let player = |i: usize| {
        created["tokens"]["players"][i]["token"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let (mut gm, _, _) = join(&url, &tok("gm"), Encoding::Json).await?;
    let (alice, _, _) = join(&url, &player(0), Encoding::Json).await?;
    let (bob, _, _) = join(&url, &player(1), Encoding::Bincode).await?;
    let (spectator, _, _) = join(&url, &tok("spectator"), Encoding::Bincode).await?;
    let watch = tokio::spawn(collect(spectator));
    let mut clients = [alice, bob];
    let seat = |id: &CombatantId| match id.as_str() {
        "odo" | "wenna" => Some(0),
        "pell" | "quill" => Some(1),
        _ => None,
    };
    let mut next = 0u64;
    let mut id = || {
        next += 1;
        next
    };
    for cmd in [
        Command::Bx(BxCommand::RollSurprise {
            sides: vec![Side::Monsters],
        }),
        Command::Bx(BxCommand::RollReaction {
            speaker: Some(CombatantId::new("wenna")),
        }),
    ] {
        assert_eq!(command(&mut gm, id(), cmd).await?, Ok(()));
    }
    let declare = Command::Bx(BxCommand::Declare {
        actor: CombatantId::new("pell"),
        declaration: Some(Declaration::Spell {
            spell: "Sleep".into(),
        }),
    });
    assert_eq!(command(&mut clients[1], id(), declare).await?, Ok(()));
    // A player cannot roll the GM's dice, nor act for another seat's character.
    assert_eq!(
        command(
            &mut clients[0],
            id(),
            Command::Bx(BxCommand::RollReaction { speaker: None })
        )
        .await?
        .map_err(|e| e.0),
        Err(ErrorCode::GmOnly)
    );
    assert_eq!(command(&mut gm, id(), Command::StartBattle).await?, Ok(()));
    let mut proposed = 0;
    for _ in 0..2_000 {
        let state = snapshot(&mut gm).await?;
        if state.phase == Phase::Ended {
            break;
        }
        let up = |c: &fray_protocol::state::CombatantState| {
            c.status == LifeStatus::Conscious && c.ose.as_ref().is_some_and(|o| !o.fled)
        };
        // § When to Check Morale: the server's proposals are recorded in the state.
        let ose = state.ose.clone().unwrap_or_default();
        if ose.first_death.len() + ose.half_down.len() > proposed {
            proposed = ose.first_death.len() + ose.half_down.len();
            let who: Vec<CombatantId> = state
                .combatants
                .iter()
                .filter(|c| {
                    c.side == Side::Monsters
                        && up(c)
                        && c.ose.as_ref().is_some_and(|o| {
                            o.morale_successes < 2 && o.morale.is_some_and(|m| m < 12)
                        })
                })
                .map(|c| c.id.clone())
                .collect();
            if !who.is_empty() {
                let cmd = Command::Bx(BxCommand::OseMorale {
                    combatants: who,
                    adjustment: 0,
                });
                assert_eq!(command(&mut gm, id(), cmd).await?, Ok(()));
                continue;
            }
        }
        // § Declare Spells and Melee Movement: Pell's player declares Sleep for every round.
        let pell = CombatantId::new("pell");
        if state
            .combatant(&pell)
            .is_some_and(|c| up(c) && c.ose.as_ref().is_some_and(|o| o.next.is_none()))
        {
            let declare = Command::Bx(BxCommand::Declare {
                actor: pell,
                declaration: Some(Declaration::Spell {
                    spell: "Sleep".into(),
                }),
            });
            assert_eq!(command(&mut clients[1], id(), declare).await?, Ok(()));
            continue;
        }
        let Some(cur) = state.current.clone() else {
            bail!("no current combatant while running")
        };
        let Some(me) = state.combatant(&cur).cloned() else {
            bail!("unknown current combatant")
        };
        let o = me.ose.clone().ok_or_else(|| anyhow!("no ose sheet"))?;
        // The GM's monsters go for a caster still to cast this round (§ Disrupting Spells),
        // else the first foe up.
        let caster = |c: &&fray_protocol::state::CombatantState| {
            c.ose.as_ref().is_some_and(|o| {
                matches!(o.declared, Some(Declaration::Spell { .. })) && !o.acted && !o.disrupted
            })
        };
        let foes: Vec<&fray_protocol::state::CombatantState> = state
            .combatants
            .iter()
            .filter(|c| c.side != me.side && up(c))
            .collect();
        let foe = foes
            .iter()
            .find(|c| me.side == Side::Monsters && caster(c))
            .or(foes.first())
            .map(|c| c.id.clone());
        let cmd = match (&o.declared, foe) {
            // § Combat Sequence Per Round: a member meaning to act in an earlier phase of the
            // side goes first.
            _ if fray_tests::ose_should_hold(&state, &cur) => {
                Command::Bx(BxCommand::OseHold { actor: cur })
            }
            (Some(Declaration::Spell { .. }), _) if o.disrupted => Command::EndTurn { actor: cur },
            (Some(Declaration::Spell { .. }), _) => {
                Command::Bx(BxCommand::CastSpell { actor: cur })
            }
            (_, None) => Command::EndTurn { actor: cur },
            // § Missile Attacks: Quill shoots unless he is in melee (`missile_in_melee`).
            (_, Some(foe))
                if cur.as_str() == "quill" && !fray_tests::ose_in_melee(&state, &cur) =>
            {
                Command::Bx(BxCommand::OseAttack {
                    actor: cur,
                    attack: "sling".into(),
                    target: foe,
                    range: Some(MissileRange::Short),
                    modifier: 0,
                    behind: false,
                })
            }
            (_, Some(foe)) => Command::Bx(BxCommand::OseAttack {
                actor: cur,
                attack: me.attacks[0].id.clone(),
                target: foe,
                range: None,
                modifier: 0,
                behind: false,
            }),
        };
        let client = match seat(&me.id) {
            Some(i) => &mut clients[i],
            None => &mut gm,
        };
        if let Err((code, msg)) = command(client, id(), cmd.clone()).await? {
            bail!("legal move refused: {cmd:?}: {code}: {msg}");
        }
    }
    let seen = tokio::time::timeout(Duration::from_secs(60), watch).await???;
    let has = |f: &dyn Fn(&GameEvent) -> bool| seen.iter().any(|(_, e)| f(e));
    assert!(has(&|e| matches!(
        e,
        GameEvent::Bx(BxEvent::SurpriseRolled { .. })
    )));
    assert!(has(&|e| matches!(
        e,
        GameEvent::Bx(BxEvent::ReactionRolled { .. })
    )));
    // "through side-initiative rounds": a d6 per side every round, over several rounds.
    let initiative_rounds = seen
        .iter()
        .filter(|(_, e)| matches!(e, GameEvent::Bx(BxEvent::SideInitiative { .. })))
        .count();
    assert!(
        initiative_rounds >= 2,
        "side initiative was rolled in {initiative_rounds} round(s)"
    );
    assert!(has(&|e| matches!(
        e,
        GameEvent::Bx(BxEvent::SpellCast { .. }) | GameEvent::Bx(BxEvent::SpellDisrupted { .. })
    )));
    // Issue 6, Done when: "a disrupted spell, and a morale break".
    assert!(has(&|e| matches!(
        e,
        GameEvent::Bx(BxEvent::SpellDisrupted { .. })
    )));
    assert!(has(&|e| matches!(
        e,
        GameEvent::LeftBattle {
            how: fray_protocol::ftd::Departure::Fled,
            ..
        }
    )));
    assert!(has(
        &|e| matches!(e, GameEvent::AttackRolled { attack, .. } if attack == "sling")
    ));
    // "missile and melee": a melee attack too (any attack but the sling's; the monsters and
    // the other heroes fight hand to hand).
    assert!(has(
        &|e| matches!(e, GameEvent::AttackRolled { attack, .. } if attack != "sling")
    ));
    // § Combat Sequence Per Round: a player held a character's turn so that the side's spell
    // came before its melee.
    assert!(has(&|e| matches!(
        e,
        GameEvent::Bx(BxEvent::TurnHeld { .. })
    )));
    assert!(has(&|e| matches!(e, GameEvent::Slain { .. })));
    assert!(has(&|e| matches!(
        e,
        GameEvent::Bx(BxEvent::MoraleRolled { .. })
    )));
    assert!(has(&|e| matches!(
        e,
        GameEvent::BattleEnded { winner: Some(_) }
    )));
    for (_, e) in &seen {
        if let GameEvent::Damaged {
            target, hp_after, ..
        } = e
            && !["odo", "wenna", "pell", "quill"].contains(&target.as_str())
        {
            assert_eq!(*hp_after, None, "monster hp leaked to a spectator");
        }
    }
    server.stop().await;
    Ok(())
}

/// basic-fantasy-adventures.txt (issue 6: "a Basic Fantasy exploration session of several turns
/// with a stuck door, a secret search seen only by the GM, a wandering-monster check, and a
/// torch burning out"), over real sockets: § Light (a torch, 1d4+4 turns), § Doors (a stuck
/// door, 1d6 plus STR, forced in the open: everyone sees its die), § Secret Doors; ose-adventuring.txt § Sequence of Play Per Turn and
/// § Wandering Monsters. The GM's socket sees every roll; the player's (JSON) and the
/// spectator's (bincode) see that the secret rolls were made, the turns pass and the torch burn
/// out — never a secret roll or result. Players may not pass turns.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_basic_fantasy_exploration_session_over_real_sockets() -> Result<()> {
    use fray_protocol::ose::{LightSource, SecretCheck};
    let server = TestServer::start().await?;
    let created = create_session(server.addr, "the-sunken-door", 3).await?;
    let url = server.ws_url();
    let tok = |p: &str| {
        created["tokens"][p]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let player = created["tokens"]["players"][0]["token"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let (mut gm, _, state) = join(&url, &tok("gm"), Encoding::Json).await?;
    assert_eq!(state.ruleset, "basic-fantasy");
    let (mut alice, _, _) = join(&url, &player, Encoding::Json).await?;
    let (mut spectator, _, _) = join(&url, &tok("spectator"), Encoding::Bincode).await?;
    assert_eq!(
        command(
            &mut alice,
            1,
            Command::Bx(BxCommand::ExplorationTurn {
                wandering: Some(1),
                rest: false
            })
        )
        .await?
        .map_err(|e| e.0),
        Err(ErrorCode::GmOnly)
    );
    let mut id = 0;
    let mut cmds = vec![
        Command::Bx(BxCommand::LightSource {
            carrier: CombatantId::new("odo"),
            source: LightSource::Torch,
        }),
        Command::Bx(BxCommand::SecretRoll {
            check: SecretCheck::StuckDoor,
            combatant: Some(CombatantId::new("odo")),
            chance: 1,
            area: None,
        }),
        Command::Bx(BxCommand::SecretRoll {
            check: SecretCheck::SecretDoor,
            combatant: Some(CombatantId::new("pell")),
            chance: 2,
            area: None,
        }),
    ];
    for _ in 0..9 {
        cmds.push(Command::Bx(BxCommand::ExplorationTurn {
            wandering: Some(1),
            rest: false,
        }));
    }
    for cmd in cmds {
        id += 1;
        gm.send(&ClientMessage::Command { id, command: cmd })
            .await?;
    }
    let burned = |m: &ServerMessage| {
        matches!(
            m,
            ServerMessage::Event {
                event: GameEvent::Bx(BxEvent::LightBurnedOut { .. }),
                ..
            }
        )
    };
    // Everyone reads the session up to the torch burning out (a torch lasts 8 turns at most).
    for (who, c) in [
        ("gm", &mut gm),
        ("player", &mut alice),
        ("spectator", &mut spectator),
    ] {
        let mut secrets = 0;
        let mut doors = 0;
        let mut turns = 0;
        loop {
            let m = recv(c).await?;
            assert!(!matches!(m, ServerMessage::Rejected { .. }), "{who}: {m:?}");
            if let ServerMessage::Event { event, .. } = &m {
                match event {
                    GameEvent::SecretRolled {
                        roll,
                        success,
                        distance,
                        ..
                    } => {
                        secrets += 1;
                        // A wandering monster's distance is the GM's alone too.
                        assert!(who == "gm" || distance.is_none(), "{who}: {event:?}");
                        assert_eq!(
                            roll.is_some() && success.is_some(),
                            who == "gm",
                            "{who}: {event:?}"
                        );
                        assert_eq!(roll.is_none() && success.is_none(), who != "gm");
                    }
                    // The stuck door is forced in the open (OSE § Stuck Doors, Basic Fantasy
                    // § Doors): everyone sees the die.
                    GameEvent::Bx(BxEvent::DoorForced { chance, .. }) => {
                        doors += 1;
                        assert_eq!(*chance, 3, "{who}: Odo's STR +2");
                    }
                    GameEvent::Bx(BxEvent::ExplorationTurnPassed { .. }) => turns += 1,
                    _ => {}
                }
            }
            if burned(&m) {
                break;
            }
        }
        // The secret-door search and one wandering check per turn so far; the door in the open.
        assert!(turns >= 5, "{who}: {turns}");
        assert_eq!(secrets, 1 + turns, "{who}");
        assert_eq!(doors, 1, "{who}");
    }
    let state = snapshot(&mut alice).await?;
    assert!(state.ose.is_some_and(|o| o.exploration.turn == 9));
    server.stop().await;
    Ok(())
}

/// basic-fantasy-adventures.txt § Overland Travel (a second day of forced march: saves and
/// 1d6), § Dungeon Survival (a day without water: 1d4), § Becoming Lost (the leader's secret
/// save), over real sockets: the GM passes two days; everyone sees the days pass and the damage,
/// only the GM's socket sees the lost check's roll and result; a player may not pass a day.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_basic_fantasy_day_of_travel_over_real_sockets() -> Result<()> {
    use fray_protocol::bf::{March, Terrain};
    use fray_protocol::ose::SecretCheck;
    let server = TestServer::start().await?;
    let created = create_session(server.addr, "the-sunken-door", 5).await?;
    let url = server.ws_url();
    let tok = |p: &str| {
        created["tokens"][p]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let player = created["tokens"]["players"][0]["token"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let (mut gm, _, _) = join(&url, &tok("gm"), Encoding::Json).await?;
    let (mut alice, _, _) = join(&url, &player, Encoding::Json).await?;
    let (mut spectator, _, _) = join(&url, &tok("spectator"), Encoding::Bincode).await?;
    let day = |leader: bool| {
        Command::Bx(BxCommand::PassDay {
            march: March::Forced,
            terrain: Terrain::Forest,
            unfed: Vec::new(),
            no_water: vec![CombatantId::new("quill")],
            leader: leader.then(|| CombatantId::new("odo")),
            water: None,
        })
    };
    assert_eq!(
        command(&mut alice, 1, day(false)).await?.map_err(|e| e.0),
        Err(ErrorCode::GmOnly)
    );
    for (id, leader) in [(1, false), (2, true)] {
        gm.send(&ClientMessage::Command {
            id,
            command: day(leader),
        })
        .await?;
    }
    for (who, c) in [
        ("gm", &mut gm),
        ("player", &mut alice),
        ("spectator", &mut spectator),
    ] {
        let (mut days, mut thirst, mut saves) = (0, 0, 0);
        loop {
            let m = recv(c).await?;
            assert!(!matches!(m, ServerMessage::Rejected { .. }), "{who}: {m:?}");
            let ServerMessage::Event { event, .. } = &m else {
                continue;
            };
            match event {
                GameEvent::Bx(BxEvent::DayPassed { miles, rate, .. }) => {
                    days += 1;
                    // Forest ×2/3 and a forced march ×1.5 of the slowest member's rate
                    // (10′ per round: 6 miles a day).
                    assert_eq!(i64::from(*miles), i64::from(*rate) * 6 / 10, "{who}");
                }
                GameEvent::CheckRolled { purpose, .. } if purpose.contains("forced march") => {
                    saves += 1
                }
                GameEvent::Damaged {
                    cause: fray_protocol::event::DamageCause::Hazard { purpose, .. },
                    target,
                    ..
                } if purpose == "thirst" => {
                    assert_eq!(target.as_str(), "quill");
                    thirst += 1;
                }
                GameEvent::SecretRolled {
                    check: SecretCheck::LostDirection,
                    roll,
                    success,
                    ..
                } => {
                    assert_eq!(roll.is_some() && success.is_some(), who == "gm", "{who}");
                    assert_eq!(roll.is_none() && success.is_none(), who != "gm", "{who}");
                    break;
                }
                _ => {}
            }
        }
        assert_eq!((days, thirst, saves), (2, 2, 4), "{who}");
    }
    let state = snapshot(&mut alice).await?;
    assert!(
        state
            .ose
            .is_some_and(|o| o.bf.day == 2 && o.bf.forced_days == 2)
    );
    server.stop().await;
    Ok(())
}

/// basic-fantasy-adventures.txt § Waterborne Travel and ose-adventuring.txt § Drowning and
/// § Healing, Magical over real sockets: the GM's `sail` (a player is refused with `gm_only`)
/// rolls the wind, sails and passes a day on the water; a potion heals with its roll; the GM's
/// `drowning_check` rolls its d%; the player (JSON) and the
/// spectator (bincode) see every event, and the day is counted in the player's snapshot.
#[tokio::test]
async fn a_basic_fantasy_day_at_sea_and_a_drowning_check_over_real_sockets() -> Result<()> {
    use fray_protocol::bf::March;
    let server = TestServer::start().await?;
    let created = create_session(server.addr, "the-sunken-door", 5).await?;
    let url = server.ws_url();
    let tok = |p: &str| {
        created["tokens"][p]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let player = created["tokens"]["players"][0]["token"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let (mut gm, _, _) = join(&url, &tok("gm"), Encoding::Json).await?;
    let (mut alice, _, _) = join(&url, &player, Encoding::Json).await?;
    let (mut spectator, _, _) = join(&url, &tok("spectator"), Encoding::Bincode).await?;
    let sail = Command::Bx(BxCommand::Sail {
        sailing_miles: 72,
        rowing_miles: 18,
        navigator: true,
        stops_at_night: false,
        against_wind: false,
        unfed: Vec::new(),
        no_water: Vec::new(),
    });
    assert_eq!(
        command(&mut alice, 1, sail.clone()).await?.map_err(|e| e.0),
        Err(ErrorCode::GmOnly)
    );
    command(&mut gm, 1, sail)
        .await?
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let cure = Command::Bx(BxCommand::MagicalHealing {
        target: CombatantId::new("quill"),
        dice: "1d6+1".into(),
        source: "potion of healing".into(),
    });
    command(&mut gm, 2, cure)
        .await?
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let drown = Command::Bx(BxCommand::DrowningCheck {
        combatant: CombatantId::new("quill"),
        chance: 1,
    });
    command(&mut gm, 3, drown)
        .await?
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    for (who, c) in [("player", &mut alice), ("spectator", &mut spectator)] {
        let (mut sailed, mut day_miles, mut healed) = (None, None, false);
        loop {
            let m = recv(c).await?;
            let ServerMessage::Event { event, .. } = &m else {
                continue;
            };
            match event {
                GameEvent::Bx(BxEvent::Sailed { miles, .. }) => sailed = Some(*miles),
                GameEvent::Bx(BxEvent::DayPassed {
                    march: March::Water,
                    miles,
                    ..
                }) => day_miles = Some(*miles),
                GameEvent::Healed { target, roll, .. } if target.as_str() == "quill" => {
                    healed = roll.as_ref().is_some_and(|r| r.expr.ends_with("d6+1"));
                }
                GameEvent::Bx(BxEvent::DrowningRolled {
                    combatant, chance, ..
                }) => {
                    assert_eq!((combatant.as_str(), *chance), ("quill", 1), "{who}");
                    break;
                }
                _ => {}
            }
        }
        assert!(
            sailed.is_some() && sailed == day_miles,
            "{who}: {sailed:?} {day_miles:?}"
        );
        assert!(healed, "{who}: the potion's roll");
    }
    let state = snapshot(&mut alice).await?;
    assert!(state.ose.is_some_and(|o| o.bf.day == 1));
    server.stop().await;
    Ok(())
}

/// ose-adventuring.txt § Encounter Distance, § Other Combat Issues (conditions), § Falling and
/// § Ability Checks over real sockets: GM-only commands (a player is refused with `gm_only`),
/// their events reach the player's socket, and the player's snapshot shows the condition.
#[tokio::test]
async fn old_school_essentials_hazards_and_conditions_over_real_sockets() -> Result<()> {
    use fray_protocol::ose::{EncounterSetting, OseAbility, OseCondition};
    let server = TestServer::start().await?;
    let created = create_session(server.addr, "barrow-of-the-hollow-king", 4).await?;
    let url = server.ws_url();
    let gm_tok = created["tokens"]["gm"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let player = created["tokens"]["players"][0]["token"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let (mut gm, _, _) = join(&url, &gm_tok, Encoding::Json).await?;
    let (mut alice, _, _) = join(&url, &player, Encoding::Bincode).await?;
    let quill = CombatantId::new("quill");
    let blind = Command::Bx(BxCommand::OseCondition {
        combatant: quill.clone(),
        condition: OseCondition::Blind,
        on: true,
    });
    assert_eq!(
        command(&mut alice, 1, blind.clone())
            .await?
            .map_err(|e| e.0),
        Err(ErrorCode::GmOnly)
    );
    let cmds = [
        Command::Bx(BxCommand::RollEncounterDistance {
            setting: EncounterSetting::Dungeon,
            surprised: false,
        }),
        blind,
        Command::Bx(BxCommand::AbilityCheck {
            combatant: quill.clone(),
            ability: OseAbility::Dex,
            modifier: 0,
        }),
        Command::Bx(BxCommand::Fall {
            combatant: quill.clone(),
            feet: 10,
        }),
    ];
    for (i, c) in cmds.into_iter().enumerate() {
        let id = 10 + i as u64;
        if let Err(e) = command(&mut gm, id, c).await? {
            bail!("refused: {e:?}");
        }
    }
    let ServerMessage::Event { event, .. } = until(&mut alice, |m| {
        matches!(
            m,
            ServerMessage::Event {
                event: GameEvent::Bx(BxEvent::EncounterDistanceRolled { .. }),
                ..
            }
        )
    })
    .await?
    else {
        bail!("no event")
    };
    let GameEvent::Bx(BxEvent::EncounterDistanceRolled { roll, distance, .. }) = event else {
        bail!("{event:?}")
    };
    assert_eq!(distance as i32, roll.total * 10);
    until(&mut alice, |m| {
        matches!(
            m,
            ServerMessage::Event {
                event: GameEvent::CheckRolled { .. },
                ..
            }
        )
    })
    .await?;
    until(&mut alice, |m| {
        matches!(
            m,
            ServerMessage::Event {
                event: GameEvent::Damaged { .. },
                ..
            }
        )
    })
    .await?;
    let state = snapshot(&mut alice).await?;
    let q = state.combatant(&quill).ok_or_else(|| anyhow!("no quill"))?;
    assert_eq!(
        q.ose.as_ref().map(|o| o.conditions.clone()),
        Some(vec![OseCondition::Blind])
    );
    Ok(())
}

/// An Orcus pillar room: from brute-1 at (0,3) the pillar at (2,2) gives Kael, once at (4,1),
/// three-quarters cover; (6,3) is in the open.
const HIDING_ROOM: &str = r#"
ruleset = "orcus"
heroes = ["kael"]
[[monsters]]
template = "brute"
count = 1
[map]
rows = [".......", ".......", "..#....", ".......", "......."]
[positions]
kael = [6, 1]
brute-1 = [0, 3]
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
skills = { stealth = 40 }
[[hero.powers]]
id = "sword"
name = "Sword"
origin = "melee"
vs = "ac"
bonus = 5
hit = "1d8+2"
basic = true
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

/// orcus-basic-rules.txt § Stealth over real sockets, in the protocol README's JSON: Kael hides
/// at the end of a move (`move_to` with `hide`, `hide_checked`), a hide in the open is refused
/// (`no_cover`), brute-1 searches once per turn (`searched`, then `already_searched`) and the
/// GM reveals Kael (`discovered`, reason `revealed`); the snapshots carry `grid.hidden_from`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn orcus_hiding_searching_and_revealing_over_real_sockets_stealth() -> Result<()> {
    use fray_protocol::event::DiscoveryReason;
    use fray_protocol::grid::{MoveMode, Square};
    let server = TestServer::start().await?;
    let created = fray_server::demo::client::create_session(
        server.addr,
        fray_tests::ADMIN_KEY,
        "hide.toml",
        HIDING_ROOM,
        Some(3),
    )
    .await?;
    let tok = |p: &str| {
        created["tokens"][p]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let url = server.ws_url();
    let (mut gm, _, _) = join(&url, &tok("gm"), Encoding::Json).await?;
    let (mut spectator, _, _) = join(&url, &tok("spectator"), Encoding::Json).await?;
    let (kael, brute) = (CombatantId::new("kael"), CombatantId::new("brute-1"));
    let walk = |path: &[(i32, i32)], hide: bool| {
        Command::Orcus(OrcusCommand::MoveTo {
            actor: CombatantId::new("kael"),
            path: path.iter().map(|(x, y)| Square::new(*x, *y)).collect(),
            mode: MoveMode::Walk,
            hide,
        })
    };
    let event = |m: &ServerMessage, f: &dyn Fn(&GameEvent) -> bool| matches!(m, ServerMessage::Event { event, .. } if f(event));
    assert_eq!(command(&mut gm, 1, Command::StartBattle).await?, Ok(()));
    assert_eq!(
        command(&mut gm, 2, walk(&[(5, 1), (4, 1)], true)).await?,
        Ok(())
    );
    let m = until(&mut spectator, |m| {
        event(m, &|e| {
            matches!(e, GameEvent::Orcus(OrcusEvent::HideChecked { .. }))
        })
    })
    .await?;
    let ServerMessage::Event {
        event:
            GameEvent::Orcus(OrcusEvent::HideChecked {
                hidden_from, total, ..
            }),
        ..
    } = m
    else {
        bail!("expected hide_checked")
    };
    assert_eq!(hidden_from, vec![brute.clone()]);
    let grid = |s: &SessionState| s.combatant(&kael).and_then(|c| c.grid.clone());
    let g = grid(&snapshot(&mut gm).await?).ok_or_else(|| anyhow!("no grid"))?;
    assert_eq!(
        (g.hidden_from, g.stealth),
        (vec![brute.clone()], Some(total))
    );
    // Hiding in the open is refused, and Kael stays where he is.
    let refused = command(&mut gm, 3, walk(&[(5, 2), (6, 3)], true)).await?;
    assert_eq!(refused.map_err(|(c, _)| c), Err(ErrorCode::NoCover));
    let end = Command::EndTurn {
        actor: kael.clone(),
    };
    assert_eq!(command(&mut gm, 4, end).await?, Ok(()));
    let search = Command::Orcus(OrcusCommand::Search {
        actor: brute.clone(),
    });
    assert_eq!(command(&mut gm, 5, search.clone()).await?, Ok(()));
    until(&mut spectator, |m| {
        event(
            m,
            &|e| matches!(e, GameEvent::Orcus(OrcusEvent::Searched { found, .. }) if found.is_empty()),
        )
    })
    .await?;
    let again = command(&mut gm, 6, search).await?;
    assert_eq!(again.map_err(|(c, _)| c), Err(ErrorCode::AlreadySearched));
    let reveal = Command::Reveal {
        combatant: kael.clone(),
    };
    assert_eq!(command(&mut gm, 7, reveal).await?, Ok(()));
    until(&mut spectator, |m| {
        event(m, &|e| {
            matches!(
                e,
                GameEvent::Orcus(OrcusEvent::Discovered {
                    reason: DiscoveryReason::Revealed,
                    ..
                })
            )
        })
    })
    .await?;
    let g = grid(&snapshot(&mut gm).await?).ok_or_else(|| anyhow!("no grid"))?;
    assert!(g.hidden_from.is_empty() && g.stealth.is_none());
    assert_eq!(g.square, Square::new(4, 1));
    server.stop().await;
    Ok(())
}

/// orcus-basic-rules.txt § Experience Points over real sockets: the GM's `orcus_award_xp` (a
/// player is refused with `gm_only`) reaches the player (bincode) with its shares, and the
/// player's snapshot holds the hero's experience and the monster counted.
#[tokio::test]
async fn orcus_experience_over_real_sockets() -> Result<()> {
    use fray_protocol::OrcusCommand;
    use fray_protocol::OrcusEvent;
    let server = TestServer::start().await?;
    let created = create_session(server.addr, "bridge-of-bones", 5).await?;
    let url = server.ws_url();
    let gm_tok = created["tokens"]["gm"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let player = created["tokens"]["players"][0]["token"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let (mut gm, _, _) = join(&url, &gm_tok, Encoding::Json).await?;
    let (mut alice, _, _) = join(&url, &player, Encoding::Bincode).await?;
    let award = Command::Orcus(OrcusCommand::OrcusAwardXp {
        monsters: vec![CombatantId::new("bone-rattler-1")],
        bonus: 20,
        party: vec![CombatantId::new("brenna"), CombatantId::new("tamsin")],
    });
    assert_eq!(
        command(&mut alice, 1, award.clone())
            .await?
            .map_err(|e| e.0),
        Err(ErrorCode::GmOnly)
    );
    command(&mut gm, 1, award)
        .await?
        .map_err(|e| anyhow!("{e:?}"))?;
    let m = until(&mut alice, |m| {
        matches!(
            m,
            ServerMessage::Event {
                event: GameEvent::Orcus(OrcusEvent::OrcusXpAwarded { .. }),
                ..
            }
        )
    })
    .await?;
    let ServerMessage::Event {
        event: GameEvent::Orcus(OrcusEvent::OrcusXpAwarded { total, share, .. }),
        ..
    } = m
    else {
        bail!("{m:?}")
    };
    assert_eq!(share, total / 2);
    let state = snapshot(&mut alice).await?;
    let grid = |id: &str| {
        state
            .combatant(&CombatantId::new(id))
            .and_then(|c| c.grid.clone())
    };
    assert_eq!(grid("brenna").map(|g| g.xp), Some(share));
    assert_eq!(grid("bone-rattler-1").map(|g| g.xp_awarded), Some(true));
    server.stop().await;
    Ok(())
}
