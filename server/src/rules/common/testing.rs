//! What every ruleset's tests drive an engine with: an engine for a seed, accepted and refused
//! commands (a refusal is checked to change nothing and draw nothing), the state read back.

use crate::content::model::Encounter;
use crate::dice::SessionRng;
use crate::ecs::components::SeedSecret;
use crate::engine::Engine;
use fray_protocol::state::CombatantState;
use fray_protocol::{CombatantId, Command, ErrorCode, GameEvent};

pub(crate) const SALT: &str = "00112233445566778899aabbccddeeff";

pub(crate) fn secret(seed: u64) -> SeedSecret {
    SeedSecret {
        seed,
        salt: SALT.into(),
    }
}

/// An engine for `seed`; its secret stream (`rules::secret`) takes the same number as its secret
/// seed (another stream: the domains differ), as a session's would take its own.
pub(crate) fn new_engine(enc: &Encounter, seed: u64) -> Engine {
    let mut e = Engine::new(enc, SessionRng::from_seed(seed), secret(seed)).unwrap();
    e.set_secret_rng(SessionRng::from_secret_seed(seed));
    e
}

pub(crate) fn cid(s: &str) -> CombatantId {
    CombatantId::new(s)
}

/// Runs an accepted command.
pub(crate) fn run(e: &mut Engine, cmd: &Command) -> Vec<GameEvent> {
    e.execute(cmd)
        .unwrap_or_else(|r| panic!("{cmd:?} was refused: {r}"))
}

/// Runs a command that must be refused; checks that the refusal changed nothing (state hash and
/// RNG draws) and returns its code.
pub(crate) fn refuse(e: &mut Engine, cmd: &Command) -> ErrorCode {
    refusal(e, cmd).code
}

/// [`refuse`], returning the whole rejection (for its message).
pub(crate) fn refusal(e: &mut Engine, cmd: &Command) -> fray_protocol::Rejection {
    let hash = e.state_hash();
    let state = e.state();
    let draws = e.rng().draws();
    let secret_draws = e.secret_draws();
    let r = match e.execute(cmd) {
        Ok(ev) => panic!("{cmd:?} was accepted: {ev:?}"),
        Err(r) => r,
    };
    assert_eq!(
        e.state_hash(),
        hash,
        "{cmd:?} refused ({r}) but changed the state"
    );
    assert_eq!(e.state(), state);
    assert_eq!(
        e.rng().draws(),
        draws,
        "{cmd:?} refused ({r}) but drew dice"
    );
    assert_eq!(
        e.secret_draws(),
        secret_draws,
        "{cmd:?} refused ({r}) but drew secret dice"
    );
    r
}

pub(crate) fn current(e: &Engine) -> String {
    e.state().current.expect("someone's turn").to_string()
}

pub(crate) fn cs(e: &Engine, id: &str) -> CombatantState {
    e.state().combatant(&cid(id)).cloned().expect("combatant")
}
