//! Parsing what a player types in `fray play` into a command, without any I/O.
//!
//! Accepted forms (case-insensitive): `attack melee goblin-1`, `a 1 2` (attack 1 of the menu
//! against target 2), `melee goblin-1` (an attack id as the verb), several targets as
//! `a 1 2 3` or `a 1 2,3`, `move`, `rally`, `end` (end the turn), `start` and `end battle` (GM),
//! `state`, `menu`, `help`, `quit`. Targets are menu numbers, combatant ids, or an unambiguous
//! beginning of an id or name. Errors say what was wrong and what would be accepted.
//!
//! `parse` reads the verbs every ruleset shares and hands a family's own verbs to its module, by
//! that module's verb table: `thirteenth_age`, `orcus` (the grid's verbs are `grid_input`'s),
//! `bx`, `bx_check` and `bx_expedition` (Old-School Essentials and Basic Fantasy), `ftd` and
//! `ftd_dungeon` (Five Torches Deep).

mod bx;
mod bx_check;
mod bx_expedition;
mod ftd;
mod ftd_dungeon;
mod orcus;
#[cfg(test)]
mod tests;
mod thirteenth_age;

use bx::{BX_VERBS, bx_verb};
use bx_check::{BX_CHECK_VERBS, bx_check_verb};
use bx_expedition::{BX_EXPEDITION_VERBS, bx_expedition_verb};
use fray_protocol::command::AttackMode;
use fray_protocol::state::AttackSummary;
use fray_protocol::{CombatantId, Command, LegalAction, SessionState};
use ftd::{FTD_VERBS, ftd_treasure_and_travel, ftd_verb};
use ftd_dungeon::{FTD_DUNGEON_VERBS, ftd_dungeon_verb};
use orcus::{ORCUS_VERBS, orcus_check, orcus_verb, skill_action};
use thirteenth_age::{THIRTEENTH_AGE_VERBS, thirteenth_age_verb};

/// What a line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A blank line.
    Empty,
    /// Show the help of the session's ruleset, or of one verb.
    Help(Option<String>),
    /// Leave.
    Quit,
    /// Print the state table.
    State,
    /// Show the actions menu again.
    Menu,
    /// Send a game command.
    Game(Command),
}

/// A legal target as numbered in the menu.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// Its id.
    pub id: CombatantId,
    /// Its display name.
    pub name: String,
}

/// The actions on offer to the combatant the player commands now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Menu {
    /// Who acts.
    pub actor: CombatantId,
    /// The actor's attacks, numbered from 1.
    pub attacks: Vec<AttackSummary>,
    /// Legal targets (those the legal actions offer the actor's attacks against), numbered from 1.
    pub targets: Vec<Target>,
    /// Every combatant id in the fight: an exact id is accepted as a target even when it is
    /// not on the list (the server has the last word).
    pub everyone: Vec<CombatantId>,
}

impl Menu {
    /// The menu for `actor` in `state`; `None` if the actor is not in the fight. The targets
    /// are those of the actor's attacks among the seat's legal actions (the server's rules, not
    /// the client's), numbered in the order the server lists them.
    pub fn for_actor(
        state: &SessionState,
        actor: &CombatantId,
        actions: &[LegalAction],
    ) -> Option<Menu> {
        let me = state.combatant(actor)?;
        let mut targets: Vec<Target> = Vec::new();
        for (_, id) in attack_targets(actions, actor) {
            if !targets.iter().any(|t| &t.id == id) {
                let name = state
                    .combatant(id)
                    .map_or_else(|| id.to_string(), |c| c.name.clone());
                targets.push(Target {
                    id: id.clone(),
                    name,
                });
            }
        }
        Some(Menu {
            actor: actor.clone(),
            attacks: me.attacks.to_vec(),
            targets,
            everyone: state.combatants.iter().map(|c| c.id.clone()).collect(),
        })
    }

    /// The menu numbers (from 1) of the targets the legal actions offer `attack` against.
    pub fn targets_of(&self, attack: &str, actions: &[LegalAction]) -> Vec<usize> {
        let mut numbers: Vec<usize> = attack_targets(actions, &self.actor)
            .filter(|(a, _)| *a == attack)
            .filter_map(|(_, id)| self.targets.iter().position(|t| &t.id == id))
            .map(|i| i + 1)
            .collect();
        numbers.sort_unstable();
        numbers.dedup();
        numbers
    }

