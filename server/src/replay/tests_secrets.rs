//! The secret stream (`dice::rng`, "The secret stream"): the referee's secret rolls cannot be
//! regenerated from the revealed seed, resume exactly from the log, are never in the public
//! export, and `verify` checks their commitment. ose-adventuring.txt § Listening at Doors
//! ("Referee rolls: The referee should always roll for the character listening"), § Searching
//! ("Referee rolls"), § Wandering Monsters.

use super::*;
use crate::dice::{DiceExpr, Placeholders, roll_die};
use crate::log::{FsStorage, MemStorage, Storage};
use crate::rules::{builtin_encounters, load_encounter};
use crate::session::{Secrets, Session, SessionConfig};
use fray_protocol::BxCommand;
use fray_protocol::Command;
use fray_protocol::ids::SessionId;
use fray_protocol::ose::SecretCheck;
use fray_protocol::roll::Roll;

const SEED: u64 = 7;
const SECRET_SEED: u64 = 0xdead_beef_1234_5678;
const SECRET_SALT: [u8; 16] = *b"secret-salt-0042";

fn secrets(secret_seed: u64) -> Secrets {
    Secrets {
        seed: SEED,
        salt: [3; 16],
        gm: "g".into(),
        spectator: "s".into(),
        players: vec!["a".into(), "b".into()],
        secret_seed,
        secret_salt: SECRET_SALT,
    }
}

fn ose_session(
    storage: impl Storage + 'static,
    secret_seed: u64,
    config: SessionConfig,
) -> Session {
    let (name, text) = builtin_encounters("ose")[0];
    let enc = load_encounter(name, text).unwrap();
    Session::create_with(
        storage,
        SessionId("secret".into()),
        enc,
        secrets(secret_seed),
        false,
        config,
    )
    .unwrap()
}

fn send(s: &mut Session, c: &Command) -> Vec<GameEvent> {
    let staged = s.stage("gm", s.tick() + 1, c).unwrap();
    s.commit().unwrap();
    staged.events.into_iter().map(|e| e.event).collect()
}

fn listen() -> Command {
    Command::Bx(BxCommand::SecretRoll {
        check: SecretCheck::Listen,
        combatant: None,
        chance: 2,
        area: None,
    })
}

fn wandering() -> Command {
    Command::Bx(BxCommand::SecretRoll {
        check: SecretCheck::WanderingMonster,
        combatant: None,
        chance: 3,
        area: None,
    })
}

/// Every secret roll of the events: the d6 and the distance, if any.
fn secret_rolls(events: &[GameEvent]) -> Vec<(Roll, Option<Roll>)> {
    events
        .iter()
        .filter_map(|e| match e {
            GameEvent::SecretRolled {
                roll: Some(roll),
                distance,
                ..
            } => Some((roll.clone(), distance.clone())),
            _ => None,
        })
        .collect()
}

/// Twelve listens and twelve wandering checks (some with their 2d6 distance), made in `setup`.
fn roll_secretly(s: &mut Session) -> Vec<GameEvent> {
    let mut all = Vec::new();
    for _ in 0..12 {
        all.extend(send(s, &listen()));
    }
    for _ in 0..12 {
        all.extend(send(s, &wandering()));
    }
    all
}

/// ose-adventuring.txt § Listening at Doors, § Wandering Monsters ("Referee rolls"): every die of a
/// secret roll — the d6 and a wandering monster's 2d6 distance — comes from the secret stream of
/// the genesis's secret seed, none from the main stream: after them the main RNG has drawn
/// nothing, the faces are not those the revealed seed's stream would give, and the fight after
/// them draws the same main-stream dice as a twin session that made no secret roll. So the seed
/// revealed at the end regenerates the public dice and nothing of the secret ones.
#[test]
fn secret_rolls_cannot_be_regenerated_from_the_revealed_seed_listening_at_doors() {
    let mut a = ose_session(MemStorage::new(), SECRET_SEED, SessionConfig::default());
    let events = roll_secretly(&mut a);
    assert_eq!(
        a.engine().rng().draws(),
        0,
        "no secret die from the main stream"
    );
    assert!(a.engine().secret_draws() >= 24);
    // The recorded rolls are the secret stream's, in order.
    let mut stream = SessionRng::from_secret_seed(SECRET_SEED);
    let recorded = secret_rolls(&events);
    assert_eq!(recorded.len(), 24);
    for (roll, distance) in &recorded {
        assert_eq!(*roll, roll_die(&mut stream, 6));
        if let Some(d) = distance {
            let again = DiceExpr::parse("2d6")
                .unwrap()
                .roll(&mut stream, &Placeholders::default())
                .unwrap();
            assert_eq!(*d, again);
        }
    }
    assert!(
        recorded.iter().any(|(_, d)| d.is_some()),
        "a wandering monster came (its distance is secret too)"
    );
    assert_eq!(stream.draws(), a.engine().secret_draws());
    // The revealed seed's stream does not give them.
    let mut main = SessionRng::from_seed(SEED);
    let from_main: Vec<Roll> = (0..24).map(|_| roll_die(&mut main, 6)).collect();
    let faces: Vec<Roll> = recorded.iter().map(|(r, _)| r.clone()).collect();
    assert_ne!(faces, from_main);
    // The fight and its public dice are those of a session that made no secret roll.
    let mut twin = ose_session(MemStorage::new(), 1, SessionConfig::default());
    for c in [Command::StartBattle, Command::EndBattle] {
        assert_eq!(send(&mut a, &c), send(&mut twin, &c));
    }
    assert_eq!(a.engine().rng().draws(), twin.engine().rng().draws());
    let revealed = a
        .events_after(0)
        .unwrap()
        .into_iter()
        .find_map(|e| match e.event {
            GameEvent::SeedRevealed { seed, .. } => Some(seed),
            _ => None,
        });
    assert_eq!(revealed, Some(SEED));
}

