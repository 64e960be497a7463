//! Records the golden fights in `replays/<ruleset>/` (run from the repository root:
//! `cargo run -p fray-tests --bin record-replays`). Each fight is played in process by the demo
//! bots' policy with fixed secrets, so re-recording without a rule change reproduces the same
//! bytes. Re-record only deliberately: the replays test verifies them byte for byte.
//! `--search RULESET ENCOUNTER N` prints what each of the first N seeds exercises (to pick
//! seeds).

use anyhow::{Context, Result};
use fray_protocol::GameEvent;
use fray_protocol::event::{EffectKind, SavePurpose};
use fray_protocol::ids::SessionId;
use fray_protocol::{BxEvent, FiveTorchesEvent, OrcusEvent, ThirteenthAgeEvent};
use fray_server::log::FsStorage;
use fray_server::rules::{builtin_encounters, load_encounter};
use fray_server::session::{Secrets, Session, SessionConfig};
use fray_tests::play_in_process;
use std::collections::BTreeSet;
use std::path::Path;

/// (ruleset, directory name, built-in encounter, seed).
/// Between them these exercise every 13th Age condition, ongoing damage and saves, flexible
/// maneuvers, opportunity attacks, disengaging, rallies, death saves, stabilizing and coups de
/// grace, a magic item's save bonus, and a session of two battles with quick rests between
/// them (checked by
/// `tests/tests/replays.rs`).
/// The Orcus fights exercise the grid: walking into opportunity attacks, flanking, area powers,
/// persistent damage, saves with aftereffects, action points and death saves; `two-crossings`
/// is a session of two battles with short rests between them, the session clock and the
/// action point gained after the second encounter.
const FIGHTS: &[(&str, &str, &str, u64)] = &[
    ("13th-age", "goblin-ambush-seed-111", "goblin-ambush", 111),
    ("13th-age", "crypt-of-ash-seed-0", "crypt-of-ash", 0),
    ("13th-age", "crypt-of-ash-seed-4", "crypt-of-ash", 4),
    ("13th-age", "mire-of-whispers-seed-0", "mire-of-whispers", 0),
    ("13th-age", "goblin-gauntlet-seed-0", "goblin-gauntlet", 0),
    ("orcus", "bridge-of-bones-seed-5", "bridge-of-bones", 5),
    ("orcus", "bridge-of-bones-seed-7", "bridge-of-bones", 7),
    ("orcus", "bridge-of-bones-seed-13", "bridge-of-bones", 13),
    ("orcus", "two-crossings-seed-3", "two-crossings", 3),
];

/// What a fight exercised: mechanics and conditions, by name.
fn coverage(session: &Session) -> Result<BTreeSet<String>> {
    let mut seen = BTreeSet::new();
    for e in session.events_after(0)? {
        let tag = match e.event {
            GameEvent::EffectApplied { effect } => match effect.kind {
                EffectKind::Condition(c) => format!("{c:?}").to_lowercase(),
                EffectKind::OngoingDamage { .. } => "ongoing".into(),
                EffectKind::Bonus { .. } => "bonus".into(),
            },
            GameEvent::ThirteenthAge(ThirteenthAgeEvent::ManeuverTriggered { .. }) => {
                "flexible".into()
            }
            GameEvent::SaveRolled { ref roll, .. } if roll.modifier != 0 => "save-bonus".into(),
            GameEvent::SaveRolled {
                purpose: SavePurpose::Effect(_),
                success: true,
                ..
            } => "save-ends".into(),
            GameEvent::SaveRolled {
                purpose: SavePurpose::Disengage,
                ..
            } => "disengage".into(),
            GameEvent::SaveRolled {
                purpose: SavePurpose::Death,
                ..
            } => "death-save".into(),
            GameEvent::OpportunityTaken { .. } => "opportunity".into(),
            GameEvent::Rallied { .. } => "rally".into(),
            GameEvent::CoupDeGrace { .. } => "coup-de-grace".into(),
            GameEvent::Stabilized { .. } => "stabilize".into(),
            GameEvent::ThirteenthAge(ThirteenthAgeEvent::Resisted { .. }) => "resisted".into(),
            GameEvent::PowerExpended { .. } => "expended".into(),
            GameEvent::QuickRested { .. } => "quick-rest".into(),
            GameEvent::NewBattle { .. } => "next-battle".into(),
            GameEvent::Orcus(OrcusEvent::GridMoved { .. }) => "grid-move".into(),
            GameEvent::Orcus(OrcusEvent::ActionPointSpent { .. }) => "action-point".into(),
            GameEvent::Orcus(OrcusEvent::RiderAttached { .. }) => "rider".into(),
            GameEvent::EffectEnded {
                reason: fray_protocol::event::EffectEndReason::Replaced,
                ..
            } => "first-failed-save".into(),
            GameEvent::AttackRolled { ref attack, .. }
                if [
                    "sweeping-cut",
                    "frost-bloom",
                    "rebuke",
                    "smoke-puff",
                    "trample",
                    "dirge",
                ]
                .contains(&attack.as_str()) =>
            {
                "area".into()
            }
            GameEvent::Died { .. } => "died".into(),
            GameEvent::KnockedOut { .. } => "knocked-out".into(),
            GameEvent::AttackRolled {
                outcome: fray_protocol::event::AttackOutcome::Crit,
                ref roll,
                ..
            } if roll.natural().is_some_and(|n| n < 20) => "crit-below-20".into(),
            _ => continue,
        };
        seen.insert(tag);
    }
    Ok(seen)
}

