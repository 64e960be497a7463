//! Table talk (GM tools): `chat` and `free_roll`, decided for the seat that sends them (the
//! session knows it; the ruleset is not asked). Shared by the live session and `verify`, which
//! reads the seat from the command's log record.
//!
//! - A chat line is 1–500 characters after trimming, with no control characters but line
//!   breaks; a whisper names an existing player seat other than the sender's.
//! - A free roll is any dice expression of `dice::notation` without placeholders, at most
//!   [`MAX_FREE_DICE`] faces; `public` rolls draw from the session's stream, `gm` and `blind`
//!   ones from the secret stream. A refused roll draws nothing.
//!
//! Who sees what is the events' redaction (`GameEvent::redacted`, `GameEvent::for_player`).

use crate::dice::DiceExpr;
use crate::engine::Engine;
use crate::session::record::Genesis;
use fray_protocol::talk::{ChatTo, MAX_CHAT_CHARS, MAX_LABEL_CHARS, RollVisibility, Seat};
use fray_protocol::{Command, ErrorCode, GameEvent, Rejection};

/// The most faces a free roll may show (a table's handful of dice, not the notation's 10,000).
pub const MAX_FREE_DICE: usize = 100;

/// The seat a command's log record names (`gm`, `player:NAME`); `None` for anything else.
pub fn seat_of(client: &str) -> Option<Seat> {
    match client {
        "gm" => Some(Seat::Gm),
        other => other
            .strip_prefix("player:")
            .map(|name| Seat::Player(name.to_owned())),
    }
}

fn bad(message: String) -> Rejection {
    Rejection::new(ErrorCode::InvalidArgument, message)
}

/// Decides `chat` or `free_roll` for the seat `client` (`None` for any other command).
pub fn decide(
    engine: &mut Engine,
    genesis: &Genesis,
    client: &str,
    command: &Command,
) -> Option<Result<Vec<GameEvent>, Rejection>> {
    let decided = match command {
        Command::Chat { text, to } => sender(client).and_then(|from| chat(genesis, from, text, to)),
        Command::FreeRoll {
            dice,
            label,
            visibility,
        } => sender(client).and_then(|by| free_roll(engine, by, dice, label, *visibility)),
        _ => return None,
    };
    Some(decided.map(|e| vec![e]))
}

fn sender(client: &str) -> Result<Seat, Rejection> {
    seat_of(client).ok_or_else(|| {
        Rejection::new(
            ErrorCode::SpectatorCannotCommand,
            "spectators watch; only the GM and the players talk and roll",
        )
    })
}

fn chat(genesis: &Genesis, from: Seat, text: &str, to: &ChatTo) -> Result<GameEvent, Rejection> {
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 {
        return Err(bad("an empty chat line".into()));
    }
    if chars > MAX_CHAT_CHARS {
        return Err(bad(format!(
            "a chat line is at most {MAX_CHAT_CHARS} characters (this one has {chars})"
        )));
    }
    if text.chars().any(|c| c.is_control() && c != '\n') {
        return Err(bad("a chat line holds no control characters".into()));
    }
    if let ChatTo::Player(name) = to {
        if !genesis.encounter.seats.iter().any(|s| &s.name == name) {
            return Err(bad(format!("no player seat is named '{name}'")));
        }
        if from == Seat::Player(name.clone()) {
            return Err(bad("a whisper to yourself".into()));
        }
    }
    Ok(GameEvent::Chatted {
        from,
        to: to.clone(),
        text: Some(text.to_owned()),
    })
}

fn free_roll(
    engine: &mut Engine,
    by: Seat,
    dice: &str,
    label: &Option<String>,
    visibility: RollVisibility,
) -> Result<GameEvent, Rejection> {
    if let Some(l) = label
        && l.chars().count() > MAX_LABEL_CHARS
    {
        return Err(bad(format!(
            "a roll's label is at most {MAX_LABEL_CHARS} characters"
        )));
    }
    let expr = DiceExpr::parse(dice).map_err(|e| bad(format!("dice expression '{dice}': {e}")))?;
    let secret = visibility != RollVisibility::Public;
    let before = (engine.rng().clone(), engine.secret_rng().cloned());
    let roll = engine.roll_free(&expr, secret)?;
    if roll.dice.len() > MAX_FREE_DICE {
        engine.set_rng(before.0);
        if let Some(s) = before.1 {
            engine.set_secret_rng(s);
        }
        return Err(bad(format!(
            "a free roll shows at most {MAX_FREE_DICE} dice ('{dice}' rolled {})",
            roll.dice.len()
        )));
    }
    Ok(GameEvent::FreeRolled {
        by,
        dice: dice.to_owned(),
        label: label.clone(),
        visibility,
        roll: Some(roll),
    })
}

#[cfg(test)]
mod tests;
