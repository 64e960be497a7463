//! Following a live session: the server's view of the state (a `snapshot`, then the
//! `view_patch`es of a `watch`), the sequence-number bookkeeping (gaps and duplicates are
//! reported, duplicates dropped), and narration. The client folds no event: the state it shows
//! is the server's view, brought up to date by the server's patches.
//!
//! Until the first snapshot arrives (a connection resumed with `resume_from` gets none before
//! its `watch` is answered) events are held back, so that they can be narrated with names.

use crate::narrate::{Roster, narrate};
use fray_protocol::{GameEvent, JsonPatch, SessionState};

/// How many events are held back waiting for the first snapshot before narrating with ids.
const HOLD_BACK: usize = 4096;

/// Something to show the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// A narrated event.
    Line {
        /// Its sequence number.
        seq: u64,
        /// The narration.
        text: String,
    },
    /// A sequence anomaly.
    Warning(String),
}

/// Session follower.
#[derive(Debug, Default)]
pub struct Tracker {
    /// The view as JSON (what patches apply to) and as the state it encodes.
    view: Option<(serde_json::Value, SessionState)>,
    view_seq: u64,
    last_seq: Option<u64>,
    roster: Roster,
    held: Vec<(u64, GameEvent)>,
}

/// A patch that does not fit the view held: ask for a fresh one (`watch` again).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stale(pub String);

impl Tracker {
    /// An empty tracker.
    pub fn new() -> Tracker {
        Tracker::default()
    }

    /// The view, once a snapshot arrived.
    pub fn state(&self) -> Option<&SessionState> {
        self.view.as_ref().map(|(_, s)| s)
    }

    /// The last event sequence number seen (or the resume point).
    pub fn last_seq(&self) -> Option<u64> {
        self.last_seq
    }

    /// The sequence number the view is at, once a snapshot arrived.
    pub fn view_seq(&self) -> Option<u64> {
        self.view.as_ref().map(|_| self.view_seq)
    }

    /// Whether the view includes every event seen.
    pub fn view_is_current(&self) -> bool {
        self.view.is_some() && self.last_seq.is_none_or(|last| self.view_seq >= last)
    }

    /// Starts counting after `seq` (e.g. `--resume-from`).
    pub fn set_last_seq(&mut self, seq: u64) {
        self.last_seq = Some(seq);
    }

    /// Takes the view as of `seq`; returns the narration of any events held back for it.
    pub fn on_snapshot(&mut self, seq: u64, state: SessionState) -> Vec<Output> {
        let json = serde_json::to_value(&state).unwrap_or_default();
        self.roster.refresh(&state);
        self.view = Some((json, state));
        self.view_seq = seq;
        if self.last_seq.is_none() {
            self.last_seq = Some(seq);
        }
        std::mem::take(&mut self.held)
            .into_iter()
            .map(|(seq, event)| self.narrate(seq, &event))
            .collect()
    }

    /// Brings the view from `from_seq` to `seq`. A patch for another view than the one held
    /// (one was missed, or none is held yet) is [`Stale`]: the view is left as it was.
    pub fn on_patch(&mut self, from_seq: u64, seq: u64, patch: &JsonPatch) -> Result<(), Stale> {
        let Some((json, _)) = &self.view else {
            return Err(Stale("a view patch before any snapshot".into()));
        };
        if from_seq != self.view_seq {
            return Err(Stale(format!(
                "a view patch from #{from_seq} for the view at #{}",
                self.view_seq
            )));
        }
        let mut next = json.clone();
        patch.apply(&mut next).map_err(|e| Stale(e.to_string()))?;
        let state: SessionState =
            serde_json::from_value(next.clone()).map_err(|e| Stale(e.to_string()))?;
        self.roster.refresh(&state);
        self.view = Some((next, state));
        self.view_seq = seq;
        Ok(())
    }

    /// Takes an event; returns what to show (possibly nothing while waiting for a snapshot).
    pub fn on_event(&mut self, seq: u64, event: GameEvent) -> Vec<Output> {
        let mut out = Vec::new();
        if let Some(last) = self.last_seq {
            if seq <= last {
                out.push(Output::Warning(format!(
                    "duplicate event #{seq} ignored (already saw up to #{last})"
                )));
                return out;
            }
            if seq != last + 1 {
                out.push(Output::Warning(format!(
                    "gap: expected event #{}, got #{seq} ({} missing)",
                    last + 1,
                    seq - last - 1
                )));
            }
        }
        self.last_seq = Some(seq);
        if self.view.is_none() && self.held.len() < HOLD_BACK {
            self.held.push((seq, event));
            return out;
        }
        out.push(self.narrate(seq, &event));
        out
    }