/// [`coverage`] plus, for Orcus, the grid tags of [`fray_tests::orcus_coverage`].
fn all_coverage(session: &Session) -> Result<BTreeSet<String>> {
    let mut seen = coverage(session)?;
    let enc = &session.genesis().encounter;
    if enc.ruleset == "orcus" {
        let events: Vec<GameEvent> = session
            .events_after(0)?
            .into_iter()
            .map(|e| e.event)
            .collect();
        seen.extend(
            fray_tests::orcus_coverage(&fray_tests::orcus_start(enc), &events)
                .into_iter()
                .map(|t| format!("grid:{t}")),
        );
    }
    Ok(seen)
}

/// A new session of a built-in encounter of one of `rulesets`, with the recordings' fixed
/// secrets (so that re-recording reproduces the same bytes).
fn replay_session(
    rulesets: &[&str],
    encounter: &str,
    seed: u64,
    storage: impl fray_server::log::Storage + 'static,
    id: &str,
) -> Result<Session> {
    let (name, text) = rulesets
        .iter()
        .flat_map(|r| builtin_encounters(r).iter())
        .find(|(n, _)| *n == encounter)
        .context("unknown encounter")?;
    Ok(Session::create_with(
        storage,
        SessionId(id.to_owned()),
        load_encounter(name, text)?,
        Secrets {
            seed,
            salt: seed.to_le_bytes().repeat(2).try_into().unwrap_or([0; 16]),
            gm: "replay-gm".into(),
            spectator: "replay-spectator".into(),
            players: vec!["replay-alice".into(), "replay-bob".into()],
            // A fixed secret seed per recording (its genesis holds it; the recording is the GM's).
            secret_seed: !seed,
            secret_salt: (!seed)
                .to_le_bytes()
                .repeat(2)
                .try_into()
                .unwrap_or([0; 16]),
        },
        false,
        SessionConfig {
            snapshot_every: u64::MAX,
            ..SessionConfig::default()
        },
    )?)
}

fn play(
    ruleset: &str,
    encounter: &str,
    seed: u64,
    storage: impl fray_server::log::Storage + 'static,
    id: &str,
) -> Result<Session> {
    let mut session = replay_session(&[ruleset], encounter, seed, storage, id)?;
    play_in_process(&mut session, 10_000)?;
    Ok(session)
}

/// Five Torches Deep fights: (directory name, built-in encounter, seed), played by
/// `play_ftd_in_process` (checked by `tests/tests/replays.rs`).
/// Between them: critical hits, advantage, incapacitation, injuries (one fatal), morale held and
/// broken, a retreat (failed), the dungeon clock before the fight (darkness, a torch burning
/// out in a travel turn, a load over STR), stealth won and lost, a readied attack taken out of
/// turn, a retreat whose follower checks morale, a night's rest after it; on the toll road
/// (a session that goes on after the fight) loot, a hoard, unearned coins, a magic item captured
/// and sold, a day's walk and a boat trip; in the drowned crypt three battles one after another
/// (PCs who escaped or fled one are back for the next).
const FTD_FIGHTS: &[(&str, &str, u64)] = &[
    ("flooded-chapel-seed-11", "flooded-chapel", 11),
    ("flooded-chapel-seed-77", "flooded-chapel", 77),
    ("toll-road-seed-5", "toll-road", 5),
    ("drowned-crypt-seed-1", "drowned-crypt", 1),
];

fn play_ftd(
    encounter: &str,
    seed: u64,
    storage: impl fray_server::log::Storage + 'static,
    id: &str,
) -> Result<Session> {
    let mut session = replay_session(&["five-torches-deep"], encounter, seed, storage, id)?;
    fray_tests::play_ftd_in_process(&mut session, 5_000)?;
    Ok(session)
}

