//! Candidates for the legal actions (`Engine::legal_actions`): the commands a ruleset offers a
//! seat, built from the state. A candidate is only a question — the engine keeps it only when the
//! ruleset's own decide accepts it (`Engine::check`) — so a generator may offer more than is
//! legal, never less than a player would want to see. This file builds the common commands'
//! candidates; each ruleset's `actions.rs` adds its family's and picks which common ones apply.

use fray_protocol::command::AttackMode;
use fray_protocol::event::ActionKind;
use fray_protocol::ids::CombatantId;
use fray_protocol::state::{AttackSummary, CombatantState, LifeStatus};
use fray_protocol::{Command, LegalAction, SessionState};

/// A candidate for a combatant's command.
pub fn act(actor: &CombatantId, group: &str, label: &str, command: Command) -> LegalAction {
    LegalAction {
        actor: Some(actor.clone()),
        group: group.to_string(),
        label: label.to_string(),
        command,
    }
}

/// A candidate for one of the GM's session commands (no actor).
pub fn gm(group: &str, label: &str, command: Command) -> LegalAction {
    LegalAction {
        actor: None,
        group: group.to_string(),
        label: label.to_string(),
        command,
    }
}

/// The combatants a command could name as its target besides the actor: everyone still in the
/// battle (out-of-the-fight ones only where `out` says so).
pub fn others<'a>(
    s: &'a SessionState,
    me: &'a CombatantId,
    out: bool,
) -> impl Iterator<Item = &'a CombatantState> + 'a {
    s.combatants
        .iter()
        .filter(move |c| &c.id != me && (out || !c.status.is_out()))
}

/// An attack command with the common defaults, one target.
pub fn attack(
    actor: &CombatantId,
    attack: &str,
    target: &CombatantId,
    mode: AttackMode,
) -> Command {
    Command::Attack {
        actor: actor.clone(),
        attack: attack.to_string(),
        targets: vec![target.clone()],
        mode,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    }
}

/// Each of the combatant's attacks against each other combatant, one target at a time (an
/// attack with several targets takes any of the listed ones together, up to its
/// `max_targets`): on its turn (`standard`), as an opportunity attack against a combatant that
/// provoked it, and as a coup de grace against a helpless one.
pub fn attacks(s: &SessionState, me: &CombatantState) -> Vec<LegalAction> {
    attacks_of(s, me, |_| true)
}

/// [`attacks`] with the attacks `which` keeps only (Orcus leaves its area powers to their own
/// command).
pub fn attacks_of(
    s: &SessionState,
    me: &CombatantState,
    which: impl Fn(&AttackSummary) -> bool,
) -> Vec<LegalAction> {
    let mut out = Vec::new();
    for a in me.attacks.iter().filter(|a| which(a)) {
        for t in others(s, &me.id, false) {
            out.push(act(
                &me.id,
                &a.name,
                &t.name,
                attack(&me.id, &a.id, &t.id, AttackMode::Standard),
            ));
            if s.opportunities
                .iter()
                .any(|(by, from)| by == &me.id && from == &t.id)
            {
                let group = format!("{} (opportunity attack)", a.name);
                out.push(act(
                    &me.id,
                    &group,
                    &t.name,
                    attack(&me.id, &a.id, &t.id, AttackMode::Opportunity),
                ));
            }
            if t.status != LifeStatus::Conscious || !t.effects.is_empty() {
                let group = format!("{} (coup de grace)", a.name);
                out.push(act(
                    &me.id,
                    &group,
                    &t.name,
                    attack(&me.id, &a.id, &t.id, AttackMode::CoupDeGrace),
                ));
            }
        }
    }
    out
}

/// The shared turn commands: end the turn, rally, ready a standard or a move action.
pub fn turn(me: &CombatantState) -> Vec<LegalAction> {
    let id = &me.id;
    vec![
        act(id, "End turn", "", Command::EndTurn { actor: id.clone() }),
        act(id, "Rally", "", Command::Rally { actor: id.clone() }),
        act(
            id,
            "Ready",
            "standard action",
            Command::Ready {
                actor: id.clone(),
                action: ActionKind::Standard,
            },
        ),
        act(
            id,
            "Ready",
            "move action",
            Command::Ready {
                actor: id.clone(),
                action: ActionKind::Move,
            },
        ),
    ]
}

/// Moving in the abstract positions (13th Age, Five Torches Deep): engage each other combatant,
/// move away nearby, or far away.
pub fn moves(s: &SessionState, me: &CombatantState) -> Vec<LegalAction> {
    let id = &me.id;
    let mv = |engage: Option<CombatantId>, far_away: bool| Command::Move {
        actor: id.clone(),
        engage,
        far_away,
    };
    let mut out: Vec<LegalAction> = others(s, id, false)
        .map(|t| act(id, "Engage", &t.name, mv(Some(t.id.clone()), false)))
        .collect();
    out.push(act(id, "Move", "nearby", mv(None, false)));
    out.push(act(id, "Move", "far away", mv(None, true)));
    out
}