    fn narrate(&mut self, seq: u64, event: &GameEvent) -> Output {
        let text = narrate(event, &self.roster);
        self.roster.observe(event);
        Output::Line { seq, text }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fray_protocol::CombatantId;
    use fray_protocol::Side;
    use fray_protocol::state::{ActionsLeft, CombatantState, Defenses, LifeStatus, Phase};

    fn state() -> SessionState {
        SessionState {
            phase: Phase::Running,
            round: 1,
            ..SessionState::new(
                "13th-age",
                vec![CombatantState {
                    size: fray_protocol::grid::Size::Medium,
                    engaged_with: Vec::new(),
                    far_away: false,
                    stabilized: false,
                    expended: Vec::new(),
                    interrupt_used: false,
                    potions: 0,
                    dropped: false,
                    lasting_wounds: 0,
                    coma: false,
                    rested: false,
                    grid: None,
                    ftd: None,
                    ose: None,
                    id: CombatantId::new("brakka"),
                    name: "Brakka".into(),
                    side: Side::Heroes,
                    template: "fighter".into(),
                    level: 1,
                    hp: Some(30),
                    max_hp: Some(30),
                    temp_hp: 0,
                    staggered: false,
                    status: LifeStatus::Conscious,
                    defenses: Defenses {
                        ac: 17,
                        pd: 13,
                        md: 11,
                    },
                    initiative: None,
                    actions: ActionsLeft::NONE,
                    effects: vec![],
                    recoveries: 8,
                    recovery_penalty: 0,
                    death_save_failures: 0,
                    rallies: 0,
                    rally_barred_round: None,
                    attacks: Default::default(),
                }],
            )
        }
    }

    fn turn(round: u32) -> GameEvent {
        GameEvent::TurnStarted {
            combatant: CombatantId::new("brakka"),
            round,
        }
    }

    fn lines(out: &[Output]) -> Vec<&str> {
        out.iter()
            .map(|o| match o {
                Output::Line { text, .. } => text.as_str(),
                Output::Warning(w) => w.as_str(),
            })
            .collect()
    }

    #[test]
    fn gaps_and_duplicates_are_reported() {
        let mut t = Tracker::new();
        t.on_snapshot(5, state());
        assert_eq!(t.on_event(6, turn(1)).len(), 1);
        let dup = t.on_event(6, turn(1));
        assert!(matches!(&dup[..], [Output::Warning(w)] if w.contains("duplicate")));
        let gap = t.on_event(9, turn(2));
        assert!(matches!(&gap[0], Output::Warning(w) if w.contains("expected event #7")));
        assert!(matches!(&gap[1], Output::Line { seq: 9, .. }));
        assert_eq!(t.last_seq(), Some(9));
    }

    #[test]
    fn events_wait_for_names() {
        let mut t = Tracker::new();
        t.set_last_seq(3);
        assert!(t.on_event(4, turn(1)).is_empty());
        // A snapshot newer than the held event: it is narrated but not applied again.
        let mut s = state();
        s.round = 7;
        let out = t.on_snapshot(10, s);
        assert_eq!(lines(&out), vec!["--- Brakka's turn (round 1) ---"]);
        assert_eq!(t.state().map(|s| s.round), Some(7));
        assert_eq!(t.last_seq(), Some(4));
    }

    #[test]
    fn the_view_follows_the_servers_patches_and_refuses_one_for_another_view() {
        let mut t = Tracker::new();
        let before = state();
        t.on_snapshot(5, before.clone());
        let mut after = before.clone();
        after.round = 2;
        after.combatants[0].hp = Some(21);
        let json = |s: &SessionState| serde_json::to_value(s).unwrap_or_default();
        let patch = JsonPatch::diff(&json(&before), &json(&after));
        assert_eq!(t.on_patch(5, 9, &patch), Ok(()));
        assert_eq!(t.state(), Some(&after));
        // The same patch again is for the view at #5, not #9: refused, nothing changes.
        assert!(t.on_patch(5, 12, &patch).is_err());
        assert_eq!(t.state(), Some(&after));
    }

    #[test]
    fn the_view_is_current_once_a_patch_covers_every_event_seen() {
        let mut t = Tracker::new();
        t.on_snapshot(5, state());
        assert!(t.view_is_current());
        t.on_event(6, turn(1));
        assert!(!t.view_is_current());
        assert_eq!(t.on_patch(5, 6, &JsonPatch::default()), Ok(()));
        assert!(t.view_is_current());
    }
}
