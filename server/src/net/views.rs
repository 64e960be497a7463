//! What the session task keeps for its watching connections (`watch`): the last view of each
//! audience somebody watches, so that a batch of events costs one state read and one diff per
//! audience, whatever the number of watchers.
//!
//! The diff ([`patch`]) works on the typed state: the session's fields but the combatants and
//! the map are compared as JSON (they are small); the map, when it changed, is replaced whole;
//! each combatant that changed is diffed alone (most batches change one or two), without its
//! attack list while that is the same (shared, and it never changes in play). The result is
//! the RFC 6902 patch that turns the old view's JSON into the new one's, exactly.
//!
//! A kept view also keeps the JSON its last patch made of it (the session's fields, and each
//! combatant that changed), which the next patch reuses as its old side instead of converting
//! the same state again ([`Json`]): it always describes the kept state, being made from it, and
//! is dropped with it.

use crate::session::Session;
use fray_protocol::state::CombatantState;
use fray_protocol::{JsonPatch, SessionState};
use json_patch::{AddOperation, PatchOperation, ReplaceOperation};
use jsonptr::PointerBuf;
use serde_json::Value;

/// A view as last sent: its `seq` and its state, and the JSON of that state that the patch
/// which made it converted.
struct Kept {
    seq: u64,
    state: SessionState,
    json: Json,
}

/// JSON made of parts of a state: its session fields ([`patch`]'s shell, without the
/// combatants and the map), and per combatant (by index) its state without its attack list.
/// A part that was not converted is `None`.
#[derive(Default)]
struct Json {
    shell: Option<Value>,
    combatants: Vec<Option<Value>>,
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
        if self.slot(gm).as_ref().is_none_or(|k| k.seq != seq) {
            self.keep(seq, state.clone(), gm);
        }
        (seq, state)
    }

    /// Keeps `state` as an audience's view at `seq` (what [`Self::start`] does with the
    /// session's state; the `views` bench starts from a state of its own).
    pub fn keep(&mut self, seq: u64, state: SessionState, gm: bool) {
        *self.slot(gm) = Some(Kept {
            seq,
            state,
            json: Json::default(),
        });
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
        let (patch, json) = patch_reusing(&mut kept.state, &mut kept.json, &mut now);
        let from_seq = kept.seq;
        *slot = Some(Kept {
            seq,
            state: now,
            json,
        });
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
    patch_reusing(old, &mut Json::default(), new).0
}

/// [`patch`], taking what `old_json` holds of `old`'s JSON instead of converting it (it is
/// consumed), and returning with the patch what it converted of `new` — or carried over from
/// `old_json`, for a combatant that did not change — for the next patch to reuse.
fn patch_reusing(
    old: &mut SessionState,
    old_json: &mut Json,
    new: &mut SessionState,
) -> (JsonPatch, Json) {
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
    let old_shell = old_json.shell.take().unwrap_or_else(|| shell(old));
    let new_shell = shell(new);
    let mut ops = json_patch::diff(&old_shell, &new_shell).0;
    let mut json = Json {
        shell: Some(new_shell),
        combatants: Vec::new(),
    };
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
        return (JsonPatch(json_patch::Patch(ops)), json);
    }
    json.combatants.reserve(new.combatants.len());
    for (i, (a, b)) in old
        .combatants
        .iter_mut()
        .zip(new.combatants.iter_mut())
        .enumerate()
    {
        let kept = old_json.combatants.get_mut(i).and_then(Option::take);
        if a == b {
            // The same state, so the same JSON.
            json.combatants.push(kept);
            continue;
        }
        let (inner, b_json) = combatant_diff(a, kept, b);
        json.combatants.push(b_json);
        let prefix = PointerBuf::from_tokens(["combatants".to_string(), i.to_string()]);
        ops.extend(inner.into_iter().map(|op| under(&prefix, op)));
    }
    (JsonPatch(json_patch::Patch(ops)), json)
}