/// Help for the fallen: stabilize each unconscious combatant; let go of each grabbed one.
pub fn help_and_release(s: &SessionState, me: &CombatantState) -> Vec<LegalAction> {
    let id = &me.id;
    let mut out = Vec::new();
    for t in others(s, id, false) {
        if t.status == LifeStatus::Unconscious {
            let cmd = Command::Stabilize {
                actor: id.clone(),
                target: t.id.clone(),
            };
            out.push(act(id, "Stabilize", &t.name, cmd));
        }
        if !t.effects.is_empty() {
            let cmd = Command::LetGo {
                actor: id.clone(),
                target: t.id.clone(),
            };
            out.push(act(id, "Let go", &t.name, cmd));
        }
    }
    out
}

/// After a battle with rests: a quick rest spending each possible number of recoveries.
pub fn rests(me: &CombatantState) -> Vec<LegalAction> {
    let top = u32::try_from(me.recoveries.clamp(0, 4)).unwrap_or(0);
    (0..=top)
        .map(|n| {
            let label = match n {
                1 => "1 recovery".to_string(),
                n => format!("{n} recoveries"),
            };
            let cmd = Command::QuickRest {
                actor: me.id.clone(),
                recoveries: n,
            };
            act(&me.id, "Quick rest", &label, cmd)
        })
        .collect()
}

/// The GM's shared session commands: start, end, the rests and the next battle, flee.
pub fn session() -> Vec<LegalAction> {
    vec![
        gm("Start battle", "", Command::StartBattle),
        gm("End battle", "", Command::EndBattle),
        gm("Full heal-up", "", Command::FullHealUp),
        gm("Next battle", "", Command::NextBattle),
        gm("End session", "", Command::EndSession),
        gm("Flee", "", Command::Flee),
    ]
}

/// The GM's overrides (`rules/common/overrides.rs`), after its session commands: every
/// combatant's hit points back to full, each of the ruleset's conditions added (until the
/// battle ends) and removed, its removal, its initiative first or last in the order (where the
/// ruleset's initiative is per combatant), and a reinforcement of each of the session's stat
/// blocks (`templates`; a ruleset with squares offers its own, with squares). The ruleset's
/// registry row says which apply; the engine keeps those decide accepts.
pub fn overrides(
    s: &SessionState,
    row: &crate::rules::registry::Ruleset,
    templates: &[String],
) -> Vec<LegalAction> {
    use crate::rules::registry::InitiativeRule;
    let mut out = Vec::new();
    let conditions = row.conditions.names();
    let results: Vec<i32> = s.combatants.iter().filter_map(|c| c.initiative).collect();
    let first = results.iter().max().map(|r| (r + 1).min(100));
    let last = results.iter().min().map(|r| (r - 1).max(-100));
    for c in &s.combatants {
        if let Some(max) = c.max_hp.filter(|m| c.hp != Some(*m)) {
            let full = Command::SetHp {
                target: c.id.clone(),
                hp: max,
                temp_hp: None,
            };
            out.push(gm(
                "Set hit points",
                &format!("{}: full ({max})", c.name),
                full,
            ));
        }
        for name in &conditions {
            let add = Command::AddCondition {
                target: c.id.clone(),
                condition: name.clone(),
                duration: None,
                source: None,
            };
            out.push(gm("Add condition", &format!("{}: {name}", c.name), add));
            if !has_condition(row, c, name) {
                continue;
            }
            let remove = Command::RemoveCondition {
                target: c.id.clone(),
                condition: name.clone(),
            };
            out.push(gm(
                "Remove condition",
                &format!("{}: {name}", c.name),
                remove,
            ));
        }
        let remove = Command::RemoveCombatant {
            combatant: c.id.clone(),
        };
        out.push(gm("Remove combatant", &c.name, remove));
        if row.initiative != InitiativeRule::PerSide {
            for (at, initiative) in [("first", first), ("last", last)] {
                let Some(initiative) = initiative else {
                    continue;
                };
                let set = Command::SetInitiative {
                    combatant: c.id.clone(),
                    initiative,
                };
                out.push(gm("Set initiative", &format!("{}: {at}", c.name), set));
            }
        }
    }
    if row.parts.place.is_none() {
        for template in templates {
            let add = Command::AddCombatant {
                template: template.clone(),
                square: None,
            };
            out.push(gm("Add combatant", template, add));
        }
    }
    out
}

/// Whether `c` may have the condition `name` to remove: in a ruleset whose conditions are the
/// common effects, only when one of its effects is that condition (fewer candidates to check);
/// a ruleset's own conditions are left to its decide.
fn has_condition(row: &crate::rules::registry::Ruleset, c: &CombatantState, name: &str) -> bool {
    use crate::rules::registry::Conditions;
    match row.conditions {
        Conditions::Effects(..) => c.effects.iter().any(|e| {
            matches!(e.kind, fray_protocol::event::EffectKind::Condition(k)
                if serde_json::to_value(k).ok().and_then(|v| v.as_str().map(|n| n == name)) == Some(true))
        }),
        _ => true,
    }
}