/// ose-adventuring.txt § Searching ("Referee rolls"): with the secret stream the revealed seed no
/// longer gives a secret roll away, so the GM may still roll in secret after the battle (the
/// party searching the room after the fight); the roll draws from the secret stream only.
#[test]
fn secret_rolls_are_allowed_after_the_battle_searching() {
    let mut a = ose_session(MemStorage::new(), SECRET_SEED, SessionConfig::default());
    send(&mut a, &Command::StartBattle);
    send(&mut a, &Command::EndBattle);
    assert!(a.state().seed_revealed);
    let main = a.engine().rng().draws();
    let secret = a.engine().secret_draws();
    let events = send(
        &mut a,
        &Command::Bx(BxCommand::SecretRoll {
            check: SecretCheck::SecretDoor,
            combatant: None,
            chance: 1,
            area: Some("hall".into()),
        }),
    );
    assert_eq!(secret_rolls(&events).len(), 1);
    assert_eq!(a.engine().rng().draws(), main);
    assert!(a.engine().secret_draws() > secret);
}

/// ose-adventuring.txt § Wandering Monsters: a session reopened from its log mid-session (from
/// the events, and from a snapshot) resumes the secret stream where it stopped, so its later
/// secret rolls, its main dice and its state hashes are the live session's.
#[test]
fn reopening_resumes_the_secret_stream_wandering_monsters() {
    for snapshot_every in [4096, 1] {
        let config = SessionConfig {
            snapshot_every,
            ..SessionConfig::default()
        };
        let storage = MemStorage::new();
        let mut live = ose_session(storage.clone(), SECRET_SEED, config.clone());
        let mut copy = ose_session(MemStorage::new(), SECRET_SEED, config.clone());
        for s in [&mut live, &mut copy] {
            roll_secretly(s);
        }
        let draws = live.engine().secret_draws();
        drop(live);
        let (mut reopened, _) = Session::open(storage, config).unwrap();
        assert_eq!(reopened.engine().secret_draws(), draws);
        assert_eq!(reopened.engine().rng().draws(), 0);
        let later = roll_secretly(&mut reopened);
        assert_eq!(
            later,
            roll_secretly(&mut copy),
            "snapshot_every {snapshot_every}"
        );
        assert_eq!(
            reopened.engine().secret_draws(),
            copy.engine().secret_draws()
        );
        assert_eq!(reopened.state_hash(), copy.state_hash());
    }
}

/// A finished session's log on disk, with secret rolls before and after the battle.
fn finished_log(dir: &std::path::Path) -> RecordedFight {
    let mut s = ose_session(
        FsStorage::open(dir).unwrap(),
        SECRET_SEED,
        SessionConfig::default(),
    );
    roll_secretly(&mut s);
    send(&mut s, &Command::StartBattle);
    send(&mut s, &Command::EndBattle);
    send(&mut s, &listen());
    s.flush().unwrap();
    drop(s);
    read_log(dir).unwrap()
}

