//! Basic Fantasy (`basic-fantasy-adventures.txt`) on the shared B/X core: the wire types of
//! retainers, experience, travel, encumbrance and timed effects, and the session's Basic
//! Fantasy bookkeeping (`OseBattle::bf`), folded from the events by [`BfState::fold`].

use crate::BxEvent;
use crate::event::GameEvent;
use crate::ids::CombatantId;
use serde::{Deserialize, Serialize};

/// § Retainers: the result of the hiring reaction roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Hiring {
    /// 2 or less: refusal, −1 on further rolls (in that town or region).
    RefusalWithPenalty,
    /// 3–5: refusal.
    Refusal,
    /// 6–8: try again (with a better offer; otherwise a refusal).
    TryAgain,
    /// 9–11: acceptance.
    Acceptance,
    /// 12 or more: acceptance, +1 to loyalty.
    AcceptanceLoyal,
}

impl Hiring {
    /// The retainer is hired.
    pub fn hired(self) -> bool {
        matches!(self, Hiring::Acceptance | Hiring::AcceptanceLoyal)
    }
}

/// § Movement and Encumbrance: the armor column of the movement table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ArmorType {
    /// No armor or magic leather (OSE § Optional Rule: Encumbrance: unarmored).
    #[serde(alias = "unarmored")]
    None,
    /// Leather armor or magic metal (OSE: light armor).
    #[serde(alias = "light")]
    Leather,
    /// Metal armor (OSE: heavy armor).
    #[serde(alias = "heavy")]
    Metal,
}

/// § Overland Travel: the terrain table. The first four are Basic Fantasy's classes; the rest
/// are Old-School Essentials' own terrains (§ Wilderness Adventuring), which a `basic-fantasy`
/// session reads by their class (`bf_class`). In an `ose` session each is itself (`jungle`
/// the jungle, `forest` the forest or woods).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    /// Jungle, mountains, swamp: ×1/3 (OSE: jungle).
    Jungle,
    /// Desert, forest, hills: ×2/3 (OSE: forest, also written `woods`).
    #[serde(alias = "woods")]
    Forest,
    /// Clear, plains, trail: ×1.
    Clear,
    /// Paved road: ×1⅓ (OSE: maintained roads).
    Road,
    /// OSE: grasslands (Basic Fantasy's clear class).
    Grasslands,
    /// OSE: barren or broken lands, also written `broken` (Basic Fantasy's forest class).
    #[serde(alias = "broken")]
    Barren,
    /// OSE: hills (Basic Fantasy's forest class).
    Hills,
    /// OSE: mountains (Basic Fantasy's jungle class).
    Mountains,
    /// OSE: desert (Basic Fantasy's forest class).
    Desert,
    /// OSE: swamp (Basic Fantasy's jungle class).
    Swamp,
    /// OSE: settled lands or a city, also written `city` (Basic Fantasy's clear class).
    #[serde(alias = "city")]
    Settled,
}

impl Terrain {
    /// Basic Fantasy § Overland Travel: the terrain's class in its table (jungle, mountains,
    /// swamp; desert, forest, hills — with barren lands —; clear, plains — with grasslands and
    /// settled lands —; road).
    pub fn bf_class(self) -> Terrain {
        match self {
            Terrain::Jungle | Terrain::Mountains | Terrain::Swamp => Terrain::Jungle,
            Terrain::Forest | Terrain::Barren | Terrain::Hills | Terrain::Desert => Terrain::Forest,
            Terrain::Clear | Terrain::Grasslands | Terrain::Settled => Terrain::Clear,
            Terrain::Road => Terrain::Road,
        }
    }
}

/// How the party spends a day (§ Overland Travel; § Traveling by Air).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum March {
    /// A day of rest ("restarts" the forced-march progression).
    Rest,
    /// An 8-hour day of travel.
    #[default]
    Normal,
    /// A forced march: 12 hours, +50% distance; every day after the first costs 1d6 (a save
    /// vs. Death Ray with the CON bonus avoids it, until one fails).
    Forced,
    /// By air: twice the overland rate, terrain ignored.
    Air,
    /// Old-School Essentials § Travel on the Water: by boat or ship (`pass_day`'s `water`).
    Water,
}

/// § Waterborne Travel: the d12 wind direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WindDirection {
    /// 1.
    Northerly,
    /// 2.
    Northeasterly,
    /// 3.
    Easterly,
    /// 4.
    Southeasterly,
    /// 5.
    Southerly,
    /// 6.
    Southwesterly,
    /// 7.
    Westerly,
    /// 8.
    Northwesterly,
    /// 9–12: the prevailing wind direction for the locale.
    Prevailing,
}

impl WindDirection {
    /// The table's row for a d12.
    pub fn from_d12(n: u32) -> WindDirection {
        match n {
            1 => WindDirection::Northerly,
            2 => WindDirection::Northeasterly,
            3 => WindDirection::Easterly,
            4 => WindDirection::Southeasterly,
            5 => WindDirection::Southerly,
            6 => WindDirection::Southwesterly,
            7 => WindDirection::Westerly,
            8 => WindDirection::Northwesterly,
            _ => WindDirection::Prevailing,
        }
    }
}

