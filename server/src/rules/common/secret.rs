//! Secret rolls draw from the secret stream (`dice::rng`, "The secret stream"), never from the
//! main one: the main seed is revealed at the end of a session, the secret seed never is, so a
//! secret roll's result cannot be regenerated from the public log. A ruleset that makes secret
//! rolls gives its `Decider` the `SecretDice` resource ([`Decider::with_secret`]) and restores it
//! with the main RNG when a command is refused.

use super::decider::Decider;
use crate::dice::{self, DiceExpr, Placeholders, SessionRng};
use fray_protocol::roll::Roll;
use fray_protocol::{ErrorCode, Rejection};

impl<'a> Decider<'a, '_, '_> {
    /// This pass's decider with the secret stream (`None`: secret rolls are refused).
    pub fn with_secret(mut self, secret: Option<&'a mut SessionRng>) -> Self {
        self.secret = secret;
        self
    }

    fn secret_stream(&mut self) -> Result<&mut SessionRng, Rejection> {
        // invariant: every session's engine has a secret stream (`session::engine_for`); only an
        // engine built without one (unit tests) gets here, and it refuses rather than draw the
        // secret die from the main stream.
        self.secret.as_deref_mut().ok_or_else(|| {
            Rejection::new(
                ErrorCode::InvalidArgument,
                "this engine has no secret stream: secret rolls cannot be made",
            )
        })
    }

    /// A secret die in `1..=sides`, from the secret stream.
    pub fn secret_die(&mut self, sides: u32) -> Result<Roll, Rejection> {
        Ok(dice::roll_die(self.secret_stream()?, sides))
    }

    /// A secret roll of a dice expression without placeholders (a wandering monster's
    /// distance), from the secret stream.
    pub fn secret_roll(&mut self, expr: &str) -> Result<Roll, Rejection> {
        let bad = |e: String| {
            Rejection::new(
                ErrorCode::InvalidArgument,
                format!("dice expression '{expr}': {e}"),
            )
        };
        let parsed = DiceExpr::parse(expr).map_err(|e| bad(e.to_string()))?;
        let rng = self.secret_stream()?;
        parsed
            .roll(rng, &Placeholders::default())
            .map_err(|e| bad(e.to_string()))
    }
}