    fn attack(&self, word: &str) -> Result<&AttackSummary, String> {
        if let Ok(n) = word.parse::<usize>() {
            return n
                .checked_sub(1)
                .and_then(|i| self.attacks.get(i))
                .ok_or_else(|| format!("there is no attack number {n}; {}", self.attack_list()));
        }
        let exact = self.attacks.iter().find(|a| {
            a.id.eq_ignore_ascii_case(word)
                || a.name.eq_ignore_ascii_case(word)
                || a.name.replace(' ', "-").eq_ignore_ascii_case(word)
        });
        if let Some(a) = exact {
            return Ok(a);
        }
        let lower = word.to_lowercase();
        let matches: Vec<&AttackSummary> = self
            .attacks
            .iter()
            .filter(|a| {
                a.id.to_lowercase().starts_with(&lower) || a.name.to_lowercase().starts_with(&lower)
            })
            .collect();
        match matches[..] {
            [one] => Ok(one),
            [] => Err(format!("unknown attack `{word}`; {}", self.attack_list())),
            _ => Err(format!(
                "`{word}` could be {}; be more specific",
                or_list(matches.iter().map(|a| a.id.as_str()))
            )),
        }
    }

    /// Whether `word` names one of the attacks exactly: its id or its name, a name of several
    /// words with `-` for the spaces (`shortbow goblin-1`, `short-bow goblin-1`).
    fn names_attack(&self, word: &str) -> bool {
        self.attacks.iter().any(|a| {
            a.id.eq_ignore_ascii_case(word)
                || a.name.eq_ignore_ascii_case(word)
                || a.name.replace(' ', "-").eq_ignore_ascii_case(word)
        })
    }

    fn target(&self, word: &str) -> Result<CombatantId, String> {
        if let Ok(n) = word.parse::<usize>() {
            return n
                .checked_sub(1)
                .and_then(|i| self.targets.get(i))
                .map(|t| t.id.clone())
                .ok_or_else(|| format!("there is no target number {n}; {}", self.target_list()));
        }
        if let Some(t) = self
            .targets
            .iter()
            .find(|t| t.id.as_str().eq_ignore_ascii_case(word) || t.name.eq_ignore_ascii_case(word))
        {
            return Ok(t.id.clone());
        }
        if let Some(id) = self
            .everyone
            .iter()
            .find(|id| id.as_str().eq_ignore_ascii_case(word))
        {
            return Ok(id.clone());
        }
        let lower = word.to_lowercase();
        let matches: Vec<&Target> = self
            .targets
            .iter()
            .filter(|t| {
                t.id.as_str().to_lowercase().starts_with(&lower)
                    || t.name.to_lowercase().starts_with(&lower)
            })
            .collect();
        match matches[..] {
            [one] => Ok(one.id.clone()),
            [] => Err(format!("`{word}` is not a target; {}", self.target_list())),
            _ => Err(format!(
                "`{word}` could be {}; be more specific",
                or_list(matches.iter().map(|t| t.id.as_str()))
            )),
        }
    }

    fn attack_list(&self) -> String {
        if self.attacks.is_empty() {
            return "this combatant has no attacks".to_owned();
        }
        let items: Vec<String> = self
            .attacks
            .iter()
            .enumerate()
            .map(|(i, a)| format!("{} {} ({})", i + 1, a.id, a.name))
            .collect();
        format!("attacks: {}", items.join(", "))
    }

    fn target_list(&self) -> String {
        if self.targets.is_empty() {
            return "no attack of this turn has a legal target now".to_owned();
        }
        let items: Vec<String> = self
            .targets
            .iter()
            .enumerate()
            .map(|(i, t)| format!("{} {}", i + 1, t.id))
            .collect();
        format!("targets: {}", items.join(", "))
    }