/// § Waterborne Travel: the d% wind conditions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WindConditions {
    /// 01–05: sailing ships cannot move (oared ships row).
    Becalmed,
    /// 06–13.
    VeryLightBreeze,
    /// 14–25.
    LightBreeze,
    /// 26–40.
    ModerateBreeze,
    /// 41–70.
    AverageWinds,
    /// 71–85.
    StrongWinds,
    /// 86–96: tacking is not possible.
    VeryStrongWinds,
    /// 97–00: no tacking; exposed ships take 2d8 damage per hour sailed.
    Gale,
}

impl WindConditions {
    /// The table's row for a d% (1..=100; 100 is "00").
    pub fn from_d100(n: u32) -> WindConditions {
        match n {
            0..=5 => WindConditions::Becalmed,
            6..=13 => WindConditions::VeryLightBreeze,
            14..=25 => WindConditions::LightBreeze,
            26..=40 => WindConditions::ModerateBreeze,
            41..=70 => WindConditions::AverageWinds,
            71..=85 => WindConditions::StrongWinds,
            86..=96 => WindConditions::VeryStrongWinds,
            _ => WindConditions::Gale,
        }
    }

    /// The movement multipliers (sailing with the wind, tacking against it) as
    /// (numerator, denominator).
    pub fn multipliers(self) -> ((u32, u32), (u32, u32)) {
        match self {
            WindConditions::Becalmed => ((0, 1), (0, 1)),
            WindConditions::VeryLightBreeze => ((1, 3), (0, 1)),
            WindConditions::LightBreeze => ((1, 2), (1, 3)),
            WindConditions::ModerateBreeze => ((2, 3), (1, 3)),
            WindConditions::AverageWinds => ((1, 1), (1, 2)),
            WindConditions::StrongWinds => ((4, 3), (2, 3)),
            WindConditions::VeryStrongWinds => ((3, 2), (0, 1)),
            WindConditions::Gale => ((2, 1), (0, 1)),
        }
    }
}

/// Basic Fantasy § Waterborne Travel: how a vessel went on a day (`sailed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Propulsion {
    /// Under sail, with the wind's multiplier.
    Sail,
    /// By oar, at the rowing rate (the wind does not matter).
    Oars,
    /// Neither: becalmed (or tacking in a wind that allows none) with no oars.
    Adrift,
}

/// A retainer in the session (hired with `hire_retainer`, or `retainer_of` in the content).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Retainer {
    /// The retainer.
    pub retainer: CombatantId,
    /// The employer.
    pub employer: CombatantId,
    /// Loyalty (7 + the employer's CHA bonus, +1 on a hiring roll of 12+, +1 per natural 2).
    pub loyalty: i32,
    /// Left the employer's service (a failed loyalty check after an adventure).
    pub left: bool,
}

/// A timed effect counted in exploration turns (§ Time and Scale: 10-minute turns).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TimedEffect {
    /// Its id (1, 2, … in the session).
    pub id: u32,
    /// What it is (e.g. a spell's name).
    pub name: String,
    /// On whom, if anyone.
    pub combatant: Option<CombatantId>,
    /// Turns left.
    pub turns_left: u32,
}

/// The session's Basic Fantasy bookkeeping.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BfState {
    /// Retainers hired or loaded, with their loyalty.
    pub retainers: Vec<Retainer>,
    /// Employers with the −1 of a hiring roll of 2 or less (in this town or region).
    pub hiring_penalty: Vec<CombatantId>,
    /// Experience points gained this adventure, per character (added to its content `xp`).
    pub xp_gained: Vec<(CombatantId, u32)>,
    /// Movement per round set by `set_encumbrance`, per character.
    pub movement: Vec<(CombatantId, i32)>,
    /// Timed effects running.
    pub effects: Vec<TimedEffect>,
    /// The next timed effect's id.
    pub next_effect: u32,
    /// Days passed.
    pub day: u32,
    /// Consecutive days of forced march.
    pub forced_days: u32,
    /// Those whose forced-march save failed once (no further saves until a day of rest).
    pub march_save_failed: Vec<CombatantId>,
    /// Monsters whose experience was awarded (each counts once).
    pub xp_counted: Vec<CombatantId>,
    /// Days without enough food, per character.
    pub unfed: Vec<(CombatantId, u32)>,
    /// Days without enough water, per character.
    pub thirsty: Vec<(CombatantId, u32)>,
    /// § Character Advancement: characters whose level was raised this adventure (one level at
    /// most).
    #[serde(default)]
    pub levels_raised: Vec<CombatantId>,
    /// Old-School Essentials § Wilderness Adventuring, Resting: days of travel since the last
    /// day of rest (`pass_day`; counted in both rulesets, read in `ose` sessions only).
    #[serde(default)]
    pub travel_days: u32,
}

