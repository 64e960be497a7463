//! Table talk through the real session and log: each line and roll reaches exactly its readers
//! (GM, the players concerned, the public), bad ones are refused without a draw, and the log
//! verifies — from the GM's log and from the public one after the reveal.

use super::*;
use crate::replay::{Audience, log_lines, read_log, verify};
use crate::session::{Session, SessionConfig};

/// The two player seats' names.
fn session(dir: &std::path::Path) -> Session {
    crate::session::testing::session_in("13th-age", dir, 33, SessionConfig::default())
}

fn players(s: &Session) -> (String, String) {
    let seats = &s.genesis().encounter.seats;
    (seats[0].name.clone(), seats[1].name.clone())
}

fn send(s: &mut Session, client: &str, c: &Command) -> Result<GameEvent, Rejection> {
    let staged = s.stage(client, s.tick() + 1, c)?;
    s.commit().unwrap();
    assert_eq!(staged.events.len(), 1);
    Ok(staged.events[0].event.clone())
}

fn chat(text: &str, to: ChatTo) -> Command {
    Command::Chat {
        text: text.into(),
        to,
    }
}

fn roll(dice: &str, visibility: RollVisibility) -> Command {
    Command::FreeRoll {
        dice: dice.into(),
        label: Some("perception".into()),
        visibility,
    }
}

fn no_monster(_: &fray_protocol::CombatantId) -> bool {
    false
}

fn text_of(e: &GameEvent) -> Option<String> {
    match e {
        GameEvent::Chatted { text, .. } => text.clone(),
        other => panic!("not a chat line: {other:?}"),
    }
}

#[test]
fn a_whisper_reaches_its_sender_its_reader_and_the_gm_and_nobody_else() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session(dir.path());
    let (alice, bob) = players(&s);
    let from_alice = format!("player:{alice}");
    let table = send(&mut s, &from_alice, &chat("hello all", ChatTo::Table)).unwrap();
    let whisper = send(
        &mut s,
        &from_alice,
        &chat("  the door is trapped ", ChatTo::Player(bob.clone())),
    )
    .unwrap();
    assert_eq!(
        whisper,
        GameEvent::Chatted {
            from: Seat::Player(alice.clone()),
            to: ChatTo::Player(bob.clone()),
            text: Some("the door is trapped".into()),
        },
        "trimmed, from the sending seat"
    );
    let note = send(&mut s, "gm", &chat("the lich is upstairs", ChatTo::Gm)).unwrap();
    let to_gm = send(&mut s, &from_alice, &chat("can I sneak?", ChatTo::Gm)).unwrap();
    // The table's line: everyone.
    for copy in [
        table.redacted(no_monster),
        table.for_player(&bob, no_monster),
    ] {
        assert_eq!(text_of(&copy).as_deref(), Some("hello all"));
    }
    // The whisper: alice and bob whole; the public (spectators, other players) without text.
    assert_eq!(whisper.for_player(&alice, no_monster), whisper);
    assert_eq!(whisper.for_player(&bob, no_monster), whisper);
    assert_eq!(text_of(&whisper.redacted(no_monster)), None);
    assert_eq!(text_of(&whisper.for_player("carol", no_monster)), None);
    // The GM's note: nobody but the GM; alice's line to the GM: alice and the GM.
    assert_eq!(text_of(&note.for_player(&alice, no_monster)), None);
    assert_eq!(text_of(&note.redacted(no_monster)), None);
    assert_eq!(to_gm.for_player(&alice, no_monster), to_gm);
    assert_eq!(text_of(&to_gm.for_player(&bob, no_monster)), None);
    // The public export holds the table's line only.
    s.flush().unwrap();
    drop(s);
    let public = log_lines::write(&read_log(dir.path()).unwrap(), Audience::Public).unwrap();
    assert!(public.contains("hello all"));
    for secret in [
        "the door is trapped",
        "the lich is upstairs",
        "can I sneak?",
    ] {
        assert!(
            !public.contains(secret),
            "{secret} leaked into the public log"
        );
    }
}