/// ose-adventuring.txt § Listening at Doors ("so that the player never knows if the roll
/// failed"): the public export after the end holds the revealed seed and the secret stream's
/// commitment, never its seed or salt, and no secret roll's die or result.
#[test]
fn the_public_export_keeps_secret_rolls_secret_after_the_end_listening_at_doors() {
    let dir = tempfile::tempdir().unwrap();
    let fight = finished_log(dir.path());
    assert_eq!(fight.revealed().map(|(seed, _)| seed), Some(SEED));
    let text = log_lines::write(&fight, Audience::Public).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let commitment = hex::encode(crate::dice::commitment(SECRET_SEED, &SECRET_SALT));
    assert_eq!(
        lines[0]["genesis"]["secret_commitment"],
        commitment.as_str()
    );
    assert_eq!(fight.genesis().secret_commitment, commitment);
    assert!(!text.contains(&SECRET_SEED.to_string()), "no secret seed");
    assert!(!text.contains(&hex::encode(SECRET_SALT)), "no secret salt");
    assert!(!text.contains("secret_seed") && !text.contains("secret_salt"));
    let secret_events: Vec<&serde_json::Value> = lines
        .iter()
        .filter_map(|l| l["events"]["events"].as_array())
        .flatten()
        .filter_map(|e| e.get("secret_rolled"))
        .collect();
    assert_eq!(secret_events.len(), 25);
    for e in secret_events {
        assert!(e["roll"].is_null() && e["success"].is_null() && e["distance"].is_null());
    }
    // The draw count of the secret stream is not published (it would tell how many secret dice
    // were rolled).
    assert!(
        lines
            .iter()
            .filter_map(|l| l["events"]["secret_draws"].as_u64())
            .all(|n| n == 0)
    );
    // And the public log verifies without the secret seed.
    let public = log_lines::read(&text).unwrap();
    let report = verify(&public).unwrap();
    assert_eq!(report.audience, Audience::Public);
    assert!(report.commitment_checked && !report.secret_commitment_checked);
    assert_eq!(report.secret_rolls, 25);
}

/// Fray's fairness check: `verify` on the full log checks the genesis's secret seed and salt
/// against `secret_commitment` and re-decides the secret rolls from that seed; a changed secret
/// seed, commitment or recorded secret roll is found.
#[test]
fn verify_checks_the_secret_commitment_and_the_secret_rolls_tampering() {
    let dir = tempfile::tempdir().unwrap();
    let fight = finished_log(dir.path());
    let report = verify(&fight).unwrap();
    assert!(report.commitment_checked && report.secret_commitment_checked);

    // Another secret seed under the published commitment.
    let mut forged = fight.clone();
    forged.genesis.secret_seed ^= 1;
    assert!(matches!(verify(&forged), Err(ReplayError::Fairness(_))));
    // Another commitment.
    let mut forged = fight.clone();
    forged.genesis.secret_commitment = hex::encode([0u8; 32]);
    assert!(matches!(verify(&forged), Err(ReplayError::Fairness(_))));
    // Another secret seed with a commitment recomputed to match: the secret rolls differ.
    let mut forged = fight.clone();
    forged.genesis.secret_seed = 1;
    forged.genesis.secret_commitment = hex::encode(crate::dice::commitment(1, &SECRET_SALT));
    assert!(matches!(
        verify(&forged),
        Err(ReplayError::EventMismatch { .. })
    ));
    // A recorded secret roll changed.
    let mut forged = fight.clone();
    let changed = forged.records.iter_mut().any(|r| match r {
        Record::Events { events, .. } => events.iter_mut().any(|e| match e {
            GameEvent::SecretRolled {
                success: Some(s), ..
            } => {
                *s = !*s;
                true
            }
            _ => false,
        }),
        _ => false,
    });
    assert!(changed);
    assert!(matches!(
        verify(&forged),
        Err(ReplayError::EventMismatch { .. })
    ));
}

/// ose-adventuring.txt § Listening at Doors ("Referee rolls"): an engine built without a secret
/// stream (`Engine::new` alone; a session's always has one) refuses a secret roll, drawing
/// nothing, rather than draw it from the main stream, whose seed is revealed.
#[test]
fn an_engine_without_a_secret_stream_refuses_secret_rolls_listening_at_doors() {
    let (name, text) = builtin_encounters("ose")[0];
    let enc = load_encounter(name, text).unwrap();
    let mut e = Engine::new(
        &enc,
        SessionRng::from_seed(SEED),
        crate::ecs::components::SeedSecret {
            seed: SEED,
            salt: "00".repeat(16),
        },
    )
    .unwrap();
    assert!(e.secret_rng().is_none());
    let r = crate::rules::common::testing::refusal(&mut e, &listen());
    assert_eq!(r.code, fray_protocol::ErrorCode::InvalidArgument);
    assert!(r.message.contains("no secret stream"), "{r}");
    assert_eq!(e.rng().draws(), 0);
}
