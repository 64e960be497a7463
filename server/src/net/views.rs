//! What the session task keeps for its watching connections (`watch`): the last view of each
//! audience somebody watches, so that a batch of events costs one state read and one diff per
//! audience, whatever the number of watchers.
//!
//! The diff ([`patch`]) works on the typed state: the session's fields but the combatants and
//! the map are compared as JSON (they are small); the map, when it changed, is replaced whole;
//! each combatant that changed is diffed alone (most batches change one or two), without its
//! attack list while that is the same (shared, and it never changes in play). The result is
//! the RFC 6902 patch that turns the old view's JSON into the new one's, exactly.

use crate::session::Session;
use fray_protocol::state::CombatantState;
use fray_protocol::{JsonPatch, SessionState};
use json_patch::{AddOperation, PatchOperation, ReplaceOperation};
use jsonptr::PointerBuf;
use serde_json::Value;

/// A view as last sent: its `seq` and its state.
struct Kept {
    seq: u64,
    state: SessionState,
}

/// The GM's and the public view, each kept while somebody of that audience watches.
#[derive(Default)]
pub struct Views {
    gm: Option<Kept>,
    public: Option<Kept>,
}

/// A patch for one audience after a batch.
pub struct Patch {
    /// The seq of the view it applies to.
    pub from_seq: u64,
    /// The seq of the view it makes.
    pub seq: u64,
    /// The operations.
    pub patch: JsonPatch,
}

/// The state an audience may see.
pub fn view_of(session: &Session, gm: bool) -> SessionState {
    if gm {
        session.state()
    } else {
        session.state().redacted()
    }
}

impl Views {
    fn slot(&mut self, gm: bool) -> &mut Option<Kept> {
        if gm { &mut self.gm } else { &mut self.public }
    }

    /// The full view for a new watcher of an audience, which is kept from now on.
    pub fn start(&mut self, session: &Session, gm: bool) -> (u64, SessionState) {
        let seq = session.last_seq();
        let state = view_of(session, gm);
        let slot = self.slot(gm);
        if slot.as_ref().is_none_or(|k| k.seq != seq) {
            *slot = Some(Kept {
                seq,
                state: state.clone(),
            });
        }
        (seq, state)
    }

    /// Stops keeping an audience's view (its last watcher left).
    pub fn forget(&mut self, gm: bool) {
        *self.slot(gm) = None;
    }

    /// Whether anybody watches either audience's view.
    pub fn any(&self) -> bool {
        self.gm.is_some() || self.public.is_some()
    }

    /// Whether an audience's view is kept (somebody of that audience watches).
    pub fn keeps(&self, gm: bool) -> bool {
        if gm {
            self.gm.is_some()
        } else {
            self.public.is_some()
        }
    }