fn bump(v: &mut Vec<(CombatantId, u32)>, id: &CombatantId, fed: bool) {
    if fed {
        v.retain(|(c, _)| c != id);
    } else if let Some((_, n)) = v.iter_mut().find(|(c, _)| c == id) {
        *n = n.saturating_add(1);
    } else {
        v.push((id.clone(), 1));
    }
}

impl BfState {
    /// A retainer's entry.
    pub fn retainer(&self, id: &CombatantId) -> Option<&Retainer> {
        self.retainers.iter().find(|r| &r.retainer == id)
    }

    /// XP gained this adventure by a character.
    pub fn gained(&self, id: &CombatantId) -> u32 {
        self.xp_gained
            .iter()
            .find(|(c, _)| c == id)
            .map_or(0, |(_, n)| *n)
    }

    /// Days without food (`water` false) or water (`water` true).
    pub fn days_without(&self, id: &CombatantId, water: bool) -> u32 {
        let v = if water { &self.thirsty } else { &self.unfed };
        v.iter().find(|(c, _)| c == id).map_or(0, |(_, n)| *n)
    }

    /// § Dungeon Survival: healing stops after two days without food and with the first die
    /// of thirst damage (a day without water).
    pub fn heals_naturally(&self, id: &CombatantId) -> bool {
        self.days_without(id, false) <= 2 && self.days_without(id, true) == 0
    }

    /// Folds one event; events of other rules change nothing.
    pub fn fold(&mut self, e: &GameEvent) {
        match e {
            GameEvent::Bx(BxEvent::RetainerHireRolled {
                employer,
                retainer,
                result,
                loyalty,
                ..
            }) => {
                if *result == Hiring::RefusalWithPenalty && !self.hiring_penalty.contains(employer)
                {
                    self.hiring_penalty.push(employer.clone());
                }
                if let Some(loyalty) = loyalty {
                    self.retainers.retain(|r| &r.retainer != retainer);
                    self.retainers.push(Retainer {
                        retainer: retainer.clone(),
                        employer: employer.clone(),
                        loyalty: *loyalty,
                        left: false,
                    });
                }
            }
            GameEvent::Bx(BxEvent::LoyaltyChecked {
                retainer,
                employer,
                loyalty_after,
                leaves,
                ..
            }) => {
                if let Some(r) = self.retainers.iter_mut().find(|r| &r.retainer == retainer) {
                    r.loyalty = *loyalty_after;
                    r.left |= *leaves;
                } else {
                    self.retainers.push(Retainer {
                        retainer: retainer.clone(),
                        employer: employer.clone(),
                        loyalty: *loyalty_after,
                        left: *leaves,
                    });
                }
            }
            GameEvent::Bx(BxEvent::XpAwarded {
                shares, monsters, ..
            }) => {
                self.xp_counted.extend(monsters.iter().cloned());
                for (id, n, _) in shares {
                    if let Some((_, g)) = self.xp_gained.iter_mut().find(|(c, _)| c == id) {
                        *g = g.saturating_add(*n);
                    } else {
                        self.xp_gained.push((id.clone(), *n));
                    }
                }
            }
            GameEvent::Bx(BxEvent::LevelRaised { combatant, .. })
                if !self.levels_raised.contains(combatant) =>
            {
                self.levels_raised.push(combatant.clone());
            }
            GameEvent::Bx(BxEvent::EncumbranceSet {
                combatant,
                movement,
                ..
            }) => {
                self.movement.retain(|(c, _)| c != combatant);
                self.movement.push((combatant.clone(), *movement));
            }
            GameEvent::Bx(BxEvent::EffectTimed {
                id,
                name,
                combatant,
                turns,
            }) => {
                self.effects.push(TimedEffect {
                    id: *id,
                    name: name.clone(),
                    combatant: combatant.clone(),
                    turns_left: *turns,
                });
                self.next_effect = self.next_effect.max(id.saturating_add(1));
            }
            GameEvent::Bx(BxEvent::ExplorationTurnPassed { .. }) => {
                for t in &mut self.effects {
                    t.turns_left = t.turns_left.saturating_sub(1);
                }
            }
            GameEvent::Bx(BxEvent::TimedEffectEnded { id, .. }) => {
                self.effects.retain(|t| t.id != *id)
            }
            GameEvent::Bx(BxEvent::DayPassed {
                day,
                march,
                fed,
                watered,
                march_saves_failed,
                ..
            }) => {
                self.day = *day;
                // § Overland Travel: "A day spent resting 'restarts' the progression".
                if *march == March::Forced {
                    self.forced_days = self.forced_days.saturating_add(1);
                } else if *march == March::Rest {
                    self.forced_days = 0;
                    self.march_save_failed.clear();
                }
                self.travel_days = if *march == March::Rest {
                    0
                } else {
                    self.travel_days.saturating_add(1)
                };
                for id in march_saves_failed {
                    if !self.march_save_failed.contains(id) {
                        self.march_save_failed.push(id.clone());
                    }
                }
                for (id, ok) in fed {
                    bump(&mut self.unfed, id, *ok);
                }
                for (id, ok) in watered {
                    bump(&mut self.thirsty, id, *ok);
                }
            }
            _ => {}
        }
    }
}