/// What a Five Torches Deep fight exercised.
fn ftd_coverage(session: &Session) -> Result<BTreeSet<String>> {
    use fray_protocol::event::AttackOutcome;
    let mut seen = BTreeSet::new();
    for e in session.events_after(0)? {
        let tag = match e.event {
            GameEvent::AttackRolled {
                outcome: AttackOutcome::Crit,
                ..
            } => "crit".to_owned(),
            GameEvent::FellUnconscious { .. } => "incapacitated".into(),
            GameEvent::FiveTorches(FiveTorchesEvent::InjuryRolled { injury, .. }) => {
                format!("injury {injury:?}")
            }
            GameEvent::FiveTorches(FiveTorchesEvent::MoraleChecked { success, .. }) => {
                format!("morale {success}")
            }
            GameEvent::LeftBattle { how, .. } => format!("left {how:?}"),
            GameEvent::FiveTorches(FiveTorchesEvent::RetreatStarted { .. }) => "retreat".into(),
            GameEvent::FiveTorches(FiveTorchesEvent::RetreatFailed { .. }) => {
                "retreat failed".into()
            }
            GameEvent::FiveTorches(FiveTorchesEvent::AdvantageGranted { .. }) => "advantage".into(),
            GameEvent::Died { .. } => "died".into(),
            GameEvent::SessionEnded => "end session".into(),
            GameEvent::FiveTorches(FiveTorchesEvent::LightWentOut { .. }) => "torch out".into(),
            GameEvent::FiveTorches(FiveTorchesEvent::StealthChanged { hidden, .. }) => {
                format!("stealth {hidden}")
            }
            GameEvent::FiveTorches(FiveTorchesEvent::Rested { .. }) => "rest".into(),
            GameEvent::MoraleProposed {
                trigger: fray_protocol::ftd::MoraleTrigger::PcRetreated,
                ..
            } => "followers".into(),
            GameEvent::ReadiedActionTaken { .. } => "readied taken".into(),
            GameEvent::NewBattle { battle, .. } => format!("battle {battle}"),
            _ => continue,
        };
        seen.insert(tag);
    }
    Ok(seen)
}

/// Old-School Essentials fights: (directory name, built-in encounter, seed), played by
/// `play_ose_in_process` (checked by `tests/tests/replays.rs`). Between them: surprise, the
/// reaction roll, side initiative (a tie rerolled), hits and misses, a cast and a disrupted
/// spell, a saving throw, deaths, morale held and broken, encounter movement and members holding
/// their turns for the side's phase order (seed 24 since the phase order changed the fights).
const OSE_FIGHTS: &[(&str, &str, u64)] = &[(
    "barrow-of-the-hollow-king-seed-24",
    "barrow-of-the-hollow-king",
    24,
)];

/// Basic Fantasy sessions (`replays/basic-fantasy/`): the exploration turns (a torch burning
/// out, a stuck door, secret searches, wandering-monster checks, a rest) and then the encounter,
/// played by `play_ose_in_process`.
const BASIC_FANTASY_SESSIONS: &[(&str, &str, u64)] =
    &[("the-sunken-door-seed-1", "the-sunken-door", 1)];

fn play_ose(
    encounter: &str,
    seed: u64,
    storage: impl fray_server::log::Storage + 'static,
    id: &str,
) -> Result<Session> {
    let mut session = replay_session(&["ose", "basic-fantasy"], encounter, seed, storage, id)?;
    fray_tests::play_ose_in_process(&mut session, 5_000)?;
    Ok(session)
}

