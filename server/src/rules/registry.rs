//! The ruleset registry: one row per ruleset, the only place that lists them. Shared code (the
//! engine, the session, content loading) asks a ruleset's row and never matches on its id.

use super::{basic_fantasy, five_torches, orcus, ose, thirteenth_age};
use crate::content::file::Ctx;
use crate::content::model::{CombatantSpec, Encounter};
use crate::content::{ContentError, parse_toml};
use bevy_ecs::schedule::Schedule;
use bevy_ecs::world::{EntityRef, EntityWorldMut, World};
use fray_protocol::event::SaveDifficulty;
use fray_protocol::ids::{CombatantId, Role};
use fray_protocol::state::{AttackSummary, CombatantState, SessionState};
use fray_protocol::{Command, CommandPreview, Family, GameEvent, LegalAction, Rejection};

/// A built-in policy: the next command for a role in a state (the salt varies its choices).
pub type BotPolicy = fn(&Role, &SessionState, u64) -> Option<Command>;

/// What a command would cover in a session world (`Engine::preview`): computed by the
/// ruleset's own decide code, reading the world only — no die drawn, no event, no component
/// changed.
pub type PreviewFn = fn(&mut World, &Command) -> Result<CommandPreview, Rejection>;

/// One row per ruleset: what the shared code needs to know of it. The engine and the session
/// consult this table and never match on a ruleset id.
#[derive(Debug, Clone, Copy)]
pub struct Ruleset {
    /// The id content files and log headers name (`ruleset = "orcus"`).
    pub id: &'static str,
    /// The rules version, recorded in every log's genesis: bumped when a rule change alters
    /// outcomes, so that `fray verify` can say which rules a recording was decided under.
    pub version: u32,
    /// The family whose own commands and events the ruleset plays (the protocol's namespace).
    pub family: Family,
    /// Adds the ruleset's decide systems to a session's schedule.
    pub add_systems: fn(&mut Schedule),
    /// Loads an encounter file of this ruleset (`name` names the file in errors).
    pub load_encounter: fn(&str, &str) -> Result<Encounter, ContentError>,
    /// The built-in party and bestiary: (file name, TOML text).
    pub builtin_files: &'static [(&'static str, &'static str)],
    /// The built-in encounters: (name, TOML text).
    pub builtin_encounters: &'static [(&'static str, &'static str)],
    /// The built-in policy that plays a seat (the demo bots): the next command for a role in a
    /// state, if any; `None` for a ruleset the bots do not play.
    pub bot: Option<BotPolicy>,
    /// The candidates for the legal actions: the commands the ruleset offers one combatant
    /// (`Some`) or the GM's session commands (`None`), built from the GM's view of the state;
    /// the engine keeps those its decide accepts (`Engine::legal_actions`).
    pub actions: fn(&SessionState, Option<&CombatantId>) -> Vec<LegalAction>,
    /// What a command would cover (its area, its path, whom it affects), for the clients'
    /// previews (`preview`); `None` for a ruleset with nothing to show on a map.
    pub preview: Option<PreviewFn>,
    /// Folds an event of the ruleset's family (`GameEvent::Orcus(..)`, …): `engine::apply`
    /// hands each family event to its family's [`owner`], whatever the session's ruleset.
    pub apply: fn(&mut World, &GameEvent),
    /// In a session of this ruleset: what an event changes in the ruleset's own components and
    /// resources beyond the shared fold. `engine::apply` calls it for every event, after that
    /// fold (and after the family's `apply`).
    pub after_apply: fn(&mut World, &GameEvent),
    /// The ruleset's own components and resources in a session world: `engine::world` builds,
    /// reads and restores the shared parts and calls these for the rest.
    pub parts: Parts,
    /// How a combatant takes its place in the order of battle (the GM's `add_combatant` and
    /// `set_initiative`, `rules/common/overrides.rs`).
    pub initiative: InitiativeRule,
    /// The conditions the GM's `add_condition`/`remove_condition` set.
    pub conditions: Conditions,
}

/// How a ruleset places combatants in the order of battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InitiativeRule {
    /// Each combatant rolls d20 + its initiative bonus; higher first. `shared`: monsters of one
    /// template share one result (13th Age § Initiative), so a reinforcement of a template
    /// already in the fight takes that result.
    RollD20 {
        /// Monsters of one template share a result.
        shared: bool,
    },
    /// Each combatant's score is its initiative number (Five Torches Deep: DEX); higher first.
    Score,
    /// Initiative is rolled per side each round: a combatant acts with its side.
    PerSide,
}