    fn parse_attack(&self, args: &[&str]) -> Result<Command, String> {
        let Some((first, rest)) = args.split_first() else {
            return Err(format!(
                "attack with what? e.g. `attack melee goblin-1` or `a 1 2`; {}",
                self.attack_list()
            ));
        };
        let attack = self.attack(first)?;
        let words: Vec<&str> = rest
            .iter()
            .flat_map(|w| w.split(','))
            .filter(|w| !w.is_empty())
            .collect();
        let mut targets: Vec<CombatantId> = Vec::new();
        for w in words {
            let t = self.target(w)?;
            if targets.contains(&t) {
                return Err(format!("`{t}` is named twice"));
            }
            targets.push(t);
        }
        if targets.is_empty() {
            match &self.targets[..] {
                [only] => targets.push(only.id.clone()),
                _ => {
                    return Err(format!(
                        "attack whom with {}? {}",
                        attack.name,
                        self.target_list()
                    ));
                }
            }
        }
        let max = usize::from(attack.max_targets);
        if targets.len() > max {
            return Err(format!(
                "{} takes at most {max} target{}, not {}",
                attack.name,
                if max == 1 { "" } else { "s" },
                targets.len()
            ));
        }
        Ok(Command::Attack {
            actor: self.actor.clone(),
            attack: attack.id.clone(),
            targets,
            mode: AttackMode::Standard,
            knock_out: false,
            forced: Vec::new(),
            weapon: None,
            secondary_target: None,
        })
    }

    /// Any combatant by exact id or unambiguous id prefix (allies included).
    fn anyone(&self, word: &str) -> Result<CombatantId, String> {
        let w = word.to_lowercase();
        if let Some(id) = self.everyone.iter().find(|id| id.as_str() == w) {
            return Ok(id.clone());
        }
        let hits: Vec<&CombatantId> = self
            .everyone
            .iter()
            .filter(|id| id.as_str().starts_with(&w))
            .collect();
        match hits[..] {
            [one] => Ok(one.clone()),
            [] => Err(format!("no combatant `{word}`")),
            _ => Err(format!(
                "`{word}` could be {}",
                or_list(hits.iter().map(|h| h.as_str()))
            )),
        }
    }
}

/// The help text.
pub const HELP: &str = "\
Commands (case-insensitive):
  attack ATTACK TARGET...   attack, e.g. `attack melee goblin-1`; ATTACK and TARGET may be
                            menu numbers (`a 1 2`), ids, or the start of an id or name
  ATTACK TARGET...          the same, naming the attack directly, e.g. `melee goblin-1`
  move | m                  spend the move action (reposition; leaving engaged foes draws
                            opportunity attacks)
  move TARGET               engage an enemy (a move action)
  move far                  move far away from the fight
  ready [standard|move]     ready an action (a standard action); take it out of turn before
                            your next turn with any command of that kind
  delay                     delay: act later this round (before taking any action)
  act WHO                   a delaying combatant acts right after the current turn
  disengage | d             disengage check (11+, -1 per extra foe; a move action)
  coup ATTACK TARGET        coup de grace on a helpless enemy you are engaged with
  ko ATTACK TARGET...       a knock-out blow: a monster it drops to 0 hp is knocked out (OSE: subdue)
                            instead of slain (heroes; the GM may refuse knock-outs)
  shove ATTACK TARGET X,Y...  Orcus: attack one target with a push/pull/shunt power, choosing
                            the squares it is moved through if hit
  side ATTACK TARGET...     Orcus: a Weapon power made with the hero's side weapon (its dice,
                            crit, reach and proficiency; without `side`: the main weapon)
  second ATTACK [TARGET...] WHO
                            Orcus: the attack, its secondary attack against WHO (a power
                            whose secondary targets 'one creature/enemy within N' of the
                            primary target asks for it)
  potion [ALLY]             drink a healing potion, or feed one to an ally (standard action)
  stabilize ALLY            DC 10 Wisdom check to stabilize an unconscious ally
  oa ATTACKER TARGET        opportunity attack (out of turn, basic melee) against a provoker
  intercept WHO MOVER       stop an enemy that just moved and engage it
  letgo GRABBER TARGET      the grabber lets go of a creature it grabs (a free action)
  teleport WHO [ENEMY|far]  GM: a teleport moves WHO (no opportunity attacks; out of grabs)
  rally | r                 rally (standard action, spends a recovery)
  end | e                   end the turn
  start                     GM: start the battle (initiative as the ruleset says)
  end battle                GM: end the battle now (the seed is revealed)
  ambush WHO [escalate]     GM: start with an ambush round led by WHO (escalate: the
                            escalation die goes to 1 after it)
  spirit WHO ALLY STAT      a PC out of the fight fights in spirit: ALLY gets +1 (+2 the
                            first time) to attack, ac, pd or md
  rest HERO N               after the battle (rests option): quick rest spending N recoveries
  healup                    GM: full heal-up (rests option)
  end-session               GM: end the session and reveal the seed (rests option)
  next-battle               GM: bring in the session's next battle (rests option)
  pass-time MINUTES         GM (Orcus): time passes outside the battle (the session clock)
  reload WHO POWER          Orcus: reload a Loading (swift) weapon power (a swift action)
  ready-counter WHO POWER   Orcus: ready an immediate counter to resolve before an attack on WHO
  skill-check WHO SKILL DC|easy|moderate|hard [PURPOSE...]
                            GM (Orcus): a skill check against a DC or a difficulty by level
  skill WHO KIND [TARGET] [standard|move|swift] [foreign] [hide] [EFFECT]
                            Orcus skill action: feint, grant-save, rally-ally,
                            create-diversion, deter, unnerve (deter: the action to forbid;
                            foreign: no shared language; hide: hide after a diversion)
  search [WHO]              Orcus: search actively for hidden enemies (a Perception check on
                            your turn, no action, once per turn)
  allies WHO [ALLY...]      Orcus: who counts as WHO's allies for its next attack
  decline-ally WHO USER     Orcus: WHO counts as USER's enemy for USER's next attack
  be-hit WHO ATTACKER       Orcus: WHO chooses to be hit by ATTACKER's next attack (no roll)
  rider WHO take|fall [DX,DY]  Orcus: pushed while mounted, WHO takes its mount along (take)
                            or falls off (fall); DX,DY: where it lands when thrown, from
                            the mount's north-west square (e.g. -1,0: west of it)
  flee                      GM: the party flees (all players agreed; a campaign loss)
  escalation hold|resume|reset   GM: hold, resume or reset the escalation die
  knockouts allow|refuse    GM: allow or refuse the heroes' knock-out blows
  temp TARGET AMOUNT        GM: grant temporary hit points (the higher amount stays)
  modifier WHO STAT +2|-2   GM: the universal modifier to attack, ac, pd or md until the end
                            of WHO's next turn