/// The diff of one combatant's JSON, and `b`'s JSON without its attacks when that is what was
/// diffed. Its attacks are shared (`Arc`) and seldom change: when they are the same they are
/// left out of both sides (taken out and put back, nothing cloned), so that neither is
/// converted nor compared field by field; `a_json`, when given, is `a`'s JSON without them.
fn combatant_diff(
    a: &mut CombatantState,
    a_json: Option<Value>,
    b: &mut CombatantState,
) -> (Vec<PatchOperation>, Option<Value>) {
    if a.attacks != b.attacks {
        return (json_patch::diff(&to_json(&*a), &to_json(&*b)).0, None);
    }
    let without_attacks = |c: &mut CombatantState| {
        let attacks = std::mem::take(&mut c.attacks);
        let v = to_json(&*c);
        c.attacks = attacks;
        v
    };
    let a_json = a_json.unwrap_or_else(|| without_attacks(a));
    let b_json = without_attacks(b);
    let ops = json_patch::diff(&a_json, &b_json).0;
    (ops, Some(b_json))
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

    /// Every built-in encounter of the rulesets `ids` played by their bot (the GM plays the
    /// monsters, one player every hero; later battles, new monsters and maps included) for up
    /// to `tries` commands: per fight its label and the state after each accepted command,
    /// starting with the state before the first.
    fn bot_fights(ids: &[&str], seed: u64, tries: u64) -> Vec<(String, Vec<SessionState>)> {
        let mut fights = Vec::new();
        for id in ids {
            let Some(bot) = ruleset(id).and_then(|r| r.bot) else {
                panic!("{id} has a bot");
            };
            for (name, text) in builtin_encounters(id) {
                let enc = load_encounter(name, text).unwrap();
                let mut e = new_engine(&enc, seed);
                let mut states = vec![e.state()];
                for salt in 0..tries {
                    let Some(last) = states.last() else { break };
                    let heroes = Role::Player {
                        name: "all".into(),
                        controls: last.combatants.iter().map(|c| c.id.clone()).collect(),
                    };
                    let Some(cmd) = bot(&Role::Gm, last, salt).or_else(|| bot(&heroes, last, salt))
                    else {
                        break;
                    };
                    if e.execute(&cmd).is_ok() {
                        states.push(e.state());
                    }
                }
                fights.push((format!("{id}/{name}"), states));
            }
        }
        fights
    }

    /// Checks at every command of bot-played fights that the patch turns the old view's JSON
    /// into the new one's, for the GM's view and the public one.
    #[test]
    fn a_patch_turns_each_views_json_into_the_next_in_bot_played_fights() {
        let mut checked = 0;
        for (label, states) in bot_fights(&["13th-age", "orcus"], 8, 400) {
            for (i, pair) in states.windows(2).enumerate() {
                let [last, now] = pair else { continue };
                for (mut a, mut b) in [
                    (last.clone(), now.clone()),
                    (last.redacted(), now.redacted()),
                ] {
                    let p = patch(&mut a, &mut b);
                    let mut json = to_json(&a);
                    assert_eq!(p.apply(&mut json), Ok(()), "{label} at {i}");
                    assert_eq!(json, to_json(&b), "{label} at {i}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }

    /// The session task's path: one `Views` kept across a bot-played fight, each patch made
    /// with the JSON that the previous one kept (`patch_reusing`). Each must turn the JSON of
    /// the view before it into the next one, for both audiences; a JSON kept for the wrong
    /// combatant or left stale would make one that does not.
    #[test]
    fn views_advanced_through_a_fight_patch_each_view_into_the_next_reusing_the_kept_json() {
        let mut checked = 0;
        let ids = ["13th-age", "orcus", "five-torches-deep", "ose"];
        for (label, states) in bot_fights(&ids, 11, 300) {
            let mut views = Views::default();
            if let Some(first) = states.first() {
                views.keep(0, first.clone(), true);
                views.keep(0, first.redacted(), false);
            }
            for (seq, pair) in (1u64..).zip(states.windows(2)) {
                let [last, now] = pair else { continue };
                for (gm, before, after) in [
                    (true, last.clone(), now.clone()),
                    (false, last.redacted(), now.redacted()),
                ] {
                    let Some(p) = views.advance(after.clone(), seq, gm) else {
                        panic!("{label}: no patch at {seq}");
                    };
                    let mut json = to_json(&before);
                    assert_eq!(p.patch.apply(&mut json), Ok(()), "{label} at {seq}");
                    assert_eq!(json, to_json(&after), "{label} at {seq}, gm {gm}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
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