/// The conditions a ruleset tracks, for the GM's condition overrides.
#[derive(Debug, Clone, Copy)]
pub enum Conditions {
    /// The common effects (`effect_applied`/`effect_ended`) with these conditions, run by the
    /// ruleset's own turn machinery (saves, ends of turns, the end of the battle).
    Effects(
        &'static [fray_protocol::event::Condition],
        &'static [fray_protocol::event::SaveDifficulty],
    ),
    /// The ruleset's own conditions (these wire names), which its decide sets and clears.
    Own(&'static [&'static str]),
    /// None.
    None,
}

impl Conditions {
    /// The wire names of the conditions the GM may add and remove (none where the ruleset
    /// tracks none).
    pub fn names(&self) -> Vec<String> {
        match self {
            Conditions::Effects(valid, _) => valid
                .iter()
                .filter_map(|c| {
                    serde_json::to_value(c)
                        .ok()
                        .and_then(|v| v.as_str().map(String::from))
                })
                .collect(),
            Conditions::Own(names) => names.iter().map(|n| n.to_string()).collect(),
            Conditions::None => Vec::new(),
        }
    }
}

/// A ruleset's own parts of a session world (its components and resources), as
/// `engine::world` builds, reads and restores them. Each ruleset's are in its `world.rs`.
#[derive(Debug, Clone, Copy)]
pub struct Parts {
    /// Inserts the ruleset's resources into a fresh world, after the shared ones.
    pub insert_resources: fn(&mut World, &Encounter),
    /// Inserts the ruleset's components into a combatant being spawned, after the shared ones.
    pub spawn: fn(&mut EntityWorldMut<'_>, &CombatantSpec),
    /// A combatant's attacks as its state shows them; asked once, when it is spawned (the
    /// shared `AttackList` component keeps them).
    pub attacks: fn(&EntityRef<'_>) -> Vec<AttackSummary>,
    /// Fills the ruleset's parts of a combatant's state: its own block.
    pub read: fn(&EntityRef<'_>, &mut CombatantState),
    /// Fills the ruleset's parts of the session state.
    pub read_session: fn(&World, &mut SessionState),
    /// Restores the ruleset's components of a combatant from its state; `None` when they do
    /// not fit.
    pub restore: fn(&mut EntityWorldMut<'_>, &CombatantState) -> Option<()>,
    /// Restores the ruleset's resources from the session state.
    pub restore_session: fn(&mut World, &SessionState),
    /// A ruleset whose combatants stand on squares: puts a stat block at a square (the fold of
    /// a GM reinforcement's `combatant_added`). `None`: the ruleset has no squares, and a
    /// reinforcement names none. Such a ruleset's own decide decides `add_combatant` (it checks
    /// the square against its map, `rules/common/overrides.rs::add_combatant`).
    pub place: Option<fn(&mut CombatantSpec, fray_protocol::grid::Square)>,
}

impl Parts {
    /// No parts of its own: what a ruleset whose state is all shared fills in
    /// (`Parts { read, ..Parts::NONE }`).
    pub const NONE: Parts = Parts {
        insert_resources: |_, _| {},
        spawn: |_, _| {},
        attacks: |_| Vec::new(),
        read: |_, _| {},
        read_session: |_, _| {},
        restore: |_, _| Some(()),
        restore_session: |_, _| {},
        place: None,
    };
}

/// The rulesets this build plays.
pub const RULESETS: &[Ruleset] = &[
    Ruleset {
        id: thirteenth_age::ID,
        version: thirteenth_age::VERSION,
        family: Family::ThirteenthAge,
        add_systems: thirteenth_age::add_systems,
        load_encounter: thirteenth_age::content::load_encounter,
        builtin_files: thirteenth_age::content::BUILTIN,
        builtin_encounters: thirteenth_age::content::ENCOUNTERS,
        bot: Some(thirteenth_age::bot::choose),
        actions: thirteenth_age::actions::candidates,
        preview: None,
        apply: thirteenth_age::apply::apply_event,
        after_apply: thirteenth_age::apply::after_apply,
        parts: thirteenth_age::world::PARTS,
        initiative: InitiativeRule::RollD20 { shared: true },
        conditions: Conditions::Effects(
            thirteenth_age::rules::GM_CONDITIONS,
            &[
                SaveDifficulty::Easy,
                SaveDifficulty::Normal,
                SaveDifficulty::Hard,
            ],
        ),
    },
    Ruleset {
        id: orcus::ID,
        version: orcus::VERSION,
        family: Family::Orcus,
        add_systems: orcus::add_systems,
        load_encounter: orcus::content::load_encounter,
        builtin_files: orcus::content::BUILTIN,
        builtin_encounters: orcus::content::ENCOUNTERS,
        bot: Some(orcus::bot::choose),
        actions: orcus::actions::candidates,
        preview: Some(orcus::preview::preview),
        apply: orcus::apply::apply_event,
        after_apply: orcus::apply::after_apply,
        parts: orcus::world::PARTS,
        initiative: InitiativeRule::RollD20 { shared: false },
        conditions: Conditions::Effects(orcus::rules::GM_CONDITIONS, &[SaveDifficulty::TenPlus]),
    },
    Ruleset {
        id: five_torches::ID,
        version: five_torches::VERSION,
        family: Family::FiveTorches,
        add_systems: five_torches::add_systems,
        load_encounter: five_torches::content::load_encounter,
        builtin_files: five_torches::content::BUILTIN,
        builtin_encounters: five_torches::content::ENCOUNTERS,
        bot: Some(five_torches::bot::choose),
        actions: five_torches::actions::candidates,
        preview: None,
        apply: five_torches::apply::apply_event,
        after_apply: five_torches::apply::after_apply,
        parts: five_torches::world::PARTS,
        initiative: InitiativeRule::Score,
        conditions: Conditions::None,
    },
    Ruleset {
        id: ose::ID,
        version: ose::VERSION,
        family: Family::Bx,
        add_systems: ose::add_systems,
        load_encounter: ose::content::load_encounter,
        builtin_files: ose::content::BUILTIN,
        builtin_encounters: ose::content::ENCOUNTERS,
        bot: Some(ose::bot::choose),
        actions: ose::actions::candidates,
        preview: None,
        apply: ose::apply::apply_event,
        after_apply: ose::apply::after_apply,
        parts: ose::world::PARTS,
        initiative: InitiativeRule::PerSide,
        conditions: Conditions::Own(ose::GM_CONDITIONS),
    },
    Ruleset {
        id: basic_fantasy::ID,
        version: basic_fantasy::VERSION,
        family: Family::Bx,
        add_systems: basic_fantasy::add_systems,
        load_encounter: ose::content::load_encounter,
        builtin_files: ose::content::BUILTIN,
        builtin_encounters: ose::content::BASIC_FANTASY_ENCOUNTERS,
        bot: Some(ose::bot::choose),
        actions: ose::actions::candidates,
        preview: None,
        apply: ose::apply::apply_event,
        after_apply: ose::apply::after_apply,
        parts: ose::world::PARTS,
        initiative: InitiativeRule::PerSide,
        conditions: Conditions::Own(ose::GM_CONDITIONS),
    },
];

/// The row of a ruleset id; `None` for an id this build does not play.
pub fn ruleset(id: &str) -> Option<&'static Ruleset> {
    RULESETS.iter().find(|r| r.id == id)
}

/// The row that folds a family's own events: the first of that family (the B/X rows share one
/// fold).
pub fn owner(family: Family) -> Option<&'static Ruleset> {
    RULESETS.iter().find(|r| r.family == family)
}

/// The version of a ruleset.
pub fn version(id: &str) -> Option<u32> {
    ruleset(id).map(|r| r.version)
}

/// The ids of the rulesets this build plays, in table order.
pub fn ids() -> Vec<&'static str> {
    RULESETS.iter().map(|r| r.id).collect()
}

/// Loads an encounter from TOML text with the loader of the ruleset it names. `name` names the
/// file in error messages (syntax errors with line and column).
pub fn load_encounter(name: &str, text: &str) -> Result<Encounter, ContentError> {
    #[derive(serde::Deserialize)]
    struct Head {
        ruleset: Option<String>,
    }
    let head: Head = parse_toml(name, text)?;
    let ctx = Ctx { file: name };
    let Some(id) = head.ruleset else {
        return Err(ctx.err(
            "ruleset",
            "an encounter names its ruleset (e.g. ruleset = \"13th-age\")",
        ));
    };
    let row = ruleset(&id).ok_or_else(|| {
        ctx.err(
            "ruleset",
            format!(
                "unknown ruleset '{id}' (this server runs: {})",
                ids().join(", ")
            ),
        )
    })?;
    (row.load_encounter)(name, text)
}

/// The built-in content of a ruleset: (file name, TOML text); none for an unknown ruleset.
pub fn builtin_files(id: &str) -> &'static [(&'static str, &'static str)] {
    ruleset(id).map_or(&[], |r| r.builtin_files)
}

/// Built-in encounters of a ruleset: (name, TOML text); none for an unknown ruleset.
pub fn builtin_encounters(id: &str) -> &'static [(&'static str, &'static str)] {
    ruleset(id).map_or(&[], |r| r.builtin_encounters)
}