#[test]
fn free_rolls_draw_from_the_stream_their_visibility_names() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session(dir.path());
    let (alice, bob) = players(&s);
    let from_alice = format!("player:{alice}");
    let (main, secret) = (s.engine().rng().draws(), s.engine().secret_draws());
    let public = send(&mut s, &from_alice, &roll("2d6+1", RollVisibility::Public)).unwrap();
    assert_eq!(
        s.engine().rng().draws(),
        main + 2,
        "two dice from the session's stream"
    );
    assert_eq!(s.engine().secret_draws(), secret);
    let GameEvent::FreeRolled { roll: Some(r), .. } = &public else {
        panic!("{public:?}")
    };
    assert_eq!(r.dice.len(), 2);
    assert_eq!(
        r.total,
        r.dice.iter().map(|d| d.face as i32).sum::<i32>() + 1
    );
    assert_eq!(
        public.redacted(no_monster),
        public,
        "a public roll is public"
    );

    let gm_roll = send(&mut s, &from_alice, &roll("d20", RollVisibility::Gm)).unwrap();
    let blind = send(&mut s, &from_alice, &roll("d20", RollVisibility::Blind)).unwrap();
    assert_eq!(
        s.engine().rng().draws(),
        main + 2,
        "secret rolls leave it alone"
    );
    assert_eq!(s.engine().secret_draws(), secret + 2);
    let result = |e: &GameEvent| match e {
        GameEvent::FreeRolled { roll, .. } => roll.clone(),
        other => panic!("{other:?}"),
    };
    assert!(
        result(&gm_roll.for_player(&alice, no_monster)).is_some(),
        "the roller sees it"
    );
    assert!(result(&gm_roll.for_player(&bob, no_monster)).is_none());
    assert!(
        result(&blind.for_player(&alice, no_monster)).is_none(),
        "blind: not even the roller"
    );
    assert!(result(&blind).is_some(), "the GM sees a blind roll");
}

#[test]
fn bad_lines_and_rolls_are_refused_and_draw_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session(dir.path());
    let (alice, _) = players(&s);
    let from_alice = format!("player:{alice}");
    let draws = (s.engine().rng().draws(), s.engine().secret_draws());
    let cases = [
        (chat("   ", ChatTo::Table), "empty"),
        (chat(&"x".repeat(501), ChatTo::Table), "at most 500"),
        (chat("a\u{7}b", ChatTo::Table), "control"),
        (
            chat("psst", ChatTo::Player("nobody".into())),
            "no player seat",
        ),
        (chat("me", ChatTo::Player(alice.clone())), "yourself"),
        (roll("2d", RollVisibility::Public), "dice expression"),
        (roll("d20+STR", RollVisibility::Public), "dice expression"),
        (roll("101d6", RollVisibility::Public), "at most 100"),
        (roll("101d6", RollVisibility::Blind), "at most 100"),
        (
            Command::FreeRoll {
                dice: "d6".into(),
                label: Some("l".repeat(101)),
                visibility: RollVisibility::Public,
            },
            "label",
        ),
    ];
    for (command, says) in cases {
        let r = s.stage(&from_alice, 1, &command).err().unwrap();
        assert_eq!(r.code, ErrorCode::InvalidArgument, "{command:?}");
        assert!(r.message.contains(says), "{says}: {}", r.message);
        assert_eq!(
            (s.engine().rng().draws(), s.engine().secret_draws()),
            draws,
            "{command:?} drew"
        );
    }
    let r = s
        .stage("spectator", 1, &chat("hi", ChatTo::Table))
        .err()
        .unwrap();
    assert_eq!(r.code, ErrorCode::SpectatorCannotCommand);
}

#[test]
fn talk_verifies_from_the_gm_log_and_from_the_public_log_after_the_reveal() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session(dir.path());
    let (alice, bob) = players(&s);
    let from_alice = format!("player:{alice}");
    send(&mut s, &from_alice, &chat("hi", ChatTo::Player(bob))).unwrap();
    send(&mut s, &from_alice, &roll("3d6", RollVisibility::Public)).unwrap();
    send(&mut s, "gm", &roll("d100", RollVisibility::Blind)).unwrap();
    s.stage("gm", 9, &Command::StartBattle).unwrap();
    s.commit().unwrap();
    s.stage("gm", 10, &Command::EndBattle).unwrap();
    s.commit().unwrap();
    s.flush().unwrap();
    drop(s);
    let fight = read_log(dir.path()).unwrap();
    verify(&fight).unwrap();
    let public = log_lines::write(&fight, Audience::Public).unwrap();
    let public_fight = log_lines::read(&public).unwrap();
    verify(&public_fight).unwrap();
    // A public roll changed after the fact no longer verifies.
    let mut lines: Vec<serde_json::Value> = public
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let line = lines
        .iter()
        .position(|l| l["events"]["events"][0]["free_rolled"]["visibility"] == "public")
        .unwrap();
    let total = &mut lines[line]["events"]["events"][0]["free_rolled"]["roll"]["total"];
    *total = serde_json::json!(total.as_i64().unwrap() + 1);
    let forged: String = lines.iter().map(|l| format!("{l}\n")).collect();
    assert!(verify(&log_lines::read(&forged).unwrap()).is_err());
}