/// What an Old-School Essentials fight exercised.
fn ose_coverage(session: &Session) -> Result<BTreeSet<String>> {
    use fray_protocol::event::AttackOutcome;
    let mut seen = BTreeSet::new();
    for e in session.events_after(0)? {
        let tag = match e.event {
            GameEvent::Bx(BxEvent::SurpriseRolled { surprised, .. }) => {
                format!("surprised {surprised}")
            }
            GameEvent::Bx(BxEvent::ReactionRolled { reaction, .. }) => {
                format!("reaction {reaction:?}")
            }
            GameEvent::Bx(BxEvent::SideInitiative { rolls, .. }) if rolls.len() > 2 => {
                "tie rerolled".into()
            }
            GameEvent::AttackRolled { outcome, .. } => if outcome == AttackOutcome::Hit {
                "hit"
            } else {
                "miss"
            }
            .into(),
            GameEvent::Bx(BxEvent::SpellCast { .. }) => "spell cast".into(),
            GameEvent::Bx(BxEvent::SpellDisrupted { .. }) => "spell disrupted".into(),
            GameEvent::CheckRolled { success, .. } => format!("save {success}"),
            GameEvent::Slain { .. } => "slain".into(),
            GameEvent::Bx(BxEvent::MoraleRolled { results, .. }) => {
                for (_, _, holds) in &results {
                    seen.insert(format!("morale {holds}"));
                }
                continue;
            }
            GameEvent::LeftBattle { .. } => "fled".into(),
            GameEvent::Bx(BxEvent::OseMoved { .. }) => "moved".into(),
            GameEvent::Bx(BxEvent::TurnHeld { .. }) => "held".into(),
            GameEvent::SecretRolled { check, .. } => format!("secret {check:?}"),
            GameEvent::Bx(BxEvent::LightBurnedOut { .. }) => "light burned out".into(),
            GameEvent::Bx(BxEvent::ExplorationTurnPassed { rested: true, .. }) => "rested".into(),
            _ => continue,
        };
        seen.insert(tag);
    }
    Ok(seen)
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    // `--search-ose ENCOUNTER N`: the same for an Old-School Essentials encounter.
    if let [_, flag, encounter, n] = &args[..]
        && flag == "--search-ose"
    {
        for seed in 0..n.parse::<u64>()? {
            match play_ose(
                encounter,
                seed,
                fray_server::log::MemStorage::new(),
                "search",
            ) {
                Ok(s) => println!("{encounter} seed {seed}: {:?}", ose_coverage(&s)?),
                Err(e) => println!("{encounter} seed {seed}: {e}"),
            }
        }
        return Ok(());
    }
    // `--search-ftd ENCOUNTER N`: the same for a Five Torches Deep encounter.
    if let [_, flag, encounter, n] = &args[..]
        && flag == "--search-ftd"
    {
        for seed in 0..n.parse::<u64>()? {
            match play_ftd(
                encounter,
                seed,
                fray_server::log::MemStorage::new(),
                "search",
            ) {
                Ok(s) => println!("{encounter} seed {seed}: {:?}", ftd_coverage(&s)?),
                Err(e) => println!("{encounter} seed {seed}: {e}"),
            }
        }
        return Ok(());
    }
    // `--search RULESET ENCOUNTER N`: print what the first N seeds of an encounter exercise.
    if let [_, flag, ruleset, encounter, n] = &args[..]
        && flag == "--search"
    {
        for seed in 0..n.parse::<u64>()? {
            match play(
                ruleset,
                encounter,
                seed,
                fray_server::log::MemStorage::new(),
                "search",
            ) {
                Ok(s) => println!("{encounter} seed {seed}: {:?}", all_coverage(&s)?),
                Err(e) => println!("{encounter} seed {seed}: {e}"),
            }
        }
        return Ok(());
    }
    for (ruleset, _, _, _) in FIGHTS {
        let root = Path::new("replays").join(ruleset);
        if root.exists() {
            std::fs::remove_dir_all(root)?;
        }
    }
    for (ruleset, dir, encounter, seed) in FIGHTS {
        let path = Path::new("replays").join(ruleset).join(dir);
        let session = play(
            ruleset,
            encounter,
            *seed,
            FsStorage::open(&path)?,
            &format!("replay-{dir}"),
        )?;
        eprintln!(
            "{dir}: {} events; {:?}",
            session.last_seq(),
            all_coverage(&session)?
        );
    }
    let root = Path::new("replays/five-torches-deep");
    if root.exists() {
        std::fs::remove_dir_all(root)?;
    }
    for (dir, encounter, seed) in FTD_FIGHTS {
        let path = root.join(dir);
        let session = play_ftd(
            encounter,
            *seed,
            FsStorage::open(&path)?,
            &format!("replay-{dir}"),
        )?;
        eprintln!(
            "{dir}: {} events; {:?}",
            session.last_seq(),
            ftd_coverage(&session)?
        );
    }
    let root = Path::new("replays/ose");
    if root.exists() {
        std::fs::remove_dir_all(root)?;
    }
    for (dir, encounter, seed) in OSE_FIGHTS {
        let path = root.join(dir);
        let session = play_ose(
            encounter,
            *seed,
            FsStorage::open(&path)?,
            &format!("replay-{dir}"),
        )?;
        eprintln!(
            "{dir}: {} events; {:?}",
            session.last_seq(),
            ose_coverage(&session)?
        );
    }
    let root = Path::new("replays/basic-fantasy");
    if root.exists() {
        std::fs::remove_dir_all(root)?;
    }
    for (dir, encounter, seed) in BASIC_FANTASY_SESSIONS {
        let path = root.join(dir);
        let session = play_ose(
            encounter,
            *seed,
            FsStorage::open(&path)?,
            &format!("replay-{dir}"),
        )?;
        eprintln!(
            "{dir}: {} events; {:?}",
            session.last_seq(),
            ose_coverage(&session)?
        );
    }
    Ok(())
}