Five Torches Deep:
  retreat                   retreat (your whole turn; the GM rules with `resolve`)
  delay-to WHO              delay to right after WHO (before acting), for the rest of the battle
  grant WHO adv|dis|none    GM: advantage or disadvantage on WHO's next roll
  check WHO ABILITY DC [prof] [adv|dis] [TASK] [DAMAGE]   GM: a check; TASK for the light
                            rules (stealth, sight, …); DAMAGE on a failure
  morale [group] WHO...     GM: morale checks (DC 11); those who fail flee
  heal WHO DICE             GM: magic or medicine (stabilizes an incapacitated PC)
  resolve [ABILITY DC] [ATTACKER...]   GM: rule on the pending retreat
  ready-for active|move TRIGGER...   ready an action (your quick action): take it out of turn
                            when TRIGGER happens, before your next turn
  hide                      stealth: a DEX check (active action); hidden, you cannot be targeted
  concentrate EFFECT...      start or maintain concentration on EFFECT (your quick action, each
                            turn; a retreat halts it); `unconcentrate` lets it go
  torch|lantern|douse [WHO] light a fresh torch (1 h) or lantern (3 h), or put it out
  light [WHO] dark|dim|lit|brilliant   GM: the scene's light, or WHO's (`light WHO scene`)
  load WHO LOAD [COINS]     GM: what WHO carries (each load above STR: -5' speed, disadvantage)
  travel [adv|dis]          GM: a travel turn (an hour; the d20 threat table)
  resilience WHO            GM: a resilience check (DC 10 + hours beyond CON)
  exhaust WHO               GM: WHO is exhausted (disadvantage, 0' speed)
  return dangerous|arduous [WHO..]  GM: roll to return (DC 10 + 1 per travel turn)
  chase open|uneven|overland SPEED WHO.. [group] [adv|dis] [dc=N]
                            GM: a chase check (DC 11 +-1 per 5' from 30')
  corrupt WHO [NAME [DC]]   GM: a corruption check (a new NAME, DC 11) or a stage's end
  cure WHO                  GM: WHO's corruption ends
  crawl [TARGET|far]        special movement (swim, climb, crawl, difficult terrain): half speed,
                            the movement and the active action both
  time-dice N [duration|from HOUR]
                            GM: roll N time dice (1-4; 1-2 from HOUR) for the hour or a duration
  set-time HOUR             GM: the time of day is HOUR:00 (0-23)
  camp safe|unsafe [NIGHTS] GM: the party rests (heals; safe rest cures exhaustion)
  stealth-dc N|default      GM: the stealth DC (11 by default)
  reveal WHO                GM: WHO's stealth ends
  loot WHO ENEMY            GM: WHO takes ENEMY's loot (1d20 gp per HD; gp = XP)
  treasure WHO GP [SP [CP]] [unearned]
                            GM: a hoard's coins to WHO (XP for their gold value, none unearned)
  magic-item WHO VALUE NAME...  GM: WHO captures a magic item (XP = its fair value in gp)
  sell WHO GP NAME...       GM: WHO sells a magic item (its gold earns no XP)
  journey DAYS [open|difficult|harsh] [normal|tactical|stealthy] [adv|dis]
                            GM: travel overland (10 + STR mod miles a day; a travel turn a day)
  voyage boat|ship HOURS [favorable|unfavorable] [adv|dis]
                            GM: travel by water (3 or 5 mph; travel turns daily or weekly)
Old-School Essentials:
  surprise party|monsters|both   GM: d6 surprise rolls (before the battle); any other words
                            name the surprised (`start_surprise`, as on the Orcus grid)
  reaction [SPEAKER]        GM: the 2d6 monster reaction roll (+ SPEAKER's CHA)
  declare spell NAME | withdraw | retreat | none   declare for the next round
  shoot WEAPON TARGET short|medium|long [MOD]      a missile attack at a range band
  cast                      cast the declared spell (the round's sole action)
  bx-move FEET              move in the round (a third of the base rate; declared withdrawal: half)
  bx-hold                   let the rest of your side's group act first (before acting)
  bx-morale [ADJ] WHO...    GM: 2d6 morale vs each one's rating; those who break flee
  save WHO CATEGORY [MOD]   GM: saving throw (death, wands, paralysis, breath, spells)
  secret search|traps|listen|wandering|stuck|locked|bars [WHO] [CHANCE] [@AREA]
                            GM: a secret roll only the GM sees (doors: d6/d10/d20 + STR)
  bx-turn [CHANCE] [rest]   GM: an exploration turn (wandering check; light; rest)
  bx-light WHO torch|lantern   GM: light a torch or a lantern
  bx-douse WHO torch|lantern|candle   GM: put it out
  save-half WHO CATEGORY DICE [MOD]   GM: a save for half of DICE damage
  bx-check WHO str|int|wis|dex|con|cha [MOD]   GM: roll-under ability check
  fall WHO FEET             GM: 1d6 damage per 10' fallen
  bomb FLIER FT DICE T..    GM: a flier's bomb, 16+ on d20 per target
  bx-heal WHO DAYS          GM: 1d3 hit points per full day of rest
  bx-cure WHO DICE SOURCE...  GM: magical healing (a potion or spell), never above the maximum
  bx-voyage SAIL ROW [navigator] [coastal] [tacking] [unfed=A,B] [nowater=A,B]
                            GM (Basic Fantasy): a day on the water, SAIL and ROW the
                            vessel's miles per 12-hour day (0 for none); the wind is rolled
  distance dungeon|wilderness|water [surprised]   GM: the encounter distance
  condition WHO blind|paralyzed|unstable|exhausted|cover|swimming|underwater on|off   GM:
                            set or clear it (cover: complete cover, attacks at WHO are
                            refused; swimming: half movement; underwater: no missiles)
  drown WHO CHANCE          GM: a d% against the referee's chance of drowning (1-99)
  evade dungeon|water FLEE PURSUE | evade wilderness FLEE PURSUE N_FLEE N_PURSUE [surprised|surprising] [±PCT]   GM: an evasion attempt (rates in feet)
  behind WEAPON TARGET      a melee attack from behind (the shield does not count)
  bx-hire WHO CANDIDATE [ADJ]  GM: Basic Fantasy hiring roll for a retainer
  bx-loyalty WHO [ADJ]         GM: a retainer's loyalty check
  bx-xp A,B,.. [BONUS] [MONSTER..]  GM: award XP (defeated monsters + bonus) to the party
  bx-day [rest|normal|forced|air] [jungle|forest|clear|road] [unfed=A,B] [nowater=A,B] [leader=X]
                               GM: a day of travel or rest
  bx-sail RATE sea|coast|river|swamp [downstream|upstream] [navigator] [unfed=A,B] [nowater=A,B] [leader=X]
                               GM (OSE): a day on the water (RATE: the vessel's feet per turn;
                               also `bx-day water RATE ...`)
  bx-load WHO none|leather|metal LOAD [treasure]  GM: armor and load (movement; OSE: also
                               unarmored|light|heavy, LOAD in coins, treasure: a significant
                               amount under the basic option)
  bx-candle WHO INCHES         GM (Basic Fantasy): light a taper candle 1-24 inches high
                               (`bx-douse WHO candle` puts it out)
  bx-effect TURNS [@WHO] NAME  GM: a timed effect lasting TURNS exploration turns
  bx-wind                      GM: the day's wind at sea (direction and conditions)
  bx-gale HOURS                GM: a gale's damage to a ship, 2d8 per hour sailed
  pursue dungeon FLEE PURSUE [RUNNER..] | pursue water FLEE PURSUE DIST | pursue wilderness FLEE PURSUE
                               GM: a pursuit after a failed evasion
  pursuit-round                GM: a round (wilderness: a day) of the pursuit
  gale near|full seaworthy|unseaworthy [land] [clear]   GM: a (near) gale strikes a ship
  lure treasure|food           GM: drop it: 3-in-6 the monsters stop
  end-pursuit [caught]         GM: the pursuit ends
  state | s                 print the state table
  menu                      show your actions again
  help | h | ? [VERB]       this text, or one command's
  quit | q                  leave (the session goes on without you)";

/// Parses a line. `menu` is the combatant the player commands now, if any.
pub fn parse(line: &str, menu: Option<&Menu>) -> Result<Input, String> {
    if let Some(talk) = crate::talk::parse(line) {
        return talk.map(Input::Game);
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((verb, args)) = words.split_first() else {
        return Ok(Input::Empty);
    };
    let verb = verb.to_lowercase();
    let no_args = |input: Input| no_args_for(&verb, args, input);
    let need_menu = || menu_for(&verb, menu);
    if let Some(input) = ftd_treasure_and_travel(&verb, args) {
        return input;
    }
    for (verbs, parse_family) in [
        (ORCUS_VERBS, orcus_verb as FamilyParser),
        (THIRTEENTH_AGE_VERBS, thirteenth_age_verb),
        (BX_VERBS, bx_verb),
        (BX_CHECK_VERBS, bx_check_verb),
        (BX_EXPEDITION_VERBS, bx_expedition_verb),
        (FTD_VERBS, ftd_verb),
        (FTD_DUNGEON_VERBS, ftd_dungeon_verb),
    ] {
        if verbs.contains(&verb.as_str()) {
            return parse_family(&verb, args, menu);
        }
    }
    match verb.as_str() {
        "help" | "h" | "?" => match args {
            [] => Ok(Input::Help(None)),
            [verb] => Ok(Input::Help(Some((*verb).to_owned()))),
            _ => Err("`help` or `help VERB`".to_owned()),
        },
        "quit" | "q" | "exit" => no_args(Input::Quit),
        "state" | "s" | "table" => no_args(Input::State),
        "menu" | "actions" => no_args(Input::Menu),
        "start" => no_args(Input::Game(Command::StartBattle)),
        "flee" => no_args(Input::Game(Command::Flee)),
        "healup" | "heal-up" => no_args(Input::Game(Command::FullHealUp)),
        "end-session" | "endsession" => no_args(Input::Game(Command::EndSession)),
        "next-battle" | "nextbattle" => no_args(Input::Game(Command::NextBattle)),
        "skill" => skill_action(args),
        "rest" => match args {
            [who, n] => Ok(Input::Game(Command::QuickRest {
                actor: CombatantId::new(who.to_lowercase()),
                recoveries: n.parse().map_err(|_| format!("`{n}` is not a number"))?,
            })),
            _ => Err("`rest HERO RECOVERIES`: a quick rest after the battle".to_owned()),
        },
        "temp" => match args {
            [who, n] => Ok(Input::Game(Command::GrantTempHp {
                target: CombatantId::new(who.to_lowercase()),
                amount: n.parse().map_err(|_| format!("`{n}` is not a number"))?,
            })),
            _ => Err("`temp TARGET AMOUNT` (GM): grant temporary hit points".to_owned()),
        },
        "end-battle" | "endbattle" => no_args(Input::Game(Command::EndBattle)),
        "end" | "e" | "endturn" | "end-turn" | "done" => match args {
            [] => Ok(Input::Game(Command::EndTurn {
                actor: need_menu()?.actor.clone(),
            })),
            [w] if w.eq_ignore_ascii_case("turn") => Ok(Input::Game(Command::EndTurn {
                actor: need_menu()?.actor.clone(),
            })),
            [w] if w.eq_ignore_ascii_case("battle") => Ok(Input::Game(Command::EndBattle)),
            [w] if w.eq_ignore_ascii_case("session") => Ok(Input::Game(Command::EndSession)),
            _ => Err("`end` ends your turn; `end battle` (GM) ends the battle".to_owned()),
        },
        "move" | "m" => {
            let m = need_menu()?;
            let actor = m.actor.clone();
            match args {
                [] => Ok(Input::Game(Command::Move {
                    actor,
                    engage: None,
                    far_away: false,
                })),
                [w] if w.eq_ignore_ascii_case("far") => Ok(Input::Game(Command::Move {
                    actor,
                    engage: None,
                    far_away: true,
                })),
                [w] => Ok(Input::Game(Command::Move {
                    actor,
                    engage: Some(m.target(w)?),
                    far_away: false,
                })),
                _ => Err("`move` (reposition), `move TARGET` (engage) or `move far`".to_owned()),
            }
        }
        "ready" => {
            let actor = need_menu()?.actor.clone();
            let action = match args {
                [w] if w.eq_ignore_ascii_case("move") => fray_protocol::event::ActionKind::Move,
                [] | [_] => fray_protocol::event::ActionKind::Standard,
                _ => return Err("`ready [standard|move]`".to_owned()),
            };
            Ok(Input::Game(Command::Ready { actor, action }))
        }
        "stabilize" | "stab" => {
            let m = need_menu()?;
            match args {
                [w] => Ok(Input::Game(Command::Stabilize {
                    actor: m.actor.clone(),
                    target: m.anyone(w)?,
                })),
                _ => Err("`stabilize ALLY` (an unconscious ally)".to_owned()),
            }
        }
        "coup" | "cdg" => {
            let mut cmd = need_menu()?.parse_attack(args)?;
            if let Command::Attack { mode, .. } = &mut cmd {
                *mode = AttackMode::CoupDeGrace;
            }
            Ok(Input::Game(cmd))
        }
        "shove" | "forced" => {
            let [attack, target, path @ ..] = args else {
                return Err(
                    "`shove ATTACK TARGET X,Y...`: the squares it is moved through".to_owned(),
                );
            };
            let mut cmd = need_menu()?.parse_attack(&[attack, target])?;
            let path = path
                .iter()
                .map(|w| crate::grid_input::square(w))
                .collect::<Result<Vec<_>, _>>()?;
            if let Command::Attack {
                targets, forced, ..
            } = &mut cmd
                && let Some(t) = targets.first()
            {
                forced.push(fray_protocol::grid::ForcedPath {
                    target: t.clone(),
                    path,
                });
            }
            Ok(Input::Game(cmd))
        }
        "ko" | "knockout" => {
            let mut cmd = need_menu()?.parse_attack(args)?;
            if let Command::Attack { knock_out, .. } = &mut cmd {
                *knock_out = true;
            }
            Ok(Input::Game(cmd))
        }
        "second" => {
            // § Secondary attacks, "one creature of the user's choice within N": the last word
            // names the secondary attack's target.
            let [rest @ .., who] = args else {
                return Err(
                    "`second ATTACK [TARGET...] WHO`: WHO is the secondary attack's target"
                        .to_owned(),
                );
            };
            let menu = need_menu()?;
            let chosen = menu.anyone(who)?;
            let mut cmd = menu.parse_attack(rest)?;
            if let Command::Attack {
                secondary_target, ..
            } = &mut cmd
            {
                *secondary_target = Some(chosen);
            }
            Ok(Input::Game(cmd))
        }
        "side" => {
            let mut cmd = need_menu()?.parse_attack(args)?;
            if let Command::Attack { weapon, .. } = &mut cmd {
                *weapon = Some(fray_protocol::command::WeaponHand::Side);
            }
            Ok(Input::Game(cmd))
        }
        "skill-check" => orcus_check(args),
        "knockouts" | "knock-outs" => match args {
            [w] if w.eq_ignore_ascii_case("allow") => {
                Ok(Input::Game(Command::KnockOuts { allowed: true }))
            }
            [w] if w.eq_ignore_ascii_case("refuse") => {
                Ok(Input::Game(Command::KnockOuts { allowed: false }))
            }
            _ => Err("`knockouts allow|refuse` (GM)".to_owned()),
        },
        "oa" | "opportunity" => match args {
            [attacker, target] | [attacker, target, _] => Ok(Input::Game(Command::Attack {
                actor: CombatantId::new(attacker.to_lowercase()),
                attack: args.get(2).map_or("melee".to_owned(), |a| a.to_lowercase()),
                targets: vec![CombatantId::new(target.to_lowercase())],
                mode: AttackMode::Opportunity,
                knock_out: false,
                forced: Vec::new(),
                weapon: None,
                secondary_target: None,
            })),
            _ => {
                Err("`oa ATTACKER TARGET [ATTACK]`: an opportunity attack (basic melee)".to_owned())
            }
        },
        "letgo" | "let-go" => match args {
            [grabber, target] => Ok(Input::Game(Command::LetGo {
                actor: CombatantId::new(grabber.to_lowercase()),
                target: CombatantId::new(target.to_lowercase()),
            })),
            _ => Err("`letgo GRABBER TARGET`: let go of a grabbed creature".to_owned()),
        },
        "rally" | "r" => {
            let actor = need_menu()?.actor.clone();
            no_args(Input::Game(Command::Rally { actor }))
        }
        "attack" | "a" | "att" => Ok(Input::Game(need_menu()?.parse_attack(args)?)),
        "hide" => {
            let actor = need_menu()?.actor.clone();
            no_args(Input::Game(Command::Hide { actor }))
        }
        "reveal" => match args {
            [who] => Ok(Input::Game(Command::Reveal {
                combatant: CombatantId::new(who.to_lowercase()),
            })),
            _ => Err("`reveal WHO` (GM)".to_owned()),
        },
        _ => match menu {
            Some(m) if m.names_attack(&verb) => Ok(Input::Game(m.parse_attack(&words)?)),
            _ => crate::grid_input::parse(&verb, args, menu)
                .unwrap_or_else(|| Err(unknown_command(&verb, menu))),
        },
    }
}

/// `input` when the verb has no arguments, else the refusal a verb taking none gives.
pub(super) fn no_args_for(verb: &str, args: &[&str], input: Input) -> Result<Input, String> {
    if args.is_empty() {
        Ok(input)
    } else {
        Err(format!("`{verb}` takes no arguments"))
    }
}

/// The menu of the combatant that may act now, or why a verb that acts has no one to act for.
pub(super) fn menu_for<'m>(verb: &str, menu: Option<&'m Menu>) -> Result<&'m Menu, String> {
    menu.ok_or_else(|| {
        format!("none of your combatants can act now, so `{verb}` has no one to act for")
    })
}

/// A family's verb parser: the verb (lower case), its arguments and the menu.
type FamilyParser = fn(&str, &[&str], Option<&Menu>) -> Result<Input, String>;

/// "unknown command", with the nearest verb of the help (or attack of the menu) when one is
/// a typo away.
pub(super) fn unknown_command(verb: &str, menu: Option<&Menu>) -> String {
    let attacks = menu.into_iter().flat_map(|m| {
        m.attacks
            .iter()
            .flat_map(|a| [a.id.clone(), a.name.replace(' ', "-").to_lowercase()])
    });
    let nearest = crate::help::all_verbs()
        .into_iter()
        .map(str::to_owned)
        .chain(attacks)
        .map(|v| (edit_distance(verb, &v.to_lowercase()), v))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d);
    match nearest {
        Some((_, v)) => {
            format!("unknown command `{verb}`; did you mean `{v}`? (`help` lists them)")
        }
        None => format!("unknown command `{verb}`; type `help` for the list"),
    }
}

/// Levenshtein distance (insertions, deletions, substitutions), for "did you mean".
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut row = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            row[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(row[j] + 1);
        }
        prev = row;
    }
    prev[b.len()]
}

/// The (attack, target) pairs of `actor`'s attacks among the legal actions, in their order.
fn attack_targets<'a>(
    actions: &'a [LegalAction],
    actor: &'a CombatantId,
) -> impl Iterator<Item = (&'a str, &'a CombatantId)> + 'a {
    actions.iter().flat_map(move |a| match &a.command {
        Command::Attack {
            actor: by,
            attack,
            targets,
            ..
        } if by == actor => targets.iter().map(|t| (attack.as_str(), t)).collect(),
        _ => Vec::new(),
    })
}

/// `a, b or c`.
fn or_list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let items: Vec<&str> = items.collect();
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => (*last).to_owned(),
        None => String::new(),
    }
}
