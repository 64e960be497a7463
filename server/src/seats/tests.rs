//! Seats through the real session and log: combatants given and taken back, a token reissued
//! (derived, so `verify` re-decides it; hidden from the public), the table rebuilt at reopen.

use super::*;
use crate::log::FsStorage;
use crate::replay::{Audience, log_lines, read_log, verify};
use crate::session::{Session, SessionConfig};

fn session(dir: &std::path::Path) -> Session {
    crate::session::testing::session_in("13th-age", dir, 3, SessionConfig::default())
}

fn send(s: &mut Session, c: &Command) -> Result<Vec<GameEvent>, Rejection> {
    let staged = s.stage("gm", s.tick() + 1, c)?;
    s.commit().unwrap();
    Ok(staged.events.into_iter().map(|e| e.event).collect())
}

fn assign(combatant: &CombatantId, seat: Option<&str>) -> Command {
    Command::AssignCombatant {
        combatant: combatant.clone(),
        seat: seat.map(str::to_owned),
    }
}

#[test]
fn a_combatant_given_to_a_seat_leaves_every_other_seat_and_comes_back_to_the_gm() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session(dir.path());
    let (alice, bob) = {
        let t = s.seats();
        (t.seats[0].name.clone(), t.seats[1].name.clone())
    };
    let hero = s.seats().seats[0].controls[0].clone();
    send(&mut s, &assign(&hero, Some(&bob))).unwrap();
    let controls = |s: &Session, i: usize| s.seats().seats[i].controls.clone();
    assert!(
        !controls(&s, 0).contains(&hero),
        "{alice} no longer commands it"
    );
    assert!(controls(&s, 1).contains(&hero), "{bob} does");
    send(&mut s, &assign(&hero, None)).unwrap();
    assert!(!controls(&s, 0).contains(&hero) && !controls(&s, 1).contains(&hero));
    let goblin = CombatantId::new("goblin-archer-1");
    assert_eq!(
        send(&mut s, &assign(&goblin, Some("nobody")))
            .unwrap_err()
            .code,
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        send(&mut s, &assign(&CombatantId::new("nope"), Some(&alice)))
            .unwrap_err()
            .code,
        ErrorCode::UnknownCombatant
    );
    send(&mut s, &assign(&goblin, Some(&alice))).unwrap();
    let table = s.seats().clone();
    s.flush().unwrap();
    drop(s);
    let (reopened, _) = Session::open(
        FsStorage::open(dir.path()).unwrap(),
        SessionConfig::default(),
    )
    .unwrap();
    assert_eq!(
        reopened.seats(),
        &table,
        "the table is rebuilt from the log"
    );
}

#[test]
fn a_reissued_token_is_derived_revokes_the_old_one_and_stays_out_of_the_public_log() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session(dir.path());
    let alice = s.seats().seats[0].clone();
    let events = send(
        &mut s,
        &Command::ReissueToken {
            seat: alice.name.clone(),
        },
    )
    .unwrap();
    let GameEvent::TokenReissued {
        token: Some(token), ..
    } = &events[0]
    else {
        panic!("{events:?}")
    };
    assert_eq!(token.len(), 32);
    assert_ne!(token, &alice.token);
    assert_eq!(token, &token_for(s.genesis(), &alice.name, s.tick()));
    assert_ne!(token, &token_for(s.genesis(), &alice.name, s.tick() + 1));
    assert_eq!(&s.seats().seats[0].token, token);
    assert_eq!(s.seats().revoked, vec![alice.token.clone()]);
    assert_eq!(
        events[0].redacted(|_| false),
        GameEvent::TokenReissued {
            seat: alice.name.clone(),
            token: None
        }
    );
    assert_eq!(
        send(&mut s, &Command::ReissueToken { seat: "x".into() })
            .unwrap_err()
            .code,
        ErrorCode::InvalidArgument
    );
    s.stage("gm", 50, &Command::StartBattle).unwrap();
    s.commit().unwrap();
    s.stage("gm", 51, &Command::EndBattle).unwrap();
    s.commit().unwrap();
    s.flush().unwrap();
    drop(s);
    let fight = read_log(dir.path()).unwrap();
    verify(&fight).unwrap();
    let public = log_lines::write(&fight, Audience::Public).unwrap();
    assert!(
        !public.contains(token.as_str()),
        "the new token is not public"
    );
    verify(&log_lines::read(&public).unwrap()).unwrap();
}