    /// After a batch: the patch from the kept view of an audience to `now` (that audience's
    /// view at `seq`), keeping `now`. `None` when the audience is not kept or nothing was
    /// appended since.
    pub fn advance(&mut self, mut now: SessionState, seq: u64, gm: bool) -> Option<Patch> {
        let slot = self.slot(gm);
        let kept = slot.as_mut().filter(|k| k.seq != seq)?;
        let patch = patch(&mut kept.state, &mut now);
        let from_seq = kept.seq;
        *slot = Some(Kept { seq, state: now });
        Some(Patch {
            from_seq,
            seq,
            patch,
        })
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or_else(|e| {
        // The state has only string keys and plain values: this cannot fail; say so if it does.
        tracing::error!(error = %e, "a view does not convert to JSON");
        Value::Null
    })
}

/// The RFC 6902 patch from the JSON of `old` to the JSON of `new`. Both are borrowed mutably
/// only to serialize their session fields without the combatants and the map (taken out and
/// put back: nothing is cloned); they are as they were on return.
pub fn patch(old: &mut SessionState, new: &mut SessionState) -> JsonPatch {
    let shell = |s: &mut SessionState| {
        let combatants = std::mem::take(&mut s.combatants);
        let map = s.map.take();
        let mut v = to_json(&*s);
        s.combatants = combatants;
        s.map = map;
        if let Value::Object(m) = &mut v {
            m.remove("combatants");
            m.remove("map");
        }
        v
    };
    let (old_shell, new_shell) = (shell(old), shell(new));
    let mut ops = json_patch::diff(&old_shell, &new_shell).0;
    if old.map != new.map {
        ops.push(replace(PointerBuf::from_tokens(["map"]), to_json(&new.map)));
    }
    let same_roster = old.combatants.len() == new.combatants.len()
        && old
            .combatants
            .iter()
            .zip(&new.combatants)
            .all(|(a, b)| a.id == b.id);
    if !same_roster {
        ops.push(replace(
            PointerBuf::from_tokens(["combatants"]),
            to_json(&new.combatants),
        ));
        return JsonPatch(json_patch::Patch(ops));
    }
    for (i, (a, b)) in old
        .combatants
        .iter_mut()
        .zip(new.combatants.iter_mut())
        .enumerate()
    {
        if a == b {
            continue;
        }
        let inner = combatant_diff(a, b);
        let prefix = PointerBuf::from_tokens(["combatants".to_string(), i.to_string()]);
        ops.extend(inner.into_iter().map(|op| under(&prefix, op)));
    }
    JsonPatch(json_patch::Patch(ops))
}

/// The diff of one combatant's JSON. Its attacks are shared (`Arc`) and seldom change: when
/// they are the same they are left out of both sides (taken out and put back, nothing cloned),
/// so that neither is converted nor compared field by field.
fn combatant_diff(a: &mut CombatantState, b: &mut CombatantState) -> Vec<PatchOperation> {
    if a.attacks != b.attacks {
        return json_patch::diff(&to_json(&*a), &to_json(&*b)).0;
    }
    let (kept_a, kept_b) = (
        std::mem::take(&mut a.attacks),
        std::mem::take(&mut b.attacks),
    );
    let ops = json_patch::diff(&to_json(&*a), &to_json(&*b)).0;
    (a.attacks, b.attacks) = (kept_a, kept_b);
    ops
}

fn replace(path: PointerBuf, value: Value) -> PatchOperation {
    PatchOperation::Replace(ReplaceOperation { path, value })
}

/// An operation of a combatant's own diff, moved under its place in the state.
fn under(prefix: &PointerBuf, op: PatchOperation) -> PatchOperation {
    let at = |p: &jsonptr::Pointer| prefix.concat(p);
    match op {
        PatchOperation::Add(o) => PatchOperation::Add(AddOperation {
            path: at(&o.path),
            value: o.value,
        }),
        PatchOperation::Remove(o) => {
            PatchOperation::Remove(json_patch::RemoveOperation { path: at(&o.path) })
        }
        PatchOperation::Replace(o) => replace(at(&o.path), o.value),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::common::testing::new_engine;
    use crate::rules::{builtin_encounters, load_encounter, ruleset};
    use fray_protocol::Role;

    /// Plays every built-in encounter of the rulesets with a bot (later battles, new monsters
    /// and maps included) and checks at every command that the patch turns the old view's JSON
    /// into the new one's, for the GM's view and the public one.
    #[test]
    fn a_patch_turns_each_views_json_into_the_next_in_bot_played_fights() {
        let mut checked = 0;
        for id in ["13th-age", "orcus"] {
            let Some(bot) = ruleset(id).and_then(|r| r.bot) else {
                panic!("{id} has a bot");
            };
            for (name, text) in builtin_encounters(id) {
                let enc = load_encounter(name, text).unwrap();
                let mut e = new_engine(&enc, 8);
                let mut last = e.state();
                for salt in 0..400 {
                    // The GM plays the monsters, one player every hero.
                    let heroes = Role::Player {
                        name: "all".into(),
                        controls: last.combatants.iter().map(|c| c.id.clone()).collect(),
                    };
                    let Some(cmd) =
                        bot(&Role::Gm, &last, salt).or_else(|| bot(&heroes, &last, salt))
                    else {
                        break;
                    };
                    if e.execute(&cmd).is_err() {
                        continue;
                    }
                    let now = e.state();
                    for (mut a, mut b) in [
                        (last.clone(), now.clone()),
                        (last.redacted(), now.redacted()),
                    ] {
                        let p = patch(&mut a, &mut b);
                        let mut json = to_json(&a);
                        assert_eq!(p.apply(&mut json), Ok(()), "{id}/{name} at {salt}");
                        assert_eq!(json, to_json(&b), "{id}/{name} at {salt}");
                        checked += 1;
                    }
                    last = now;
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }

    /// Attacks are left out of a combatant's diff only while they are the same: a change to
    /// them (or to them alone) is still patched.
    #[test]
    fn a_patch_carries_a_change_of_a_combatants_attacks_and_skips_them_when_they_are_the_same() {
        let (name, text) = builtin_encounters("13th-age")[0];
        let e = new_engine(&load_encounter(name, text).unwrap(), 8);
        let old = e.state();
        let mut fewer = old.clone();
        let c = &mut fewer.combatants[0];
        c.attacks = c.attacks[..c.attacks.len() - 1].into();
        let mut hurt = old.clone();
        hurt.combatants[0].temp_hp += 3;
        for (a, b, touches_attacks) in [(&old, &fewer, true), (&old, &hurt, false)] {
            let (mut a, mut b) = (a.clone(), b.clone());
            let p = patch(&mut a, &mut b);
            let mut json = to_json(&a);
            assert_eq!(p.apply(&mut json), Ok(()));
            assert_eq!(json, to_json(&b));
            let text = serde_json::to_string(&p.0).unwrap();
            assert_eq!(text.contains("/attacks"), touches_attacks, "{text}");
            assert_eq!(a, old, "the old state is as it was");
        }
    }
}
