//! A session log as JSON lines (`fray-log-v1`): what the server serves at
//! `GET /sessions/{id}/log`, what `fray export` writes and what `fray verify` reads besides a
//! segment directory. Two audiences:
//!
//! - **public** (players, spectators, anyone): the genesis without the access tokens, without
//!   the secret stream's seed and salt, and without the seed and salt until they are revealed;
//!   every accepted command (a whisper's or note's text replaced: `Command::redacted`); the events redacted as players see them (no exact monster hit
//!   points, no secret roll's dice, result or distance); the main stream's draw count after
//!   each tick; the state hashes the server recorded. The secret stream's draw count is
//!   written as 0: it would tell how many secret dice were rolled (a wandering monster's
//!   distance is rolled only when it appears).
//! - **gm**: the same records unredacted with the whole genesis (tokens, secret seed): the
//!   full log, which `fray verify` checks like the segment files.
//!
//! Line 1 is `{"fray_log":1,"audience":"public"|"gm","genesis":{…}}` (the public genesis has
//! no `tokens`, `secret_seed` or `secret_salt` fields, and `seed`/`salt` are `null` until
//! revealed); each further line is one record, externally tagged like the log's own:
//! `{"command":{…}}`, `{"events":{…}}`, `{"state_hash":{…}}`.

use super::{RecordedFight, ReplayError};
use crate::content::model::Encounter;
use crate::session::record::{Genesis, Record, Tokens};
use fray_protocol::ids::SessionId;
use serde::{Deserialize, Serialize};

/// The format version on line 1.
pub const FORMAT: u32 = 1;

/// Who a log is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    /// Players, spectators, anyone: redacted, no secrets.
    Public,
    /// The GM: everything.
    Gm,
}

/// Line 1, as read: the genesis is decoded once the audience is known.
#[derive(Deserialize)]
struct HeadIn {
    fray_log: u32,
    audience: Audience,
    genesis: serde_json::Value,
}

#[derive(Serialize)]
struct HeadOut<'a, G: Serialize> {
    fray_log: u32,
    audience: Audience,
    genesis: &'a G,
}

/// The genesis as the public may see it: no tokens, no secret stream seed or salt, and the
/// seed and salt only once revealed.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PublicGenesis {
    record_version: u32,
    session: SessionId,
    ruleset: String,
    ruleset_version: u32,
    encounter: Encounter,
    demo: bool,
    commitment: String,
    seed: Option<u64>,
    salt: Option<String>,
    hash_every: u64,
    secret_commitment: String,
}

impl PublicGenesis {
    fn of(g: &Genesis, revealed: bool) -> PublicGenesis {
        PublicGenesis {
            record_version: g.record_version,
            session: g.session.clone(),
            ruleset: g.ruleset.clone(),
            ruleset_version: g.ruleset_version,
            encounter: g.encounter.clone(),
            demo: g.demo,
            commitment: g.commitment.clone(),
            seed: revealed.then_some(g.seed),
            salt: revealed.then(|| g.salt.clone()),
            hash_every: g.hash_every,
            secret_commitment: g.secret_commitment.clone(),
        }
    }

    /// A genesis to re-decide with: the secrets it lacks are blanks (the secret stream then
    /// draws other dice, which a public log never shows).
    fn into_genesis(self) -> Genesis {
        Genesis {
            record_version: self.record_version,
            session: self.session,
            ruleset: self.ruleset,
            ruleset_version: self.ruleset_version,
            encounter: self.encounter,
            demo: self.demo,
            commitment: self.commitment,
            seed: self.seed.unwrap_or(0),
            salt: self.salt.unwrap_or_default(),
            tokens: Tokens {
                gm: String::new(),
                spectator: String::new(),
                players: Vec::new(),
            },
            hash_every: self.hash_every,
            secret_commitment: self.secret_commitment,
            secret_seed: 0,
            secret_salt: String::new(),
        }
    }
}

/// One record as the audience may see it.
fn for_audience(r: &Record, g: &Genesis, audience: Audience) -> Record {
    match (audience, r) {
        (
            Audience::Public,
            Record::Events {
                tick,
                first_seq,
                events,
                rng_draws,
                ..
            },
        ) => Record::Events {
            tick: *tick,
            first_seq: *first_seq,
            events: events
                .iter()
                .map(|e| e.redacted(|id| g.is_monster(id)))
                .collect(),
            rng_draws: *rng_draws,
            secret_draws: 0,
        },
        (
            Audience::Public,
            Record::Command {
                tick,
                client,
                command_id,
                command,
            },
        ) => Record::Command {
            tick: *tick,
            client: client.clone(),
            command_id: *command_id,
            command: command.redacted(),
        },
        _ => r.clone(),
    }
}

/// Writes a recorded fight as JSON lines for an audience. A fight read from JSON lines keeps
/// its own audience: a public log cannot be turned into a GM's.
pub fn write(fight: &RecordedFight, audience: Audience) -> Result<String, ReplayError> {
    let audience = if fight.audience == Audience::Public {
        Audience::Public
    } else {
        audience
    };
    let mut out = match audience {
        Audience::Gm => line(&HeadOut {
            fray_log: FORMAT,
            audience,
            genesis: &fight.genesis,
        })?,
        Audience::Public => line(&HeadOut {
            fray_log: FORMAT,
            audience,
            genesis: &PublicGenesis::of(&fight.genesis, fight.revealed().is_some()),
        })?,
    };
    out.push('\n');
    for r in &fight.records {
        out.push_str(&line(&for_audience(r, &fight.genesis, audience))?);
        out.push('\n');
    }
    Ok(out)
}

/// One value as one JSON line (without the newline).
fn line<T: Serialize>(v: &T) -> Result<String, ReplayError> {
    serde_json::to_string(v).map_err(|e| ReplayError::Invalid(e.to_string()))
}

/// Whether bytes look like JSON lines rather than a segment file.
pub fn looks_like_lines(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'{')
}

/// Reads JSON lines back into a recorded fight (its audience remembered).
pub fn read(text: &str) -> Result<RecordedFight, ReplayError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, first) = lines
        .next()
        .ok_or_else(|| ReplayError::Invalid("an empty log".into()))?;
    let head: HeadIn = serde_json::from_str(first)
        .map_err(|e| ReplayError::Invalid(format!("line 1 is not a fray-log header: {e}")))?;
    if head.fray_log != FORMAT {
        return Err(ReplayError::Invalid(format!(
            "fray-log version {} is not known to this build (it reads {FORMAT})",
            head.fray_log
        )));
    }
    let bad_genesis = |e: serde_json::Error| ReplayError::Invalid(format!("line 1, genesis: {e}"));
    let genesis = match head.audience {
        Audience::Gm => serde_json::from_value::<Genesis>(head.genesis).map_err(bad_genesis)?,
        Audience::Public => serde_json::from_value::<PublicGenesis>(head.genesis)
            .map_err(bad_genesis)?
            .into_genesis(),
    };
    let mut records = Vec::new();
    for (i, l) in lines {
        let r: Record = serde_json::from_str(l)
            .map_err(|e| ReplayError::Invalid(format!("line {}: {e}", i + 1)))?;
        if matches!(r, Record::Genesis(_)) {
            return Err(ReplayError::Invalid(format!(
                "line {}: a second genesis",
                i + 1
            )));
        }
        records.push(r);
    }
    Ok(RecordedFight {
        header: None,
        genesis,
        records,
        truncated: None,
        audience: head.audience,
    })
}
