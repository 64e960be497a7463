//! Parsing what a player types in `fray play` into a command, without any I/O.
//!
//! Accepted forms (case-insensitive): `attack melee goblin-1`, `a 1 2` (attack 1 of the menu
//! against target 2), `melee goblin-1` (an attack id as the verb), several targets as
//! `a 1 2 3` or `a 1 2,3`, `move`, `rally`, `end` (end the turn), `start` and `end battle` (GM),
//! `state`, `menu`, `help`, `quit`. Targets are menu numbers, combatant ids, or an unambiguous
//! beginning of an id or name. Errors say what was wrong and what would be accepted.

use fray_protocol::command::AttackMode;
use fray_protocol::ftd::TimeDicePurpose;
use fray_protocol::state::AttackSummary;
use fray_protocol::{BxCommand, FiveTorchesCommand, OrcusCommand, ThirteenthAgeCommand};
use fray_protocol::{CombatantId, Command, SessionState};

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
    /// Legal targets (conscious combatants of the other side), numbered from 1.
    pub targets: Vec<Target>,
    /// Every combatant id in the fight: an exact id is accepted as a target even when it is
    /// not on the list (the server has the last word).
    pub everyone: Vec<CombatantId>,
}

impl Menu {
    /// The menu for `actor` in `state`; `None` if the actor is not in the fight.
    pub fn for_actor(state: &SessionState, actor: &CombatantId) -> Option<Menu> {
        let me = state.combatant(actor)?;
        let targets = state
            .combatants
            .iter()
            .filter(|c| c.side == me.side.opponent() && c.status.is_up())
            .map(|c| Target {
                id: c.id.clone(),
                name: c.name.clone(),
            })
            .collect();
        Some(Menu {
            actor: actor.clone(),
            attacks: me.attacks.clone(),
            targets,
            everyone: state.combatants.iter().map(|c| c.id.clone()).collect(),
        })
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
            return "no enemy is standing".to_owned();
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
        if let Some(id) = self.everyone.iter().find(|id| id.0 == w) {
            return Ok(id.clone());
        }
        let hits: Vec<&CombatantId> = self
            .everyone
            .iter()
            .filter(|id| id.0.starts_with(&w))
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
fn no_args_for(verb: &str, args: &[&str], input: Input) -> Result<Input, String> {
    if args.is_empty() {
        Ok(input)
    } else {
        Err(format!("`{verb}` takes no arguments"))
    }
}

/// The menu of the combatant that may act now, or why a verb that acts has no one to act for.
fn menu_for<'m>(verb: &str, menu: Option<&'m Menu>) -> Result<&'m Menu, String> {
    menu.ok_or_else(|| {
        format!("none of your combatants can act now, so `{verb}` has no one to act for")
    })
}

/// A family's verb parser: the verb (lower case), its arguments and the menu.
type FamilyParser = fn(&str, &[&str], Option<&Menu>) -> Result<Input, String>;

/// The verbs orcus_verb parses.
const ORCUS_VERBS: &[&str] = &[
    "allies",
    "be-hit",
    "choose-allies",
    "choose-to-be-hit",
    "decline-ally",
    "pass-time",
    "passtime",
    "ready-counter",
    "reload",
    "rider",
    "rider-choices",
    "search",
];

/// The Orcus verbs outside the grid's (`grid_input`): allies, mounts' riders, reloading, searching …
fn orcus_verb(verb: &str, args: &[&str], menu: Option<&Menu>) -> Result<Input, String> {
    let need_menu = || menu_for(verb, menu);
    match verb {
        "allies" | "choose-allies" => match args {
            [who, rest @ ..] => Ok(Input::Game(Command::Orcus(OrcusCommand::ChooseAllies {
                actor: CombatantId::new(who.to_lowercase()),
                allies: rest
                    .iter()
                    .map(|a| CombatantId::new(a.to_lowercase()))
                    .collect(),
            }))),
            _ => Err("usage: allies WHO [ALLY...]".into()),
        },
        "decline-ally" => match args {
            [who, user] => Ok(Input::Game(Command::Orcus(OrcusCommand::DeclineAlly {
                actor: CombatantId::new(who.to_lowercase()),
                user: CombatantId::new(user.to_lowercase()),
            }))),
            _ => Err("usage: decline-ally WHO USER".into()),
        },
        "be-hit" | "choose-to-be-hit" => match args {
            [who, attacker] => Ok(Input::Game(Command::Orcus(OrcusCommand::ChooseToBeHit {
                actor: CombatantId::new(who.to_lowercase()),
                attacker: CombatantId::new(attacker.to_lowercase()),
            }))),
            _ => Err("usage: be-hit WHO ATTACKER".into()),
        },
        "rider" | "rider-choices" => {
            let usage = || "usage: rider WHO take|fall [DX,DY]".to_owned();
            let (who, how, landing) = match args {
                [who, how] => (who, how, None),
                [who, how, at] => (who, how, Some(crate::grid_input::square(at)?)),
                _ => return Err(usage()),
            };
            let move_mount = match how.to_ascii_lowercase().as_str() {
                "take" => true,
                "fall" => false,
                _ => return Err(usage()),
            };
            Ok(Input::Game(Command::Orcus(OrcusCommand::RiderChoices {
                actor: CombatantId::new(who.to_lowercase()),
                move_mount,
                landing,
            })))
        }
        "reload" => match args {
            [who, power] => Ok(Input::Game(Command::Orcus(OrcusCommand::Reload {
                actor: CombatantId::new(who.to_lowercase()),
                power: power.to_lowercase(),
            }))),
            _ => Err("usage: reload WHO POWER".into()),
        },
        "search" => match args {
            [] => Ok(Input::Game(Command::Orcus(OrcusCommand::Search {
                actor: need_menu()?.actor.clone(),
            }))),
            [who] => Ok(Input::Game(Command::Orcus(OrcusCommand::Search {
                actor: CombatantId::new(who.to_lowercase()),
            }))),
            _ => Err("usage: search [WHO]".into()),
        },
        "ready-counter" => match args {
            [who, power] => Ok(Input::Game(Command::Orcus(OrcusCommand::ReadyCounter {
                actor: CombatantId::new(who.to_lowercase()),
                power: power.to_lowercase(),
            }))),
            _ => Err("usage: ready-counter WHO POWER".into()),
        },
        "pass-time" | "passtime" => match args {
            [m] => Ok(Input::Game(Command::Orcus(OrcusCommand::PassTime {
                minutes: m.parse().map_err(|_| format!("`{m}` is not a number"))?,
            }))),
            _ => Err("usage: pass-time MINUTES".into()),
        },
        _ => Err(unknown_command(verb, menu)),
    }
}

/// The verbs bx_verb parses.
const BX_VERBS: &[&str] = &[
    "behind",
    "bx-hold",
    "bx-morale",
    "bx-move",
    "cast",
    "condition",
    "declare",
    "reaction",
    "shoot",
    "surprise",
];

/// The Old-School Essentials and Basic Fantasy verbs.
fn bx_verb(verb: &str, args: &[&str], menu: Option<&Menu>) -> Result<Input, String> {
    let no_args = |input: Input| no_args_for(verb, args, input);
    let need_menu = || menu_for(verb, menu);
    match verb {
        "surprise" => {
            let sides = match args {
                [w] if w.eq_ignore_ascii_case("both") => {
                    vec![fray_protocol::Side::Heroes, fray_protocol::Side::Monsters]
                }
                [w] if w.eq_ignore_ascii_case("heroes") || w.eq_ignore_ascii_case("party") => {
                    vec![fray_protocol::Side::Heroes]
                }
                [w] if w.eq_ignore_ascii_case("monsters") => vec![fray_protocol::Side::Monsters],
                [] => {
                    return Err("`surprise party|monsters|both` (GM, OSE: the d6 rolls) or `surprise WHO...` (GM: start with the listed surprised)".to_owned());
                }
                // Orcus and Five Torches Deep: `start_surprise` naming the surprised.
                _ => {
                    return Ok(Input::Game(Command::StartSurprise {
                        surprised: ids(&args.join(",")),
                    }));
                }
            };
            Ok(Input::Game(Command::Bx(BxCommand::RollSurprise { sides })))
        }
        "reaction" => match args {
            [] => Ok(Input::Game(Command::Bx(BxCommand::RollReaction {
                speaker: None,
            }))),
            [who] => Ok(Input::Game(Command::Bx(BxCommand::RollReaction {
                speaker: Some(CombatantId::new(who.to_lowercase())),
            }))),
            _ => Err("`reaction [SPEAKER]` (GM)".to_owned()),
        },
        "declare" => {
            use fray_protocol::ose::Declaration;
            let actor = need_menu()?.actor.clone();
            let declaration = match args {
                [w, spell @ ..] if w.eq_ignore_ascii_case("spell") && !spell.is_empty() => {
                    Some(Declaration::Spell {
                        spell: spell.join(" "),
                    })
                }
                [w] if w.eq_ignore_ascii_case("withdraw") => Some(Declaration::Withdraw),
                [w] if w.eq_ignore_ascii_case("retreat") => Some(Declaration::Retreat),
                [w] if w.eq_ignore_ascii_case("none") => None,
                _ => {
                    return Err(
                        "`declare spell NAME | withdraw | retreat | none` (for the next round)"
                            .to_owned(),
                    );
                }
            };
            Ok(Input::Game(Command::Bx(BxCommand::Declare {
                actor,
                declaration,
            })))
        }
        "shoot" => {
            use fray_protocol::ose::MissileRange;
            let m = need_menu()?;
            match args {
                [weapon, target, band, rest @ ..] if rest.len() <= 1 => {
                    let range = match band.to_lowercase().as_str() {
                        "short" => MissileRange::Short,
                        "medium" => MissileRange::Medium,
                        "long" => MissileRange::Long,
                        "beyond" => MissileRange::Beyond,
                        other => return Err(format!("`{other}`: short, medium, long or beyond")),
                    };
                    let modifier = match rest {
                        [n] => n.parse().map_err(|_| format!("`{n}` is not a number"))?,
                        _ => 0,
                    };
                    Ok(Input::Game(Command::Bx(BxCommand::OseAttack {
                        actor: m.actor.clone(),
                        attack: weapon.to_lowercase(),
                        target: m.anyone(target)?,
                        range: Some(range),
                        modifier,
                        behind: false,
                    })))
                }
                _ => Err("`shoot WEAPON TARGET short|medium|long [MODIFIER]`".to_owned()),
            }
        }
        "cast" => {
            let actor = need_menu()?.actor.clone();
            no_args(Input::Game(Command::Bx(BxCommand::CastSpell { actor })))
        }
        "bx-move" => {
            let actor = need_menu()?.actor.clone();
            match args {
                [feet] => Ok(Input::Game(Command::Bx(BxCommand::OseMove {
                    actor,
                    feet: feet
                        .parse()
                        .map_err(|_| format!("`{feet}` is not a number of feet"))?,
                }))),
                _ => Err("`bx-move FEET` (this round's movement)".to_owned()),
            }
        }
        "bx-hold" => {
            let actor = need_menu()?.actor.clone();
            no_args(Input::Game(Command::Bx(BxCommand::OseHold { actor })))
        }
        "bx-morale" => {
            let (adjustment, who) = match args.split_first() {
                Some((n, rest)) if n.parse::<i32>().is_ok() => (n.parse().unwrap_or(0), rest),
                _ => (0, args),
            };
            if who.is_empty() {
                return Err(
                    "`bx-morale [ADJUSTMENT] WHO...` (GM: 2d6 vs each one's rating)".to_owned(),
                );
            }
            Ok(Input::Game(Command::Bx(BxCommand::OseMorale {
                combatants: who
                    .iter()
                    .map(|w| CombatantId::new(w.to_lowercase()))
                    .collect(),
                adjustment,
            })))
        }
        "condition" => {
            use fray_protocol::ose::OseCondition;
            let usage = "`condition WHO blind|paralyzed|unstable|exhausted|cover|swimming|underwater on|off` (GM; cover: complete cover)";
            let [who, c, on] = args else {
                return Err(usage.to_owned());
            };
            let condition = match c.to_lowercase().as_str() {
                "blind" => OseCondition::Blind,
                "paralyzed" => OseCondition::Paralyzed,
                "unstable" => OseCondition::Unstable,
                "exhausted" => OseCondition::Exhausted,
                "cover" | "complete-cover" | "complete_cover" => OseCondition::CompleteCover,
                "swimming" | "swim" => OseCondition::Swimming,
                "underwater" => OseCondition::Underwater,
                _ => return Err(usage.to_owned()),
            };
            let on = match on.to_lowercase().as_str() {
                "on" => true,
                "off" => false,
                _ => return Err(usage.to_owned()),
            };
            Ok(Input::Game(Command::Bx(BxCommand::OseCondition {
                combatant: CombatantId::new(who.to_lowercase()),
                condition,
                on,
            })))
        }
        "behind" => {
            let m = need_menu()?;
            match args {
                [weapon, target] => Ok(Input::Game(Command::Bx(BxCommand::OseAttack {
                    actor: m.actor.clone(),
                    attack: weapon.to_lowercase(),
                    target: m.anyone(target)?,
                    range: None,
                    modifier: 0,
                    behind: true,
                }))),
                _ => Err("`behind WEAPON TARGET`".to_owned()),
            }
        }
        _ => Err(unknown_command(verb, menu)),
    }
}

/// The verbs bx_check_verb parses.
const BX_CHECK_VERBS: &[&str] = &[
    "bomb",
    "bx-check",
    "bx-cure",
    "bx-heal",
    "distance",
    "drown",
    "end-pursuit",
    "evade",
    "fall",
    "lure",
    "pursue",
    "pursuit-round",
    "save",
    "save-half",
];

/// The Old-School Essentials and Basic Fantasy GM's checks and hazards: saves, ability checks, falls, bombs, healing, drowning, the encounter distance, evasion and pursuit.
fn bx_check_verb(verb: &str, args: &[&str], menu: Option<&Menu>) -> Result<Input, String> {
    let no_args = |input: Input| no_args_for(verb, args, input);
    match verb {
        "pursue" => {
            use fray_protocol::ose::EncounterSetting;
            let usage = "`pursue dungeon FLEE PURSUE [RUNNER...]`, `pursue water FLEE PURSUE \
                         DISTANCE` or `pursue wilderness FLEE PURSUE` (GM)";
            let [place, fr, pr, rest @ ..] = args else {
                return Err(usage.to_owned());
            };
            let num = |n: &str| n.parse::<u32>().map_err(|_| usage.to_owned());
            let setting = match place.to_lowercase().as_str() {
                "dungeon" => EncounterSetting::Dungeon,
                "wilderness" => EncounterSetting::Wilderness,
                "water" | "waterborne" => EncounterSetting::Waterborne,
                _ => return Err(usage.to_owned()),
            };
            let (runners, distance) = match (setting, rest) {
                (EncounterSetting::Dungeon, r) => (
                    r.iter()
                        .map(|w| CombatantId::new(w.to_lowercase()))
                        .collect(),
                    None,
                ),
                (EncounterSetting::Waterborne, [d]) => (Vec::new(), Some(num(d)?)),
                (EncounterSetting::Wilderness, []) => (Vec::new(), None),
                _ => return Err(usage.to_owned()),
            };
            Ok(Input::Game(Command::Bx(BxCommand::StartPursuit {
                setting,
                fleeing_rate: num(fr)?,
                pursuer_rate: num(pr)?,
                runners,
                distance,
            })))
        }
        "pursuit-round" => no_args(Input::Game(Command::Bx(BxCommand::PursuitRound {}))),
        "lure" => {
            use fray_protocol::pursuit::Lure;
            match args {
                [l] if l.eq_ignore_ascii_case("treasure") => {
                    Ok(Input::Game(Command::Bx(BxCommand::DropLure {
                        lure: Lure::Treasure,
                    })))
                }
                [l] if l.eq_ignore_ascii_case("food") => {
                    Ok(Input::Game(Command::Bx(BxCommand::DropLure {
                        lure: Lure::Food,
                    })))
                }
                _ => Err("`lure treasure|food` (GM)".to_owned()),
            }
        }
        "end-pursuit" => match args {
            [] => Ok(Input::Game(Command::Bx(BxCommand::EndPursuit {
                caught: false,
            }))),
            [c] if c.eq_ignore_ascii_case("caught") => {
                Ok(Input::Game(Command::Bx(BxCommand::EndPursuit {
                    caught: true,
                })))
            }
            _ => Err("`end-pursuit [caught]` (GM)".to_owned()),
        },
        "save-half" => match args {
            [who, cat, dice, rest @ ..] if rest.len() <= 1 => {
                let Input::Game(Command::Bx(BxCommand::SavingThrow {
                    combatant,
                    category,
                    modifier,
                })) = parse(&format!("save {who} {cat} {}", rest.join(" ")), menu)?
                else {
                    return Err("`save-half WHO CATEGORY DICE [MODIFIER]` (GM)".to_owned());
                };
                Ok(Input::Game(Command::Bx(BxCommand::SaveForHalf {
                    combatant,
                    category,
                    damage: dice.to_lowercase(),
                    modifier,
                })))
            }
            _ => Err("`save-half WHO CATEGORY DICE [MODIFIER]` (GM)".to_owned()),
        },
        "bx-check" => {
            use fray_protocol::ose::OseAbility;
            match args {
                [who, ab, rest @ ..] if rest.len() <= 1 => {
                    let ability = match ab.to_lowercase().as_str() {
                        "str" => OseAbility::Str,
                        "int" => OseAbility::Int,
                        "wis" => OseAbility::Wis,
                        "dex" => OseAbility::Dex,
                        "con" => OseAbility::Con,
                        "cha" => OseAbility::Cha,
                        other => return Err(format!("`{other}`: str, int, wis, dex, con or cha")),
                    };
                    let modifier = match rest {
                        [n] => n.parse().map_err(|_| format!("`{n}` is not a number"))?,
                        _ => 0,
                    };
                    Ok(Input::Game(Command::Bx(BxCommand::AbilityCheck {
                        combatant: CombatantId::new(who.to_lowercase()),
                        ability,
                        modifier,
                    })))
                }
                _ => Err("`bx-check WHO str|int|wis|dex|con|cha [MODIFIER]` (GM)".to_owned()),
            }
        }
        "bomb" => match args {
            [who, alt, dice, targets @ ..] if !targets.is_empty() => {
                let altitude: u32 = alt
                    .parse()
                    .map_err(|_| format!("`{alt}` is not a number"))?;
                Ok(Input::Game(Command::Bx(BxCommand::Bomb {
                    attacker: CombatantId::new(who.to_lowercase()),
                    targets: targets
                        .iter()
                        .map(|t| CombatantId::new(t.to_lowercase()))
                        .collect(),
                    damage: (*dice).to_owned(),
                    altitude,
                })))
            }
            _ => Err("`bomb FLIER ALTITUDE DICE TARGET...` (GM)".to_owned()),
        },
        "fall" | "bx-heal" => match args {
            [who, n] => {
                let n: u32 = n.parse().map_err(|_| format!("`{n}` is not a number"))?;
                let combatant = CombatantId::new(who.to_lowercase());
                Ok(Input::Game(if verb == "fall" {
                    Command::Bx(BxCommand::Fall { combatant, feet: n })
                } else {
                    Command::Bx(BxCommand::NaturalHealing { combatant, days: n })
                }))
            }
            _ if verb == "fall" => Err("`fall WHO FEET` (GM)".to_owned()),
            _ => Err("`bx-heal WHO DAYS` (GM)".to_owned()),
        },
        "bx-cure" => match args {
            [who, dice, source @ ..] if !source.is_empty() => {
                Ok(Input::Game(Command::Bx(BxCommand::MagicalHealing {
                    target: CombatantId::new(who.to_lowercase()),
                    dice: (*dice).to_owned(),
                    source: source.join(" "),
                })))
            }
            _ => Err("`bx-cure WHO DICE SOURCE...` (GM: magical healing)".to_owned()),
        },
        "drown" => match args {
            [who, chance] => match chance.trim_end_matches('%').parse::<u32>() {
                Ok(chance) => Ok(Input::Game(Command::Bx(BxCommand::DrowningCheck {
                    combatant: CombatantId::new(who.to_lowercase()),
                    chance,
                }))),
                Err(_) => Err(format!(
                    "`{chance}` is not a percent chance; `drown WHO CHANCE` (GM)"
                )),
            },
            _ => Err("`drown WHO CHANCE` (GM: the referee's chance of drowning, 1-99)".to_owned()),
        },
        "distance" => {
            use fray_protocol::ose::EncounterSetting;
            let usage = "`distance dungeon|wilderness|water [surprised]` (GM)";
            let (place, surprised) = match args {
                [p] => (p, false),
                [p, s] if s.eq_ignore_ascii_case("surprised") => (p, true),
                _ => return Err(usage.to_owned()),
            };
            let setting = match place.to_lowercase().as_str() {
                "dungeon" => EncounterSetting::Dungeon,
                "wilderness" => EncounterSetting::Wilderness,
                "water" | "waterborne" => EncounterSetting::Waterborne,
                _ => return Err(usage.to_owned()),
            };
            Ok(Input::Game(Command::Bx(BxCommand::RollEncounterDistance {
                setting,
                surprised,
            })))
        }
        "evade" => {
            use fray_protocol::ose::{EncounterSetting, EvasionSurprise};
            let usage = "`evade dungeon|water FLEE_RATE PURSUE_RATE` or `evade wilderness \
                         FLEE_RATE PURSUE_RATE FLEEING PURSUERS [surprised|surprising] [±PCT]` (GM)";
            let num = |a: &&str| a.parse::<u32>().map_err(|_| usage.to_owned());
            let (place, rest) = args.split_first().ok_or_else(|| usage.to_owned())?;
            let setting = match place.to_lowercase().as_str() {
                "dungeon" => EncounterSetting::Dungeon,
                "wilderness" => EncounterSetting::Wilderness,
                "water" | "waterborne" => EncounterSetting::Waterborne,
                _ => return Err(usage.to_owned()),
            };
            let [fr, pr, more @ ..] = rest else {
                return Err(usage.to_owned());
            };
            let (mut fleeing, mut pursuers, mut surprise, mut modifier) = (0, 0, None, 0);
            if setting == EncounterSetting::Wilderness {
                let [f, p, opts @ ..] = more else {
                    return Err(usage.to_owned());
                };
                fleeing = num(f)?;
                pursuers = num(p)?;
                for o in opts {
                    match o.to_lowercase().as_str() {
                        "surprised" => surprise = Some(EvasionSurprise::Surprised),
                        "surprising" => surprise = Some(EvasionSurprise::Surprising),
                        m => modifier = m.parse::<i32>().map_err(|_| usage.to_owned())?,
                    }
                }
            } else if !more.is_empty() {
                return Err(usage.to_owned());
            }
            Ok(Input::Game(Command::Bx(BxCommand::AttemptEvasion {
                setting,
                fleeing_rate: num(fr)?,
                pursuer_rate: num(pr)?,
                fleeing,
                pursuers,
                surprise,
                modifier,
            })))
        }
        "save" => {
            use fray_protocol::ose::SaveCategory;
            match args {
                [who, cat, rest @ ..] if rest.len() <= 1 => {
                    let category = match cat.to_lowercase().as_str() {
                        "death" | "poison" | "d" => SaveCategory::Death,
                        "wands" | "wand" | "w" => SaveCategory::Wands,
                        "paralysis" | "petrification" | "p" => SaveCategory::Paralysis,
                        "breath" | "b" => SaveCategory::Breath,
                        "spells" | "spell" | "s" => SaveCategory::Spells,
                        other => {
                            return Err(format!(
                                "`{other}`: death, wands, paralysis, breath or spells"
                            ));
                        }
                    };
                    let modifier = match rest {
                        [n] => n.parse().map_err(|_| format!("`{n}` is not a number"))?,
                        _ => 0,
                    };
                    Ok(Input::Game(Command::Bx(BxCommand::SavingThrow {
                        combatant: CombatantId::new(who.to_lowercase()),
                        category,
                        modifier,
                    })))
                }
                _ => {
                    Err("`save WHO death|wands|paralysis|breath|spells [MODIFIER]` (GM)".to_owned())
                }
            }
        }
        _ => Err(unknown_command(verb, menu)),
    }
}

/// The verbs bx_expedition_verb parses.
const BX_EXPEDITION_VERBS: &[&str] = &[
    "bx-candle",
    "bx-day",
    "bx-douse",
    "bx-effect",
    "bx-gale",
    "bx-hire",
    "bx-light",
    "bx-load",
    "bx-loyalty",
    "bx-sail",
    "bx-turn",
    "bx-voyage",
    "bx-wind",
    "bx-xp",
    "gale",
    "secret",
    "xturn",
];

/// The Old-School Essentials and Basic Fantasy verbs between encounters: secret rolls, exploration turns, light, retainers, experience, days of travel, the sea.
fn bx_expedition_verb(verb: &str, args: &[&str], menu: Option<&Menu>) -> Result<Input, String> {
    match verb {
        "secret" => {
            use fray_protocol::ose::SecretCheck;
            let Some((what, rest)) = args.split_first() else {
                return Err(
                    "`secret search|traps|listen|wandering|stuck|locked|bars|trigger [WHO] [CHANCE] [@AREA]` (GM)"
                        .to_owned(),
                );
            };
            let check = match what.to_lowercase().as_str() {
                "search" | "door" | "doors" => SecretCheck::SecretDoor,
                "traps" | "trap" => SecretCheck::RoomTrap,
                "listen" => SecretCheck::Listen,
                "wandering" | "wander" => SecretCheck::WanderingMonster,
                "stuck" => SecretCheck::StuckDoor,
                "locked" => SecretCheck::LockedDoor,
                "bars" | "bar" => SecretCheck::Bars,
                "trigger" | "springs" => SecretCheck::TrapTrigger,
                other => {
                    return Err(format!(
                        "`{other}`: search, traps, listen, wandering, stuck, locked, bars or trigger"
                    ));
                }
            };
            let mut combatant = None;
            // ose § Traps, Triggering Traps: "a 2-in-6 chance of the trap being sprung".
            let mut chance = if check == SecretCheck::TrapTrigger {
                2
            } else {
                1
            };
            let mut area = None;
            for w in rest {
                if let Some(a) = w.strip_prefix('@') {
                    area = Some(a.to_lowercase());
                    continue;
                }
                match w.parse::<u32>() {
                    Ok(n) => chance = n,
                    Err(_) => combatant = Some(CombatantId::new(w.to_lowercase())),
                }
            }
            Ok(Input::Game(Command::Bx(BxCommand::SecretRoll {
                check,
                combatant,
                chance,
                area,
            })))
        }
        "bx-turn" | "xturn" => {
            let mut wandering = None;
            let mut rest = false;
            for w in args {
                match w.parse::<u32>() {
                    Ok(n) => wandering = Some(n),
                    Err(_) if w.eq_ignore_ascii_case("rest") => rest = true,
                    Err(_) => {
                        return Err(
                            "`bx-turn [CHANCE] [rest]`: an exploration turn passes (GM)".to_owned()
                        );
                    }
                }
            }
            Ok(Input::Game(Command::Bx(BxCommand::ExplorationTurn {
                wandering,
                rest,
            })))
        }
        "bx-hire" | "bx-loyalty" => {
            let adj = |w: Option<&&str>| -> Result<i32, String> {
                w.map_or(Ok(0), |w| {
                    w.parse::<i32>().map_err(|_| format!("`{w}`: a number"))
                })
            };
            match (verb, args) {
                ("bx-hire", [who, cand, rest @ ..]) if rest.len() <= 1 => {
                    Ok(Input::Game(Command::Bx(BxCommand::HireRetainer {
                        employer: CombatantId::new(who.to_lowercase()),
                        retainer: CombatantId::new(cand.to_lowercase()),
                        adjustment: adj(rest.first())?,
                    })))
                }
                ("bx-loyalty", [who, rest @ ..]) if rest.len() <= 1 => {
                    Ok(Input::Game(Command::Bx(BxCommand::LoyaltyCheck {
                        retainer: CombatantId::new(who.to_lowercase()),
                        adjustment: adj(rest.first())?,
                    })))
                }
                _ => Err("`bx-hire WHO CANDIDATE [ADJ]` / `bx-loyalty WHO [ADJ]` (GM)".to_owned()),
            }
        }
        "bx-xp" => {
            let Some((who, rest)) = args.split_first() else {
                return Err("`bx-xp A,B,.. [BONUS] [MONSTER..]` (GM)".to_owned());
            };
            let party = ids(who);
            let mut bonus = 0;
            let mut monsters = Vec::new();
            for w in rest {
                match w.parse::<u32>() {
                    Ok(n) => bonus = n,
                    Err(_) => monsters.push(CombatantId::new(w.to_lowercase())),
                }
            }
            Ok(Input::Game(Command::Bx(BxCommand::AwardXp {
                monsters,
                bonus,
                party,
            })))
        }
        "bx-sail" => water_day(args),
        "bx-day"
            if args
                .first()
                .is_some_and(|w| w.eq_ignore_ascii_case("water")) =>
        {
            water_day(&args[1..])
        }
        "bx-candle" => match args {
            [who, inches] => Ok(Input::Game(Command::Bx(BxCommand::LightCandle {
                carrier: CombatantId::new(who.to_lowercase()),
                inches: inches
                    .trim_end_matches('"')
                    .parse()
                    .map_err(|_| format!("`{inches}` is not a height in inches (1-24)"))?,
            }))),
            _ => Err("`bx-candle WHO INCHES` (GM: a taper candle, 1-24 inches high)".to_owned()),
        },
        "bx-day" => {
            use fray_protocol::bf::{March, Terrain};
            let mut march = March::Normal;
            let mut terrain = Terrain::Clear;
            let (mut unfed, mut no_water, mut leader) = (Vec::new(), Vec::new(), None);
            for w in args {
                let w = w.to_lowercase();
                if let Some(v) = w.strip_prefix("unfed=") {
                    unfed = ids(v);
                } else if let Some(v) = w.strip_prefix("nowater=") {
                    no_water = ids(v);
                } else if let Some(v) = w.strip_prefix("leader=") {
                    leader = Some(CombatantId::new(v));
                } else {
                    match w.as_str() {
                        "rest" => march = March::Rest,
                        "normal" => march = March::Normal,
                        "forced" => march = March::Forced,
                        "air" => march = March::Air,
                        "jungle" => terrain = Terrain::Jungle,
                        "mountains" => terrain = Terrain::Mountains,
                        "swamp" => terrain = Terrain::Swamp,
                        "desert" => terrain = Terrain::Desert,
                        "forest" | "woods" => terrain = Terrain::Forest,
                        "hills" => terrain = Terrain::Hills,
                        "barren" | "broken" => terrain = Terrain::Barren,
                        "clear" | "plains" | "trail" => terrain = Terrain::Clear,
                        "grasslands" => terrain = Terrain::Grasslands,
                        "settled" | "city" => terrain = Terrain::Settled,
                        "road" => terrain = Terrain::Road,
                        other => {
                            return Err(format!(
                                "`{other}`: rest|normal|forced|air, a terrain, unfed=, nowater= or leader="
                            ));
                        }
                    }
                }
            }
            Ok(Input::Game(Command::Bx(BxCommand::PassDay {
                march,
                terrain,
                unfed,
                no_water,
                leader,
                water: None,
            })))
        }
        "bx-load" => match args {
            [who, armor, lb, rest @ ..]
                if rest.is_empty() || matches!(rest, [t] if t.eq_ignore_ascii_case("treasure")) =>
            {
                use fray_protocol::bf::ArmorType;
                let armor = match armor.to_lowercase().as_str() {
                    "none" | "unarmored" => ArmorType::None,
                    "leather" | "light" => ArmorType::Leather,
                    "metal" | "heavy" => ArmorType::Metal,
                    other => {
                        return Err(format!(
                            "`{other}`: none, leather or metal (OSE: unarmored, light, heavy)"
                        ));
                    }
                };
                let load = lb
                    .parse::<u32>()
                    .map_err(|_| format!("`{lb}`: pounds (OSE: coins of weight)"))?;
                Ok(Input::Game(Command::Bx(BxCommand::SetEncumbrance {
                    combatant: CombatantId::new(who.to_lowercase()),
                    armor,
                    load,
                    treasure: !rest.is_empty(),
                })))
            }
            _ => Err("`bx-load WHO none|leather|metal LOAD [treasure]` (GM)".to_owned()),
        },
        "bx-wind" => Ok(Input::Game(Command::Bx(BxCommand::RollWind {}))),
        "bx-gale" => match args {
            [h] => Ok(Input::Game(Command::Bx(BxCommand::GaleDamage {
                hours: h.parse().map_err(|_| format!("`{h}` is not a number"))?,
            }))),
            _ => Err("`bx-gale HOURS` (GM)".to_owned()),
        },
        "gale" => {
            let usage = "`gale near|full seaworthy|unseaworthy [land] [clear]` (GM)";
            let [kind, ship, rest @ ..] = args else {
                return Err(usage.to_owned());
            };
            let near = match kind.to_lowercase().as_str() {
                "near" => true,
                "full" => false,
                _ => return Err(usage.to_owned()),
            };
            let seaworthy = match ship.to_lowercase().as_str() {
                "seaworthy" => true,
                "unseaworthy" => false,
                _ => return Err(usage.to_owned()),
            };
            let (mut land, mut clear_shore) = (false, false);
            for w in rest {
                match w.to_lowercase().as_str() {
                    "land" => land = true,
                    "clear" => clear_shore = true,
                    _ => return Err(usage.to_owned()),
                }
            }
            Ok(Input::Game(Command::Bx(BxCommand::GaleStrikes {
                near,
                seaworthy,
                land,
                clear_shore,
            })))
        }
        "bx-effect" => {
            let Some((turns, rest)) = args.split_first() else {
                return Err("`bx-effect TURNS [@WHO] NAME` (GM)".to_owned());
            };
            let turns = turns
                .parse::<u32>()
                .map_err(|_| format!("`{turns}`: a number of turns"))?;
            let mut combatant = None;
            let mut name = Vec::new();
            for w in rest {
                match w.strip_prefix('@') {
                    Some(c) => combatant = Some(CombatantId::new(c.to_lowercase())),
                    None => name.push(*w),
                }
            }
            Ok(Input::Game(Command::Bx(BxCommand::TimeEffect {
                name: name.join(" "),
                combatant,
                turns,
            })))
        }
        "bx-light" | "bx-douse" => {
            use fray_protocol::ose::LightSource;
            match args {
                [who, src] => {
                    let carrier = CombatantId::new(who.to_lowercase());
                    let source = match src.to_lowercase().as_str() {
                        "torch" => LightSource::Torch,
                        "lantern" | "oil" => LightSource::Lantern,
                        // A candle is lit with `bx-candle` (its height); it is doused here.
                        "candle" if verb == "bx-douse" => LightSource::Candle,
                        other if verb == "bx-douse" => {
                            return Err(format!("`{other}`: torch, lantern or candle"));
                        }
                        other => {
                            return Err(format!(
                                "`{other}`: torch or lantern (a candle: `bx-candle WHO INCHES`)"
                            ));
                        }
                    };
                    Ok(Input::Game(if verb == "bx-light" {
                        Command::Bx(BxCommand::LightSource { carrier, source })
                    } else {
                        Command::Bx(BxCommand::DouseLight { carrier, source })
                    }))
                }
                _ if verb == "bx-douse" => {
                    Err("`bx-douse WHO torch|lantern|candle` (GM)".to_owned())
                }
                _ => Err(format!("`{verb} WHO torch|lantern` (GM)")),
            }
        }
        "bx-voyage" => bf_voyage(args),
        _ => Err(unknown_command(verb, menu)),
    }
}

/// The verbs ftd_verb parses.
const FTD_VERBS: &[&str] = &[
    "check",
    "concentrate",
    "crawl",
    "delay-to",
    "delayto",
    "grant",
    "heal",
    "morale",
    "ready-for",
    "resolve",
    "retreat",
    "unconcentrate",
];

/// The Five Torches Deep verbs (besides treasure and travel, `ftd_treasure_and_travel`).
fn ftd_verb(verb: &str, args: &[&str], menu: Option<&Menu>) -> Result<Input, String> {
    let no_args = |input: Input| no_args_for(verb, args, input);
    let need_menu = || menu_for(verb, menu);
    match verb {
        "crawl" => {
            // Five Torches Deep § Movement Actions: special movement at half speed.
            let m = need_menu()?;
            let actor = m.actor.clone();
            let (engage, far_away) = match args {
                [] => (None, false),
                [w] if w.eq_ignore_ascii_case("far") => (None, true),
                [w] => (Some(m.target(w)?), false),
                _ => {
                    return Err(
                        "`crawl`, `crawl TARGET` or `crawl far` (special movement: both actions)"
                            .to_owned(),
                    );
                }
            };
            Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::SpecialMove {
                actor,
                engage,
                far_away,
            })))
        }
        "ready-for" => {
            let actor = need_menu()?.actor.clone();
            let (action, trigger) = match args.split_first() {
                Some((w, rest)) if w.eq_ignore_ascii_case("move") => {
                    (fray_protocol::event::ActionKind::Move, rest)
                }
                Some((w, rest)) if w.eq_ignore_ascii_case("active") => {
                    (fray_protocol::event::ActionKind::Standard, rest)
                }
                _ => return Err("`ready-for active|move TRIGGER...`".to_owned()),
            };
            if trigger.is_empty() {
                return Err("`ready-for active|move TRIGGER...`: declare the trigger".to_owned());
            }
            Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::ReadyAction {
                actor,
                action,
                trigger: trigger.join(" "),
            })))
        }
        "retreat" => {
            let actor = need_menu()?.actor.clone();
            no_args(Input::Game(Command::FiveTorches(FiveTorchesCommand::Retreat { actor })))
        }
        "delay-to" | "delayto" => {
            let m = need_menu()?;
            match args {
                [w] => Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::DelayTo {
                    actor: m.actor.clone(),
                    after: m.anyone(w)?,
                }))),
                _ => Err("`delay-to WHO`: act right after WHO from now on".to_owned()),
            }
        }
        "grant" => match args {
            [who, adv] => Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::GrantAdvantage {
                combatant: CombatantId::new(who.to_lowercase()),
                advantage: advantage(adv)?,
            }))),
            _ => Err("`grant WHO adv|dis|none` (GM)".to_owned()),
        },
        "check" => match args {
            [who, ability, dc, rest @ ..] => {
                let mut proficient = false;
                let mut adv = fray_protocol::ftd::Advantage::None;
                let mut damage = None;
                let mut task = None;
                for w in rest {
                    match w.to_lowercase().as_str() {
                        "prof" | "proficient" => proficient = true,
                        "adv" | "dis" | "none" => adv = advantage(w)?,
                        t => match light_task(t) {
                            Some(k) => task = Some(k),
                            None => damage = Some(t.to_owned()),
                        },
                    }
                }
                Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::Check {
                    combatant: CombatantId::new(who.to_lowercase()),
                    ability: ability_word(ability)?,
                    dc: dc.parse().map_err(|_| format!("`{dc}` is not a number"))?,
                    proficient,
                    advantage: adv,
                    damage,
                    purpose: None,
                    task,
                })))
            }
            _ => Err(
                "`check WHO ABILITY DC [prof] [adv|dis] [TASK] [DAMAGE]` (GM; TASK: stealth, listening, sight, defense, danger, finesse, tracking, movement)"
                    .to_owned(),
            ),
        },
        "morale" => {
            let (group, who) = match args.split_first() {
                Some((g, rest)) if g.eq_ignore_ascii_case("group") => (true, rest),
                _ => (false, args),
            };
            if who.is_empty() {
                return Err("`morale [group] WHO...` (GM)".to_owned());
            }
            Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::MoraleCheck {
                combatants: who
                    .iter()
                    .map(|w| CombatantId::new(w.to_lowercase()))
                    .collect(),
                group,
                advantage: fray_protocol::ftd::Advantage::None,
                on_failure: fray_protocol::ftd::MoraleOutcome::Flee,
            })))
        }
        "heal" => match args {
            [who, dice] => Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::Heal {
                target: CombatantId::new(who.to_lowercase()),
                dice: dice.to_lowercase(),
                by: None,
            }))),
            _ => Err("`heal WHO DICE` (GM: magic or medicine)".to_owned()),
        },
        "resolve" => {
            let (check, attackers) = match args {
                [ability, dc, rest @ ..] if ability_word(ability).is_ok() => (
                    Some(fray_protocol::command::RetreatCheck {
                        ability: ability_word(ability)?,
                        dc: dc.parse().map_err(|_| format!("`{dc}` is not a number"))?,
                        proficient: false,
                    }),
                    rest,
                ),
                rest => (None, rest),
            };
            Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::ResolveRetreat {
                check,
                attackers: attackers
                    .iter()
                    .map(|w| CombatantId::new(w.to_lowercase()))
                    .collect(),
            })))
        }
        "concentrate" => {
            let actor = need_menu()?.actor.clone();
            if args.is_empty() {
                return Err("`concentrate EFFECT...`: name the effect".to_owned());
            }
            Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::Concentrate {
                actor,
                effect: args.join(" "),
            })))
        }
        "unconcentrate" => {
            let actor = need_menu()?.actor.clone();
            no_args(Input::Game(Command::FiveTorches(FiveTorchesCommand::EndConcentration { actor })))
        }
        _ => Err(unknown_command(verb, menu)),
    }
}

/// The verbs ftd_dungeon_verb parses.
const FTD_DUNGEON_VERBS: &[&str] = &[
    "camp",
    "chase",
    "corrupt",
    "cure",
    "douse",
    "exhaust",
    "lantern",
    "light",
    "load",
    "resilience",
    "return",
    "set-time",
    "stealth-dc",
    "time-dice",
    "torch",
    "travel",
];

/// The Five Torches Deep verbs of the dungeon and the road: light, load, travel turns, resilience, rolling to return, chases, corruption, the time dice, rests, stealth.
fn ftd_dungeon_verb(verb: &str, args: &[&str], menu: Option<&Menu>) -> Result<Input, String> {
    let need_menu = || menu_for(verb, menu);
    match verb {
        "light" => {
            let (who, level) = match args {
                [level] => (None, *level),
                [who, level] => (Some(CombatantId::new(who.to_lowercase())), *level),
                _ => return Err(LIGHT_HELP.to_owned()),
            };
            let light = match level.to_lowercase().as_str() {
                "scene" if who.is_some() => None,
                w => Some(light_level(w).ok_or_else(|| LIGHT_HELP.to_owned())?),
            };
            Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::SetLight {
                    combatant: who,
                    light,
                },
            )))
        }
        "torch" | "lantern" | "douse" => {
            use fray_protocol::ftd::LightSource;
            let actor = match args {
                [w] => CombatantId::new(w.to_lowercase()),
                [] => need_menu()?.actor.clone(),
                _ => {
                    return Err(
                        "`torch|lantern|douse [WHO]`: light a fresh one, or put it out".to_owned(),
                    );
                }
            };
            Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::CarryLight {
                    actor,
                    source: match verb {
                        "torch" => Some(LightSource::Torch),
                        "lantern" => Some(LightSource::Lantern),
                        _ => None,
                    },
                },
            )))
        }
        "load" => match args {
            [who, load, rest @ ..] if rest.len() <= 1 => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::SetLoad {
                    combatant: CombatantId::new(who.to_lowercase()),
                    load: load
                        .parse()
                        .map_err(|_| format!("`{load}` is not a number"))?,
                    coins: match rest.first() {
                        Some(c) => c.parse().map_err(|_| format!("`{c}` is not a number"))?,
                        None => 0,
                    },
                },
            ))),
            _ => Err("`load WHO LOAD [COINS]` (GM)".to_owned()),
        },
        "travel" => match args {
            [] => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::TravelTurn {
                    advantage: fray_protocol::ftd::Advantage::None,
                },
            ))),
            [adv] => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::TravelTurn {
                    advantage: advantage(adv)?,
                },
            ))),
            _ => Err("`travel [adv|dis]` (GM: a travel turn)".to_owned()),
        },
        "resilience" => match args {
            [who] => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::ResilienceCheck {
                    combatant: CombatantId::new(who.to_lowercase()),
                },
            ))),
            _ => Err("`resilience WHO` (GM)".to_owned()),
        },
        "return" => {
            let path = match args.first().map(|w| w.to_lowercase()) {
                Some(w) if w == "dangerous" => fray_protocol::ftd::ReturnPath::Dangerous,
                Some(w) if w == "arduous" => fray_protocol::ftd::ReturnPath::Arduous,
                _ => {
                    return Err(
                        "`return dangerous|arduous [WHO..]` (GM: roll to return)".to_owned()
                    );
                }
            };
            Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::RollToReturn {
                    path,
                    combatants: args
                        .iter()
                        .skip(1)
                        .map(|w| CombatantId::new(w.to_lowercase()))
                        .collect(),
                },
            )))
        }
        "chase" => {
            let usage = "`chase open|uneven|overland SPEED WHO.. [group] [adv|dis] [dc=N]` (GM)";
            let (Some(terrain), Some(speed)) = (args.first(), args.get(1)) else {
                return Err(usage.to_owned());
            };
            let terrain = match terrain.to_lowercase().as_str() {
                "open" => fray_protocol::ftd::ChaseTerrain::Open,
                "uneven" => fray_protocol::ftd::ChaseTerrain::Uneven,
                "overland" => fray_protocol::ftd::ChaseTerrain::Overland,
                _ => return Err(usage.to_owned()),
            };
            let speed = speed
                .parse()
                .map_err(|_| format!("`{speed}` is not a speed in feet"))?;
            let (mut group, mut adv, mut dc_modifier) =
                (false, fray_protocol::ftd::Advantage::None, 0);
            let mut pursuers = Vec::new();
            for w in args.iter().skip(2) {
                let lw = w.to_lowercase();
                if lw == "group" {
                    group = true;
                } else if lw == "adv" || lw == "dis" {
                    adv = advantage(&lw)?;
                } else if let Some(n) = lw.strip_prefix("dc=") {
                    dc_modifier = n.parse().map_err(|_| format!("`{n}` is not a number"))?;
                } else {
                    pursuers.push(CombatantId::new(lw));
                }
            }
            Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::Chase {
                    pursuers,
                    speed,
                    terrain,
                    group,
                    advantage: adv,
                    dc_modifier,
                },
            )))
        }
        "corrupt" => match args {
            [who, rest @ ..] if rest.len() <= 2 => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::CorruptionCheck {
                    combatant: CombatantId::new(who.to_lowercase()),
                    name: rest.first().map(|w| w.replace('_', " ")),
                    dc: match rest.get(1) {
                        Some(dc) => Some(dc.parse().map_err(|_| format!("`{dc}` is not a DC"))?),
                        None => None,
                    },
                    check: None,
                    damages: None,
                },
            ))),
            _ => Err("`corrupt WHO [NAME [DC]]` (GM; NAME with _ for spaces)".to_owned()),
        },
        "time-dice" => {
            let usage = "`time-dice N [duration|from HOUR]` (GM: N is 1-4, or 1-2 from HOUR)";
            let num = |w: &str| w.parse::<u32>().map_err(|_| usage.to_owned());
            match args {
                [n] => Ok(Input::Game(Command::FiveTorches(
                    FiveTorchesCommand::RollTimeDice {
                        dice: num(n)?,
                        purpose: TimeDicePurpose::TimeOfDay,
                        start_hour: None,
                    },
                ))),
                [n, d] if d.eq_ignore_ascii_case("duration") => Ok(Input::Game(
                    Command::FiveTorches(FiveTorchesCommand::RollTimeDice {
                        dice: num(n)?,
                        purpose: TimeDicePurpose::Duration,
                        start_hour: None,
                    }),
                )),
                [n, f, h] if f.eq_ignore_ascii_case("from") => Ok(Input::Game(
                    Command::FiveTorches(FiveTorchesCommand::RollTimeDice {
                        dice: num(n)?,
                        purpose: TimeDicePurpose::TimeOfDay,
                        start_hour: Some(num(h)?),
                    }),
                )),
                _ => Err(usage.to_owned()),
            }
        }
        "set-time" => match args {
            [h] => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::SetTime {
                    hour: h
                        .parse()
                        .map_err(|_| format!("`{h}` is not an hour (0-23)"))?,
                },
            ))),
            _ => Err("`set-time HOUR` (GM: 0-23)".to_owned()),
        },
        "cure" => match args {
            [who] => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::EndCorruption {
                    combatant: CombatantId::new(who.to_lowercase()),
                },
            ))),
            _ => Err("`cure WHO` (GM: the corruption ends)".to_owned()),
        },
        "exhaust" => match args {
            [who] => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::Exhaust {
                    combatant: CombatantId::new(who.to_lowercase()),
                },
            ))),
            _ => Err("`exhaust WHO` (GM)".to_owned()),
        },
        "camp" => {
            let safe = match args.first().map(|w| w.to_lowercase()) {
                Some(w) if w == "safe" => true,
                Some(w) if w == "unsafe" => false,
                _ => return Err("`camp safe|unsafe [NIGHTS]` (GM: the party rests)".to_owned()),
            };
            let nights = match args.get(1) {
                Some(n) => n.parse().map_err(|_| format!("`{n}` is not a number"))?,
                None => 1,
            };
            Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::Rest { safe, nights },
            )))
        }
        "stealth-dc" => match args {
            [w] if w.eq_ignore_ascii_case("default") => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::SetStealthDc { dc: None },
            ))),
            [w] => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::SetStealthDc {
                    dc: Some(w.parse().map_err(|_| format!("`{w}` is not a number"))?),
                },
            ))),
            _ => Err("`stealth-dc N|default` (GM)".to_owned()),
        },
        _ => Err(unknown_command(verb, menu)),
    }
}

/// The verbs thirteenth_age_verb parses.
const THIRTEENTH_AGE_VERBS: &[&str] = &[
    "act",
    "ambush",
    "d",
    "delay",
    "disengage",
    "escalation",
    "intercept",
    "mod",
    "modifier",
    "potion",
    "spirit",
    "teleport",
    "undelay",
];

/// The 13th Age verbs: fighting in spirit, ambushes, the escalation die, situational modifiers, potions, knock-outs, intercepts and teleports.
fn thirteenth_age_verb(verb: &str, args: &[&str], menu: Option<&Menu>) -> Result<Input, String> {
    let no_args = |input: Input| no_args_for(verb, args, input);
    let need_menu = || menu_for(verb, menu);
    match verb {
        "spirit" => match args {
            [who, ally, stat] => {
                use fray_protocol::event::BonusStat;
                let stat = match stat.to_lowercase().as_str() {
                    "attack" | "attacks" => BonusStat::Attack,
                    "ac" => BonusStat::Ac,
                    "pd" => BonusStat::Pd,
                    "md" => BonusStat::Md,
                    other => return Err(format!("`{other}`: attack, ac, pd or md")),
                };
                Ok(Input::Game(Command::ThirteenthAge(
                    ThirteenthAgeCommand::FightInSpirit {
                        actor: CombatantId::new(who.to_lowercase()),
                        ally: CombatantId::new(ally.to_lowercase()),
                        stat,
                    },
                )))
            }
            _ => Err(
                "`spirit WHO ALLY attack|ac|pd|md`: fight in spirit (a PC out of the fight)"
                    .to_owned(),
            ),
        },
        "ambush" => match args {
            [who] | [who, _] => Ok(Input::Game(Command::ThirteenthAge(
                ThirteenthAgeCommand::StartAmbush {
                    ambusher: CombatantId::new(who.to_lowercase()),
                    advance_escalation: args
                        .get(1)
                        .is_some_and(|w| w.eq_ignore_ascii_case("escalate")),
                },
            ))),
            _ => Err("`ambush WHO [escalate]` (GM): start with an ambush round".to_owned()),
        },
        "escalation" => match args {
            [w] => {
                let action = match w.to_lowercase().as_str() {
                    "hold" => fray_protocol::command::EscalationAction::Hold,
                    "resume" => fray_protocol::command::EscalationAction::Resume,
                    "reset" => fray_protocol::command::EscalationAction::Reset,
                    _ => return Err("`escalation hold|resume|reset` (GM)".to_owned()),
                };
                Ok(Input::Game(Command::ThirteenthAge(
                    ThirteenthAgeCommand::Escalation { action },
                )))
            }
            _ => Err("`escalation hold|resume|reset` (GM)".to_owned()),
        },
        "modifier" | "mod" => match args {
            [who, stat, n] => {
                use fray_protocol::event::BonusStat;
                let stat = match stat.to_lowercase().as_str() {
                    "attack" | "attacks" => BonusStat::Attack,
                    "ac" => BonusStat::Ac,
                    "pd" => BonusStat::Pd,
                    "md" => BonusStat::Md,
                    other => return Err(format!("`{other}`: attack, ac, pd or md")),
                };
                Ok(Input::Game(Command::ThirteenthAge(
                    ThirteenthAgeCommand::SituationalModifier {
                        target: CombatantId::new(who.to_lowercase()),
                        stat,
                        amount: n.parse().map_err(|_| format!("`{n}` is not a number"))?,
                    },
                )))
            }
            _ => Err("`modifier WHO attack|ac|pd|md +2|-2` (GM)".to_owned()),
        },
        "delay" => {
            let actor = need_menu()?.actor.clone();
            no_args(Input::Game(Command::ThirteenthAge(
                ThirteenthAgeCommand::Delay { actor },
            )))
        }
        "undelay" | "act" => match args {
            [who] => Ok(Input::Game(Command::ThirteenthAge(
                ThirteenthAgeCommand::Undelay {
                    actor: CombatantId::new(who.to_lowercase()),
                },
            ))),
            _ => Err("`act WHO`: a delaying combatant acts after the current turn".to_owned()),
        },
        "disengage" | "d" => {
            let actor = need_menu()?.actor.clone();
            no_args(Input::Game(Command::ThirteenthAge(
                ThirteenthAgeCommand::Disengage { actor },
            )))
        }
        "potion" => {
            let m = need_menu()?;
            match args {
                [] => Ok(Input::Game(Command::ThirteenthAge(
                    ThirteenthAgeCommand::UsePotion {
                        actor: m.actor.clone(),
                        target: m.actor.clone(),
                    },
                ))),
                [w] => Ok(Input::Game(Command::ThirteenthAge(
                    ThirteenthAgeCommand::UsePotion {
                        actor: m.actor.clone(),
                        target: m.anyone(w)?,
                    },
                ))),
                _ => Err("`potion` (drink) or `potion ALLY` (feed a dying ally)".to_owned()),
            }
        }
        "intercept" => match args {
            [actor, mover] => Ok(Input::Game(Command::ThirteenthAge(
                ThirteenthAgeCommand::Intercept {
                    actor: CombatantId::new(actor.to_lowercase()),
                    mover: CombatantId::new(mover.to_lowercase()),
                },
            ))),
            _ => Err("`intercept INTERCEPTOR MOVER`".to_owned()),
        },
        "teleport" => match args {
            [who] => Ok(Input::Game(Command::ThirteenthAge(
                ThirteenthAgeCommand::Teleport {
                    target: CombatantId::new(who.to_lowercase()),
                    engage: None,
                    far_away: false,
                },
            ))),
            [who, w] => Ok(Input::Game(Command::ThirteenthAge(
                ThirteenthAgeCommand::Teleport {
                    target: CombatantId::new(who.to_lowercase()),
                    engage: (!w.eq_ignore_ascii_case("far"))
                        .then(|| CombatantId::new(w.to_lowercase())),
                    far_away: w.eq_ignore_ascii_case("far"),
                },
            ))),
            _ => Err("`teleport WHO [ENEMY|far]` (GM)".to_owned()),
        },
        _ => Err(unknown_command(verb, menu)),
    }
}

/// "unknown command", with the nearest verb of the help (or attack of the menu) when one is
/// a typo away.
fn unknown_command(verb: &str, menu: Option<&Menu>) -> String {
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

const LIGHT_HELP: &str =
    "`light [WHO] dark|dim|lit|brilliant` (GM; `light WHO scene`: back to the scene's light)";

fn light_level(w: &str) -> Option<fray_protocol::ftd::LightLevel> {
    use fray_protocol::ftd::LightLevel;
    match w {
        "dark" | "darkness" => Some(LightLevel::Darkness),
        "dim" => Some(LightLevel::Dim),
        "lit" | "well-lit" | "well_lit" => Some(LightLevel::WellLit),
        "brilliant" | "bright" => Some(LightLevel::Brilliant),
        _ => None,
    }
}

fn light_task(w: &str) -> Option<fray_protocol::ftd::LightTask> {
    use fray_protocol::ftd::LightTask;
    match w {
        "stealth" => Some(LightTask::Stealth),
        "listening" | "listen" => Some(LightTask::Listening),
        "sight" => Some(LightTask::Sight),
        "defense" => Some(LightTask::Defense),
        "danger" => Some(LightTask::Danger),
        "finesse" => Some(LightTask::Finesse),
        "tracking" => Some(LightTask::Tracking),
        "movement" => Some(LightTask::Movement),
        _ => None,
    }
}

/// Five Torches Deep § Treasure, § Overland Travel and § Overwater Travel: `loot`, `treasure`,
/// `magic-item`, `sell`, `journey`, `voyage` (`None` for any other verb).
fn ftd_treasure_and_travel(verb: &str, args: &[&str]) -> Option<Result<Input, String>> {
    let parsed = match (verb, args) {
        ("loot", [who, enemy]) => ftd(FiveTorchesCommand::Loot {
            looter: lower_id(who),
            enemy: lower_id(enemy),
        }),
        ("loot", _) => Err("`loot WHO ENEMY` (GM)".to_owned()),
        ("treasure", [who, rest @ ..]) if !rest.is_empty() => treasure(who, rest),
        ("treasure", _) => Err("`treasure WHO GP [SP [CP]] [unearned]` (GM)".to_owned()),
        ("magic-item", [who, value, name @ ..]) if !name.is_empty() => {
            number(value).and_then(|value| {
                ftd(FiveTorchesCommand::MagicItem {
                    to: lower_id(who),
                    name: name.join(" "),
                    value,
                })
            })
        }
        ("magic-item", _) => Err("`magic-item WHO VALUE NAME...` (GM)".to_owned()),
        ("sell", [who, gp, name @ ..]) if !name.is_empty() => number(gp).and_then(|gp| {
            ftd(FiveTorchesCommand::SellItem {
                seller: lower_id(who),
                name: name.join(" "),
                gp,
            })
        }),
        ("sell", _) => Err("`sell WHO GP NAME...` (GM)".to_owned()),
        ("journey", [days, rest @ ..]) => journey(days, rest),
        ("journey", _) => Err(
            "`journey DAYS [open|difficult|harsh] [normal|tactical|stealthy] [adv|dis]` (GM)"
                .to_owned(),
        ),
        ("voyage", [vessel, hours, rest @ ..]) => voyage(vessel, hours, rest),
        ("voyage", _) => {
            Err("`voyage boat|ship HOURS [favorable|unfavorable] [adv|dis]` (GM)".to_owned())
        }
        _ => return None,
    };
    Some(parsed)
}

fn lower_id(w: &str) -> CombatantId {
    CombatantId::new(w.to_lowercase())
}

fn number(w: &str) -> Result<u32, String> {
    w.parse::<u32>()
        .map_err(|_| format!("`{w}` is not a number"))
}

fn ftd(c: FiveTorchesCommand) -> Result<Input, String> {
    Ok(Input::Game(Command::FiveTorches(c)))
}

/// `treasure WHO GP [SP [CP]] [unearned]`.
fn treasure(who: &str, rest: &[&str]) -> Result<Input, String> {
    let unearned = rest
        .last()
        .is_some_and(|w| w.eq_ignore_ascii_case("unearned"));
    let coins = if unearned {
        &rest[..rest.len() - 1]
    } else {
        rest
    };
    let [gp, sp, cp] = match coins {
        [gp] => [number(gp)?, 0, 0],
        [gp, sp] => [number(gp)?, number(sp)?, 0],
        [gp, sp, cp] => [number(gp)?, number(sp)?, number(cp)?],
        _ => return Err("`treasure WHO GP [SP [CP]] [unearned]` (GM)".to_owned()),
    };
    ftd(FiveTorchesCommand::Treasure {
        to: lower_id(who),
        gp,
        sp,
        cp,
        unearned,
    })
}

/// `journey DAYS [open|difficult|harsh] [normal|tactical|stealthy] [adv|dis]`.
fn journey(days: &str, rest: &[&str]) -> Result<Input, String> {
    use fray_protocol::ftd::{TravelPace, TravelTerrain};
    let (mut terrain, mut pace) = (TravelTerrain::Open, TravelPace::Normal);
    let mut adv = fray_protocol::ftd::Advantage::None;
    for w in rest {
        match w.to_lowercase().as_str() {
            "open" => terrain = TravelTerrain::Open,
            "difficult" => terrain = TravelTerrain::Difficult,
            "harsh" => terrain = TravelTerrain::Harsh,
            "normal" => pace = TravelPace::Normal,
            "tactical" => pace = TravelPace::Tactical,
            "stealthy" => pace = TravelPace::Stealthy,
            other => adv = advantage(other)?,
        }
    }
    ftd(FiveTorchesCommand::TravelOverland {
        days: number(days)?,
        terrain,
        pace,
        advantage: adv,
    })
}

/// `voyage boat|ship HOURS [favorable|unfavorable] [adv|dis]`.
fn voyage(vessel: &str, hours: &str, rest: &[&str]) -> Result<Input, String> {
    use fray_protocol::ftd::{Current, Vessel};
    let vessel = match vessel.to_lowercase().as_str() {
        "boat" => Vessel::Boat,
        "ship" => Vessel::Ship,
        other => return Err(format!("`{other}`: boat or ship")),
    };
    let mut current = Current::Neutral;
    let mut adv = fray_protocol::ftd::Advantage::None;
    for w in rest {
        match w.to_lowercase().as_str() {
            "favorable" => current = Current::Favorable,
            "unfavorable" => current = Current::Unfavorable,
            other => adv = advantage(other)?,
        }
    }
    ftd(FiveTorchesCommand::TravelOverwater {
        vessel,
        hours: number(hours)?,
        current,
        advantage: adv,
    })
}

fn advantage(w: &str) -> Result<fray_protocol::ftd::Advantage, String> {
    use fray_protocol::ftd::Advantage;
    match w.to_lowercase().as_str() {
        "adv" | "advantage" => Ok(Advantage::Advantage),
        "dis" | "disadvantage" => Ok(Advantage::Disadvantage),
        "none" => Ok(Advantage::None),
        other => Err(format!("`{other}` is not adv, dis or none")),
    }
}

fn ability_word(w: &str) -> Result<fray_protocol::ftd::Ability, String> {
    use fray_protocol::ftd::Ability;
    match w.to_lowercase().as_str() {
        "str" => Ok(Ability::Str),
        "dex" => Ok(Ability::Dex),
        "con" => Ok(Ability::Con),
        "int" => Ok(Ability::Int),
        "wis" => Ok(Ability::Wis),
        "cha" => Ok(Ability::Cha),
        other => Err(format!("`{other}` is not str, dex, con, int, wis or cha")),
    }
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

/// A comma-separated list of combatant ids.
fn ids(list: &str) -> Vec<CombatantId> {
    list.split(',')
        .filter(|w| !w.is_empty())
        .map(|w| CombatantId::new(w.to_lowercase()))
        .collect()
}

/// `bx-voyage SAIL ROW [navigator] [coastal] [tacking] [unfed=A,B] [nowater=A,B]` (Basic
/// Fantasy's `sail`).
fn bf_voyage(args: &[&str]) -> Result<Input, String> {
    const USAGE: &str = "`bx-voyage SAIL ROW [navigator] [coastal] [tacking] [unfed=A,B] [nowater=A,B]` (GM; SAIL, ROW: miles per 12-hour day, 0 for none)";
    let [sail, row, rest @ ..] = args else {
        return Err(USAGE.into());
    };
    let (Ok(sailing_miles), Ok(rowing_miles)) = (sail.parse::<u32>(), row.parse::<u32>()) else {
        return Err(format!("SAIL and ROW are miles per day; {USAGE}"));
    };
    let (mut navigator, mut stops_at_night, mut against_wind) = (false, false, false);
    let (mut unfed, mut no_water) = (Vec::new(), Vec::new());
    for w in rest {
        let w = w.to_lowercase();
        if let Some(v) = w.strip_prefix("unfed=") {
            unfed = ids(v);
        } else if let Some(v) = w.strip_prefix("nowater=") {
            no_water = ids(v);
        } else {
            match w.as_str() {
                "navigator" => navigator = true,
                "coastal" => stops_at_night = true,
                "tacking" => against_wind = true,
                other => return Err(format!("`{other}`: {USAGE}")),
            }
        }
    }
    Ok(Input::Game(Command::Bx(BxCommand::Sail {
        sailing_miles,
        rowing_miles,
        navigator,
        stops_at_night,
        against_wind,
        unfed,
        no_water,
    })))
}

/// `bx-sail RATE sea|coast|river|swamp [downstream|upstream] [navigator] [unfed=A,B]
/// [nowater=A,B] [leader=X]`: a day on the water (`pass_day` `march` `water`, OSE § Waterborne
/// Adventuring, Travel on the Water).
fn water_day(args: &[&str]) -> Result<Input, String> {
    use fray_protocol::bf::{March, Terrain};
    use fray_protocol::ose::{Current, WaterDay, Waters};
    const USAGE: &str = "`bx-sail RATE sea|coast|river|swamp [downstream|upstream] [navigator] [unfed=A,B] [nowater=A,B] [leader=X]` (GM; RATE: the vessel's feet per turn)";
    let [rate, rest @ ..] = args else {
        return Err(USAGE.into());
    };
    let rate = rate
        .parse::<u32>()
        .map_err(|_| format!("`{rate}` is not a rate in feet per turn; {USAGE}"))?;
    let (mut waters, mut current, mut navigator) = (None, Current::None, false);
    let (mut unfed, mut no_water, mut leader) = (Vec::new(), Vec::new(), None);
    for w in rest {
        let w = w.to_lowercase();
        if let Some(v) = w.strip_prefix("unfed=") {
            unfed = ids(v);
        } else if let Some(v) = w.strip_prefix("nowater=") {
            no_water = ids(v);
        } else if let Some(v) = w.strip_prefix("leader=") {
            leader = Some(CombatantId::new(v));
        } else {
            match w.as_str() {
                "sea" | "ocean" => waters = Some(Waters::Sea),
                "coast" => waters = Some(Waters::Coast),
                "river" => waters = Some(Waters::River),
                "swamp" => waters = Some(Waters::Swamp),
                "downstream" => current = Current::Downstream,
                "upstream" => current = Current::Upstream,
                "navigator" => navigator = true,
                other => return Err(format!("`{other}`: {USAGE}")),
            }
        }
    }
    let Some(waters) = waters else {
        return Err(format!("which waters: sea, coast, river or swamp? {USAGE}"));
    };
    Ok(Input::Game(Command::Bx(BxCommand::PassDay {
        march: March::Water,
        terrain: Terrain::Clear,
        unfed,
        no_water,
        leader,
        water: Some(WaterDay {
            rate,
            waters,
            current,
            navigator,
        }),
    })))
}

/// `skill-check WHO SKILL DC|easy|moderate|hard [PURPOSE...]`: the GM's Orcus skill check
/// (`orcus_check`).
fn orcus_check(args: &[&str]) -> Result<Input, String> {
    use fray_protocol::command::CheckDifficulty;
    const USAGE: &str =
        "`skill-check WHO SKILL DC|easy|moderate|hard [PURPOSE...]` (GM; SKILL e.g. athletics)";
    let [who, skill, against, purpose @ ..] = args else {
        return Err(USAGE.into());
    };
    let (dc, difficulty) = match against.to_lowercase().as_str() {
        "easy" => (None, Some(CheckDifficulty::Easy)),
        "moderate" => (None, Some(CheckDifficulty::Moderate)),
        "hard" => (None, Some(CheckDifficulty::Hard)),
        other => match other.strip_prefix("dc").unwrap_or(other).parse::<i32>() {
            Ok(n) => (Some(n), None),
            Err(_) => {
                return Err(format!(
                    "`{against}` is not a DC or easy, moderate or hard; {USAGE}"
                ));
            }
        },
    };
    Ok(Input::Game(Command::Orcus(OrcusCommand::OrcusCheck {
        combatant: CombatantId::new(who.to_lowercase()),
        skill: skill.to_lowercase(),
        dc,
        difficulty,
        purpose: (!purpose.is_empty()).then(|| purpose.join(" ")),
    })))
}

/// `skill WHO KIND [TARGET] [standard|move|swift] [foreign] [EFFECT]`: an Orcus skill action.
fn skill_action(args: &[&str]) -> Result<Input, String> {
    use fray_protocol::command::SkillActionKind as K;
    const USAGE: &str = "usage: skill WHO feint|grant-save|rally-ally|create-diversion|deter|unnerve [TARGET] [standard|move|swift] [foreign] [hide] [EFFECT]";
    let [who, kind, rest @ ..] = args else {
        return Err(USAGE.into());
    };
    let action = match kind.to_lowercase().replace('_', "-").as_str() {
        "feint" => K::Feint,
        "grant-save" => K::GrantSave,
        "rally-ally" => K::RallyAlly,
        "create-diversion" | "diversion" => K::CreateDiversion,
        "deter" => K::Deter,
        "unnerve" => K::Unnerve,
        _ => return Err(USAGE.into()),
    };
    let actor = CombatantId::new(who.to_lowercase());
    let mut target = actor.clone();
    let (mut effect, mut forbid, mut foreign, mut hide) = (None, None, false, false);
    for (i, a) in rest.iter().enumerate() {
        match a.to_lowercase().as_str() {
            "hide" => hide = true,
            "standard" => forbid = Some(fray_protocol::event::ActionKind::Standard),
            "move" => forbid = Some(fray_protocol::event::ActionKind::Move),
            "swift" | "quick" => forbid = Some(fray_protocol::event::ActionKind::Quick),
            "foreign" => foreign = true,
            other => match other.parse::<u32>() {
                Ok(n) => effect = Some(n),
                Err(_) if i == 0 => target = CombatantId::new(other),
                Err(_) => return Err(USAGE.into()),
            },
        }
    }
    Ok(Input::Game(Command::Orcus(OrcusCommand::SkillAction {
        actor,
        action,
        target,
        effect,
        forbid,
        foreign,
        hide,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fray_protocol::event::Defense;

    fn attack(id: &str, name: &str, max_targets: u8) -> AttackSummary {
        AttackSummary {
            id: id.into(),
            name: name.into(),
            range: "melee".into(),
            vs: Defense::Ac,
            max_targets,
            basic: true,
            spell: false,
            maneuvers: Vec::new(),
            usage: "at-will".into(),
            action: "standard".into(),
            category: "attack".into(),
            tags: Vec::new(),
        }
    }

    fn target(id: &str, name: &str) -> Target {
        Target {
            id: CombatantId::new(id),
            name: name.into(),
        }
    }

    fn menu() -> Menu {
        Menu {
            actor: CombatantId::new("brakka"),
            attacks: vec![
                attack("melee", "Longsword", 1),
                attack("ranged", "Javelin", 1),
                attack("cleave", "Cleaving Strike", 2),
            ],
            targets: vec![
                target("goblin-1", "Goblin Scrapper 1"),
                target("goblin-2", "Goblin Scrapper 2"),
                target("ogre", "Ogre"),
            ],
            everyone: ["brakka", "goblin-1", "goblin-2", "ogre", "goblin-3"]
                .into_iter()
                .map(CombatantId::new)
                .collect(),
        }
    }

    fn game(line: &str) -> Result<Command, String> {
        match parse(line, Some(&menu()))? {
            Input::Game(c) => Ok(c),
            other => Err(format!("not a game command: {other:?}")),
        }
    }

    #[test]
    fn pursuit_and_gale_commands() {
        use fray_protocol::ose::EncounterSetting;
        assert_eq!(
            game("pursue dungeon 90 120 Ada bram"),
            Ok(Command::Bx(BxCommand::StartPursuit {
                setting: EncounterSetting::Dungeon,
                fleeing_rate: 90,
                pursuer_rate: 120,
                runners: vec![CombatantId::new("ada"), CombatantId::new("bram")],
                distance: None
            }))
        );
        assert_eq!(
            game("pursue water 90 150 120"),
            Ok(Command::Bx(BxCommand::StartPursuit {
                setting: EncounterSetting::Waterborne,
                fleeing_rate: 90,
                pursuer_rate: 150,
                runners: Vec::new(),
                distance: Some(120)
            }))
        );
        assert!(game("pursue wilderness 90 150 12").is_err());
        assert_eq!(
            game("pursuit-round"),
            Ok(Command::Bx(BxCommand::PursuitRound {}))
        );
        assert_eq!(
            game("lure food"),
            Ok(Command::Bx(BxCommand::DropLure {
                lure: fray_protocol::pursuit::Lure::Food
            }))
        );
        assert_eq!(
            game("end-pursuit caught"),
            Ok(Command::Bx(BxCommand::EndPursuit { caught: true }))
        );
        assert_eq!(
            game("bx-gale 3"),
            Ok(Command::Bx(BxCommand::GaleDamage { hours: 3 }))
        );
        assert_eq!(
            game("gale full unseaworthy land"),
            Ok(Command::Bx(BxCommand::GaleStrikes {
                near: false,
                seaworthy: false,
                land: true,
                clear_shore: false
            }))
        );
    }

    fn attack_cmd(attack: &str, targets: &[&str]) -> Command {
        Command::Attack {
            actor: CombatantId::new("brakka"),
            attack: attack.into(),
            targets: targets.iter().map(|t| CombatantId::new(*t)).collect(),
            mode: AttackMode::Standard,
            knock_out: false,
            forced: Vec::new(),
            weapon: None,
            secondary_target: None,
        }
    }

    /// orcus-basic-rules.txt § Weapon properties, Side Weapon ("you choose which weapon you
    /// attack with"): `side` sends the attack with `weapon: side`; a plain attack leaves the
    /// field out (the main weapon).
    #[test]
    fn side_attacks_with_the_side_weapon_side_weapon() {
        let mut side = attack_cmd("melee", &["goblin-2"]);
        if let Command::Attack { weapon, .. } = &mut side {
            *weapon = Some(fray_protocol::command::WeaponHand::Side);
        }
        assert_eq!(game("side melee goblin-2"), Ok(side));
        assert_eq!(
            game("attack melee 2"),
            Ok(attack_cmd("melee", &["goblin-2"]))
        );
        assert!(game("side").is_err_and(|e| e.contains("attack with what")));
        assert!(parse("side melee 1", None).is_err());
    }

    /// orcus-basic-rules.txt § Secondary attacks ("one creature of the user's choice within
    /// N"): `second` sends the attack with `secondary_target`, the last word.
    #[test]
    fn second_names_the_secondary_target_secondary_attacks() {
        let mut cmd = attack_cmd("melee", &["goblin-2"]);
        if let Command::Attack {
            secondary_target, ..
        } = &mut cmd
        {
            *secondary_target = Some(CombatantId::new("goblin-1"));
        }
        assert_eq!(game("second melee goblin-2 goblin-1"), Ok(cmd));
        assert!(game("second").is_err_and(|e| e.contains("secondary attack's target")));
        assert!(game("second melee goblin-2 nobody").is_err());
    }

    /// orcus-basic-rules.txt § Ability and skill checks, § Table – Typical Difficulty Classes:
    /// the GM's `skill-check` names a DC or a difficulty band, and an optional purpose.
    #[test]
    fn skill_check_takes_a_dc_or_a_difficulty_typical_difficulty_classes() {
        use fray_protocol::command::CheckDifficulty;
        assert_eq!(
            game("skill-check Tamsin Athletics 15 climb the cliff"),
            Ok(Command::Orcus(OrcusCommand::OrcusCheck {
                combatant: CombatantId::new("tamsin"),
                skill: "athletics".into(),
                dc: Some(15),
                difficulty: None,
                purpose: Some("climb the cliff".into()),
            }))
        );
        assert_eq!(
            parse("skill-check tamsin heal hard", None),
            Ok(Input::Game(Command::Orcus(OrcusCommand::OrcusCheck {
                combatant: CombatantId::new("tamsin"),
                skill: "heal".into(),
                dc: None,
                difficulty: Some(CheckDifficulty::Hard),
                purpose: None,
            })))
        );
        assert_eq!(
            game("skill-check tamsin stealth dc12"),
            Ok(Command::Orcus(OrcusCommand::OrcusCheck {
                combatant: CombatantId::new("tamsin"),
                skill: "stealth".into(),
                dc: Some(12),
                difficulty: None,
                purpose: None,
            }))
        );
        assert!(game("skill-check tamsin stealth tricky").is_err_and(|e| e.contains("easy")));
        assert!(game("skill-check tamsin").is_err_and(|e| e.contains("skill-check WHO")));
    }

    /// ose-adventuring.txt § Waterborne Adventuring, Travel on the Water (a day on the water:
    /// `pass_day` `march` `water` with the vessel's rate, the waters, a river's current and a
    /// navigator); `bx-day water …` is the same verb.
    #[test]
    fn bx_sail_passes_a_day_on_the_water_travel_on_the_water() {
        use fray_protocol::bf::{March, Terrain};
        use fray_protocol::ose::{Current, WaterDay, Waters};
        let day = |water: WaterDay, unfed: Vec<CombatantId>, leader: Option<&str>| {
            Ok(Command::Bx(BxCommand::PassDay {
                march: March::Water,
                terrain: Terrain::Clear,
                unfed,
                no_water: Vec::new(),
                leader: leader.map(CombatantId::new),
                water: Some(water),
            }))
        };
        assert_eq!(
            game("bx-sail 360 river downstream leader=Ada"),
            day(
                WaterDay {
                    rate: 360,
                    waters: Waters::River,
                    current: Current::Downstream,
                    navigator: false,
                },
                Vec::new(),
                Some("ada"),
            )
        );
        assert_eq!(
            game("bx-day water 120 sea navigator unfed=ada"),
            day(
                WaterDay {
                    rate: 120,
                    waters: Waters::Sea,
                    current: Current::None,
                    navigator: true,
                },
                vec![CombatantId::new("ada")],
                None,
            )
        );
        assert_eq!(
            parse("bx-sail 90 SWAMP", None),
            day(
                WaterDay {
                    rate: 90,
                    waters: Waters::Swamp,
                    current: Current::None,
                    navigator: false,
                },
                Vec::new(),
                None,
            )
            .map(Input::Game)
        );
        assert!(game("bx-sail 360").is_err_and(|e| e.contains("which waters")));
        assert!(game("bx-sail fast sea").is_err_and(|e| e.contains("feet per turn")));
        assert!(game("bx-sail 360 lake").is_err_and(|e| e.contains("bx-sail RATE")));
    }

    /// ose-adventuring.txt § Optional Rule: Encumbrance (armor and "a significant amount of
    /// treasure" under the basic option): `bx-load … treasure` sets the flag, OSE's armor
    /// words are accepted; basic-fantasy-adventures.txt § Light (taper candles): `bx-candle`
    /// lights one, `bx-douse … candle` puts it out.
    #[test]
    fn bx_load_carries_treasure_and_bx_candle_lights_a_candle_encumbrance_light() {
        use fray_protocol::bf::ArmorType;
        use fray_protocol::ose::LightSource;
        assert_eq!(
            game("bx-load Ada heavy 400 treasure"),
            Ok(Command::Bx(BxCommand::SetEncumbrance {
                combatant: CombatantId::new("ada"),
                armor: ArmorType::Metal,
                load: 400,
                treasure: true,
            }))
        );
        assert_eq!(
            game("bx-load ada leather 30"),
            Ok(Command::Bx(BxCommand::SetEncumbrance {
                combatant: CombatantId::new("ada"),
                armor: ArmorType::Leather,
                load: 30,
                treasure: false,
            }))
        );
        assert!(game("bx-load ada light 30 gold").is_err_and(|e| e.contains("[treasure]")));
        assert_eq!(
            game("bx-candle Quill 2"),
            Ok(Command::Bx(BxCommand::LightCandle {
                carrier: CombatantId::new("quill"),
                inches: 2,
            }))
        );
        assert_eq!(
            game("bx-douse quill candle"),
            Ok(Command::Bx(BxCommand::DouseLight {
                carrier: CombatantId::new("quill"),
                source: LightSource::Candle,
            }))
        );
        assert!(game("bx-candle quill tall").is_err_and(|e| e.contains("inches")));
        assert!(game("bx-light quill candle").is_err_and(|e| e.contains("bx-candle")));
    }

    /// ose-adventuring.txt § Targets Behind Cover (complete cover: "The target cannot be
    /// hit"): `condition WHO cover on|off` sets the GM's `complete_cover`.
    #[test]
    fn condition_cover_sets_complete_cover_targets_behind_cover() {
        use fray_protocol::ose::OseCondition;
        assert_eq!(
            game("condition Odo cover on"),
            Ok(Command::Bx(BxCommand::OseCondition {
                combatant: CombatantId::new("odo"),
                condition: OseCondition::CompleteCover,
                on: true,
            }))
        );
        assert_eq!(
            game("condition odo complete-cover off"),
            Ok(Command::Bx(BxCommand::OseCondition {
                combatant: CombatantId::new("odo"),
                condition: OseCondition::CompleteCover,
                on: false,
            }))
        );
        assert!(game("condition odo hidden on").is_err_and(|e| e.contains("cover")));
    }

    /// Every command in protocol/README.md's command tables has a verb: one line per command
    /// parses into a command of that kind (so a command added to the protocol without a verb
    /// fails here).
    #[test]
    fn every_command_in_the_protocol_readme_has_a_verb() {
        const LINES: &[&str] = &[
            "start",
            "ambush goblin-1",
            "attack melee goblin-1",
            "move",
            "disengage",
            "intercept brakka goblin-1",
            "potion",
            "stabilize goblin-3",
            "rally",
            "letgo brakka goblin-1",
            "end",
            "spirit brakka ogre ac",
            "ready",
            "delay",
            "act brakka",
            "end battle",
            "rest brakka 2",
            "healup",
            "end-session",
            "next-battle",
            "escalation hold",
            "flee",
            "modifier brakka ac +2",
            "temp brakka 8",
            "knockouts refuse",
            "teleport brakka far",
            "surprise goblin-1 goblin-2",
            "reorder brakka goblin-1",
            "walk 4,4 5,3",
            "stand",
            "defend",
            "ap standard",
            "area burst",
            "charge goblin-1 3,4",
            "bullrush goblin-1 1,2",
            "grapple goblin-1",
            "escape athletics",
            "maintain 12",
            "end-effect 14",
            "mount horse",
            "dismount 3,2",
            "command-mount move",
            "aloft 2",
            "skill brakka feint goblin-1",
            "reload brakka crossbow",
            "ready-counter brakka riposte",
            "search brakka",
            "allies brakka goblin-1",
            "decline-ally brakka ogre",
            "rider brakka take",
            "be-hit brakka ogre",
            "pass-time 90",
            "skill-check brakka athletics 15",
            "check brakka dex 13",
            "grant brakka adv",
            "morale goblin-1",
            "retreat",
            "resolve",
            "delay-to ogre",
            "heal brakka 2d4",
            "light dark",
            "torch",
            "load brakka 10",
            "travel",
            "return dangerous",
            "chase open 40 brakka",
            "corrupt brakka",
            "cure brakka",
            "time-dice 2",
            "set-time 5",
            "crawl",
            "resilience brakka",
            "exhaust brakka",
            "camp safe",
            "hide",
            "stealth-dc 14",
            "reveal brakka",
            "ready-for active the goblin moves",
            "concentrate bless",
            "unconcentrate",
            "surprise party",
            "reaction",
            "declare withdraw",
            "shoot ranged goblin-1 short",
            "cast",
            "bx-morale goblin-1",
            "save brakka breath",
            "secret listen",
            "bx-turn",
            "bx-light brakka torch",
            "bx-douse brakka torch",
            "bomb roc 100 2d6 brakka",
            "save-half brakka breath 3d6",
            "bx-check brakka str",
            "fall brakka 30",
            "bx-heal brakka 2",
            "distance dungeon",
            "evade dungeon 90 120",
            "bx-move 10",
            "bx-hold",
            "condition brakka blind on",
            "pursue dungeon 90 120",
            "pursuit-round",
            "lure food",
            "end-pursuit",
            "gale near seaworthy",
            "bx-hire brakka cole",
            "bx-loyalty cole",
            "bx-xp brakka goblin-1",
            "bx-day",
            "bx-load brakka metal 90",
            "bx-effect 12 light spell",
            "bx-wind",
            "bx-gale 2",
            "bx-candle brakka 2",
            "bx-cure brakka 1d6+1 potion of healing",
            "bx-voyage 30 0 navigator",
            "drown brakka 10",
            "condition brakka swimming on",
            "orcus-xp kael,lira 50 brute-1",
            "loot hesk goblin-1",
            "treasure hesk 10",
            "magic-item hesk 100 ring",
            "sell hesk 80 ring",
            "journey 2",
            "voyage boat 10",
        ];
        let mut kinds = std::collections::BTreeSet::new();
        for line in LINES {
            match game(line) {
                Ok(c) => kinds.insert(c.kind()),
                Err(e) => panic!("{line}: {e}"),
            };
        }
        let readme = include_str!("../../../protocol/README.md");
        let mut in_commands = false;
        let (mut missing, mut rows) = (Vec::new(), 0);
        for l in readme.lines() {
            if l.starts_with("### ") {
                in_commands = l == "### Commands" || l.ends_with(" commands");
            }
            let Some(json) = l
                .strip_suffix("` |")
                .and_then(|r| r.rsplit_once(" `"))
                .map(|(_, j)| j)
                .filter(|_| in_commands && l.starts_with('|'))
            else {
                continue;
            };
            let name = match serde_json::from_str::<serde_json::Value>(json) {
                Ok(serde_json::Value::String(s)) => s,
                Ok(serde_json::Value::Object(m)) => m.keys().next().cloned().unwrap_or_default(),
                other => panic!("{l}: {other:?}"),
            };
            rows += 1;
            if !kinds.contains(name.as_str()) && !missing.contains(&name) {
                missing.push(name);
            }
        }
        // `surprise` names the surprised unless it names a side (OSE's d6 rolls).
        assert_eq!(
            game("surprise Goblin-1 goblin-2"),
            Ok(Command::StartSurprise {
                surprised: vec![CombatantId::new("goblin-1"), CombatantId::new("goblin-2")]
            })
        );
        assert_eq!(
            game("surprise monsters"),
            Ok(Command::Bx(BxCommand::RollSurprise {
                sides: vec![fray_protocol::Side::Monsters]
            }))
        );
        assert!(game("surprise").is_err_and(|e| e.contains("surprise WHO")));
        assert!(rows >= 113, "only {rows} command rows read");
        assert!(missing.is_empty(), "no verb for {missing:?}");
        assert!(kinds.len() >= 113, "{}", kinds.len());
    }

    #[test]
    fn attack_by_names() {
        assert_eq!(
            game("attack melee goblin-1"),
            Ok(attack_cmd("melee", &["goblin-1"]))
        );
        assert_eq!(
            game("ATTACK Melee GOBLIN-2"),
            Ok(attack_cmd("melee", &["goblin-2"]))
        );
        assert_eq!(game("melee ogre"), Ok(attack_cmd("melee", &["ogre"])));
        assert_eq!(game("a long og"), Ok(attack_cmd("melee", &["ogre"])));
    }

    #[test]
    fn attack_by_numbers() {
        assert_eq!(game("a 1 2"), Ok(attack_cmd("melee", &["goblin-2"])));
        assert_eq!(game("a 2 3"), Ok(attack_cmd("ranged", &["ogre"])));
        assert_eq!(
            game("a 3 1,2"),
            Ok(attack_cmd("cleave", &["goblin-1", "goblin-2"]))
        );
        assert_eq!(
            game("a 3 1 3"),
            Ok(attack_cmd("cleave", &["goblin-1", "ogre"]))
        );
    }

    /// 13th Age § Unconscious: `ko` declares a knock-out blow; the GM allows or refuses them.
    #[test]
    fn knock_out_blows_and_the_gm_ruling() {
        let mut ko = attack_cmd("melee", &["goblin-1"]);
        if let Command::Attack { knock_out, .. } = &mut ko {
            *knock_out = true;
        }
        assert_eq!(game("ko melee goblin-1"), Ok(ko.clone()));
        assert_eq!(game("knockout 1 1"), Ok(ko));
        assert_eq!(
            game("knockouts refuse"),
            Ok(Command::KnockOuts { allowed: false })
        );
        assert_eq!(
            game("knockouts ALLOW"),
            Ok(Command::KnockOuts { allowed: true })
        );
        let e = game("knockouts maybe").expect_err("allow or refuse");
        assert!(e.contains("allow|refuse"), "{e}");
    }

    /// Orcus § Unwilling movement: `shove` names the squares the target is moved through.
    #[test]
    fn a_shove_chooses_the_forced_path() {
        let mut cmd = attack_cmd("melee", &["goblin-1"]);
        if let Command::Attack { forced, .. } = &mut cmd {
            forced.push(fray_protocol::grid::ForcedPath {
                target: CombatantId::new("goblin-1"),
                path: vec![
                    fray_protocol::grid::Square::new(3, 2),
                    fray_protocol::grid::Square::new(4, 2),
                ],
            });
        }
        assert_eq!(game("shove melee goblin-1 3,2 4,2"), Ok(cmd));
        assert!(game("shove melee").is_err());
        assert!(game("shove melee goblin-1 north").is_err());
    }

    #[test]
    fn old_school_essentials_commands() {
        use fray_protocol::ose::{Declaration, MissileRange, SaveCategory};
        assert_eq!(
            game("declare spell Magic Missile"),
            Ok(Command::Bx(BxCommand::Declare {
                actor: CombatantId::new("brakka"),
                declaration: Some(Declaration::Spell {
                    spell: "Magic Missile".into()
                })
            }))
        );
        assert_eq!(
            game("cast"),
            Ok(Command::Bx(BxCommand::CastSpell {
                actor: CombatantId::new("brakka")
            }))
        );
        assert!(matches!(
            game("shoot bow ogre short -1"),
            Ok(Command::Bx(BxCommand::OseAttack {
                range: Some(MissileRange::Short),
                modifier: -1,
                behind: false,
                ..
            }))
        ));
        assert_eq!(
            game("save ogre breath 2"),
            Ok(Command::Bx(BxCommand::SavingThrow {
                combatant: CombatantId::new("ogre"),
                category: SaveCategory::Breath,
                modifier: 2
            }))
        );
        assert_eq!(
            game("bx-move 20"),
            Ok(Command::Bx(BxCommand::OseMove {
                actor: CombatantId::new("brakka"),
                feet: 20
            }))
        );
        assert_eq!(
            game("bx-hold"),
            Ok(Command::Bx(BxCommand::OseHold {
                actor: CombatantId::new("brakka")
            }))
        );
        assert_eq!(
            game("bx-morale -1 ogre"),
            Ok(Command::Bx(BxCommand::OseMorale {
                combatants: vec![CombatantId::new("ogre")],
                adjustment: -1
            }))
        );
        assert_eq!(
            game("surprise both"),
            Ok(Command::Bx(BxCommand::RollSurprise {
                sides: vec![fray_protocol::Side::Heroes, fray_protocol::Side::Monsters]
            }))
        );
        assert!(game("shoot bow ogre far").is_err());
        assert_eq!(
            game("secret listen brakka 2"),
            Ok(Command::Bx(BxCommand::SecretRoll {
                check: fray_protocol::ose::SecretCheck::Listen,
                combatant: Some(CombatantId::new("brakka")),
                chance: 2,
                area: None
            }))
        );
        assert_eq!(
            game("secret stuck brakka"),
            Ok(Command::Bx(BxCommand::SecretRoll {
                check: fray_protocol::ose::SecretCheck::StuckDoor,
                combatant: Some(CombatantId::new("brakka")),
                chance: 1,
                area: None
            }))
        );
        assert_eq!(
            game("secret traps brakka @crypt-hall"),
            Ok(Command::Bx(BxCommand::SecretRoll {
                check: fray_protocol::ose::SecretCheck::RoomTrap,
                combatant: Some(CombatantId::new("brakka")),
                chance: 1,
                area: Some("crypt-hall".into())
            }))
        );
        assert_eq!(
            game("bx-turn 1 rest"),
            Ok(Command::Bx(BxCommand::ExplorationTurn {
                wandering: Some(1),
                rest: true
            }))
        );
        assert_eq!(
            game("bx-turn"),
            Ok(Command::Bx(BxCommand::ExplorationTurn {
                wandering: None,
                rest: false
            }))
        );
        assert_eq!(
            game("bx-light brakka lantern"),
            Ok(Command::Bx(BxCommand::LightSource {
                carrier: CombatantId::new("brakka"),
                source: fray_protocol::ose::LightSource::Lantern
            }))
        );
        assert!(game("bx-light brakka candle").is_err());
        assert_eq!(
            game("pass-time 90"),
            Ok(Command::Orcus(OrcusCommand::PassTime { minutes: 90 }))
        );
        assert!(game("pass-time soon").is_err());
        assert_eq!(
            game("save-half brakka breath 6d6 -1"),
            Ok(Command::Bx(BxCommand::SaveForHalf {
                combatant: CombatantId::new("brakka"),
                category: fray_protocol::ose::SaveCategory::Breath,
                damage: "6d6".into(),
                modifier: -1
            }))
        );
        assert_eq!(
            game("bx-check brakka str 2"),
            Ok(Command::Bx(BxCommand::AbilityCheck {
                combatant: CombatantId::new("brakka"),
                ability: fray_protocol::ose::OseAbility::Str,
                modifier: 2
            }))
        );
        assert_eq!(
            game("bomb roc 100 2d6 brakka odo"),
            Ok(Command::Bx(BxCommand::Bomb {
                attacker: CombatantId::new("roc"),
                targets: vec![CombatantId::new("brakka"), CombatantId::new("odo")],
                damage: "2d6".into(),
                altitude: 100
            }))
        );
        assert_eq!(
            game("fall brakka 30"),
            Ok(Command::Bx(BxCommand::Fall {
                combatant: CombatantId::new("brakka"),
                feet: 30
            }))
        );
        assert_eq!(
            game("bx-heal brakka 2"),
            Ok(Command::Bx(BxCommand::NaturalHealing {
                combatant: CombatantId::new("brakka"),
                days: 2
            }))
        );
        assert_eq!(
            game("distance water surprised"),
            Ok(Command::Bx(BxCommand::RollEncounterDistance {
                setting: fray_protocol::ose::EncounterSetting::Waterborne,
                surprised: true
            }))
        );
        assert_eq!(
            game("evade wilderness 120 240 3 5 +25"),
            Ok(Command::Bx(BxCommand::AttemptEvasion {
                setting: fray_protocol::ose::EncounterSetting::Wilderness,
                fleeing_rate: 120,
                pursuer_rate: 240,
                fleeing: 3,
                pursuers: 5,
                surprise: None,
                modifier: 25
            }))
        );
        assert_eq!(
            game("condition brakka blind on"),
            Ok(Command::Bx(BxCommand::OseCondition {
                combatant: CombatantId::new("brakka"),
                condition: fray_protocol::ose::OseCondition::Blind,
                on: true
            }))
        );
        assert!(game("condition brakka sleepy on").is_err());
        assert_eq!(
            game("bx-hire ada cole 1"),
            Ok(Command::Bx(BxCommand::HireRetainer {
                employer: CombatantId::new("ada"),
                retainer: CombatantId::new("cole"),
                adjustment: 1
            }))
        );
        assert_eq!(
            game("bx-day forced forest unfed=ada,bram leader=ada"),
            Ok(Command::Bx(BxCommand::PassDay {
                march: fray_protocol::bf::March::Forced,
                terrain: fray_protocol::bf::Terrain::Forest,
                unfed: vec![CombatantId::new("ada"), CombatantId::new("bram")],
                no_water: Vec::new(),
                leader: Some(CombatantId::new("ada")),
                water: None,
            }))
        );
        assert_eq!(
            game("bx-effect 3 @eve light spell"),
            Ok(Command::Bx(BxCommand::TimeEffect {
                name: "light spell".into(),
                combatant: Some(CombatantId::new("eve")),
                turns: 3
            }))
        );
        assert!(game("bx-load ada plate 10").is_err());
        assert_eq!(
            game("allies ysolde brenna"),
            Ok(Command::Orcus(OrcusCommand::ChooseAllies {
                actor: CombatantId::new("ysolde"),
                allies: vec![CombatantId::new("brenna")]
            }))
        );
        assert_eq!(
            game("decline-ally brenna ysolde"),
            Ok(Command::Orcus(OrcusCommand::DeclineAlly {
                actor: CombatantId::new("brenna"),
                user: CombatantId::new("ysolde")
            }))
        );
        assert_eq!(
            game("be-hit brenna ysolde"),
            Ok(Command::Orcus(OrcusCommand::ChooseToBeHit {
                actor: CombatantId::new("brenna"),
                attacker: CombatantId::new("ysolde")
            }))
        );
        assert!(game("be-hit brenna").is_err());
        assert_eq!(
            game("rider brenna take -1,0"),
            Ok(Command::Orcus(OrcusCommand::RiderChoices {
                actor: CombatantId::new("brenna"),
                move_mount: true,
                landing: Some(fray_protocol::grid::Square::new(-1, 0))
            }))
        );
        assert!(game("rider brenna sideways").is_err());
        assert_eq!(
            game("skill kael deter brute-1 move foreign"),
            Ok(Command::Orcus(OrcusCommand::SkillAction {
                actor: CombatantId::new("kael"),
                action: fray_protocol::command::SkillActionKind::Deter,
                target: CombatantId::new("brute-1"),
                effect: None,
                forbid: Some(fray_protocol::event::ActionKind::Move),
                foreign: true,
                hide: false,
            }))
        );
        assert_eq!(
            game("skill kael create-diversion hide"),
            Ok(Command::Orcus(OrcusCommand::SkillAction {
                actor: CombatantId::new("kael"),
                action: fray_protocol::command::SkillActionKind::CreateDiversion,
                target: CombatantId::new("kael"),
                effect: None,
                forbid: None,
                foreign: false,
                hide: true,
            }))
        );
        assert_eq!(
            game("search Kael"),
            Ok(Command::Orcus(OrcusCommand::Search {
                actor: CombatantId::new("kael"),
            }))
        );
        assert!(game("skill kael dance").is_err());
        assert_eq!(
            game("ready-counter Kael riposte"),
            Ok(Command::Orcus(OrcusCommand::ReadyCounter {
                actor: CombatantId::new("kael"),
                power: "riposte".into()
            }))
        );
        assert!(game("ready-counter kael").is_err());
        assert_eq!(
            game("reload tamsin crossbow"),
            Ok(Command::Orcus(OrcusCommand::Reload {
                actor: CombatantId::new("tamsin"),
                power: "crossbow".into()
            }))
        );
        assert_eq!(
            game("bx-douse brakka torch"),
            Ok(Command::Bx(BxCommand::DouseLight {
                carrier: CombatantId::new("brakka"),
                source: fray_protocol::ose::LightSource::Torch
            }))
        );
    }

    #[test]
    fn five_torches_deep_commands() {
        use fray_protocol::ftd::{Ability, Advantage};
        assert_eq!(
            game("retreat"),
            Ok(Command::FiveTorches(FiveTorchesCommand::Retreat {
                actor: CombatantId::new("brakka")
            }))
        );
        assert_eq!(
            game("grant ogre dis"),
            Ok(Command::FiveTorches(FiveTorchesCommand::GrantAdvantage {
                combatant: CombatantId::new("ogre"),
                advantage: Advantage::Disadvantage
            }))
        );
        assert_eq!(
            game("check brakka dex 13 prof 2d6"),
            Ok(Command::FiveTorches(FiveTorchesCommand::Check {
                combatant: CombatantId::new("brakka"),
                ability: Ability::Dex,
                dc: 13,
                proficient: true,
                advantage: Advantage::None,
                damage: Some("2d6".into()),
                purpose: None,
                task: None
            }))
        );
        assert!(matches!(
            game("morale group goblin-1 goblin-2"),
            Ok(Command::FiveTorches(FiveTorchesCommand::MoraleCheck { group: true, ref combatants, .. })) if combatants.len() == 2
        ));
        assert!(matches!(
            game("resolve dex 12 ogre"),
            Ok(Command::FiveTorches(FiveTorchesCommand::ResolveRetreat { check: Some(_), ref attackers })) if attackers.len() == 1
        ));
        assert!(matches!(
            game("resolve"),
            Ok(Command::FiveTorches(FiveTorchesCommand::ResolveRetreat {
                check: None,
                ..
            }))
        ));
        assert!(game("grant ogre maybe").is_err());
    }

    #[test]
    fn exact_ids_off_the_list_are_left_to_the_server() {
        assert_eq!(game("a 1 goblin-3"), Ok(attack_cmd("melee", &["goblin-3"])));
    }

    #[test]
    fn attack_errors_are_helpful() {
        let e = game("a 9 1").expect_err("no attack 9");
        assert!(
            e.contains("no attack number 9") && e.contains("1 melee (Longsword)"),
            "{e}"
        );
        let e = game("a 1 7").expect_err("no target 7");
        assert!(
            e.contains("no target number 7") && e.contains("1 goblin-1"),
            "{e}"
        );
        let e = game("a 1 gob").expect_err("ambiguous");
        assert!(e.contains("goblin-1 or goblin-2"), "{e}");
        let e = game("a 1").expect_err("whom");
        assert!(e.contains("attack whom"), "{e}");
        let e = game("a 1 1 2").expect_err("too many");
        assert!(e.contains("at most 1 target"), "{e}");
        let e = game("a 3 1 1").expect_err("twice");
        assert!(e.contains("named twice"), "{e}");
        let e = game("attack").expect_err("with what");
        assert!(e.contains("attack with what"), "{e}");
        let e = game("a fireball 1").expect_err("unknown attack");
        assert!(e.contains("unknown attack `fireball`"), "{e}");
    }

    #[test]
    fn five_torches_deep_clock_light_load_and_stealth_verbs() {
        use fray_protocol::ftd::{Advantage, LightLevel, LightSource, LightTask};
        let id = |s: &str| CombatantId::new(s);
        assert_eq!(
            game("light dark"),
            Ok(Command::FiveTorches(FiveTorchesCommand::SetLight {
                combatant: None,
                light: Some(LightLevel::Darkness)
            }))
        );
        assert_eq!(
            game("light hesk scene"),
            Ok(Command::FiveTorches(FiveTorchesCommand::SetLight {
                combatant: Some(id("hesk")),
                light: None
            }))
        );
        assert_eq!(
            game("torch hesk"),
            Ok(Command::FiveTorches(FiveTorchesCommand::CarryLight {
                actor: id("hesk"),
                source: Some(LightSource::Torch)
            }))
        );
        assert_eq!(
            game("douse"),
            Ok(Command::FiveTorches(FiveTorchesCommand::CarryLight {
                actor: id("brakka"),
                source: None
            }))
        );
        assert_eq!(
            game("load hesk 17 600"),
            Ok(Command::FiveTorches(FiveTorchesCommand::SetLoad {
                combatant: id("hesk"),
                load: 17,
                coins: 600
            }))
        );
        assert_eq!(
            game("loot hesk goblin-1"),
            Ok(Command::FiveTorches(FiveTorchesCommand::Loot {
                looter: id("hesk"),
                enemy: id("goblin-1")
            }))
        );
        assert_eq!(
            game("treasure hesk 120 30 unearned"),
            Ok(Command::FiveTorches(FiveTorchesCommand::Treasure {
                to: id("hesk"),
                gp: 120,
                sp: 30,
                cp: 0,
                unearned: true
            }))
        );
        assert_eq!(
            game("magic-item mirelle 300 ring of warmth"),
            Ok(Command::FiveTorches(FiveTorchesCommand::MagicItem {
                to: id("mirelle"),
                name: "ring of warmth".into(),
                value: 300
            }))
        );
        assert_eq!(
            game("sell mirelle 250 ring of warmth"),
            Ok(Command::FiveTorches(FiveTorchesCommand::SellItem {
                seller: id("mirelle"),
                name: "ring of warmth".into(),
                gp: 250
            }))
        );
        assert_eq!(
            game("journey 3 harsh tactical adv"),
            Ok(Command::FiveTorches(FiveTorchesCommand::TravelOverland {
                days: 3,
                terrain: fray_protocol::ftd::TravelTerrain::Harsh,
                pace: fray_protocol::ftd::TravelPace::Tactical,
                advantage: Advantage::Advantage
            }))
        );
        assert_eq!(
            game("voyage ship 48 favorable"),
            Ok(Command::FiveTorches(FiveTorchesCommand::TravelOverwater {
                vessel: fray_protocol::ftd::Vessel::Ship,
                hours: 48,
                current: fray_protocol::ftd::Current::Favorable,
                advantage: Advantage::None
            }))
        );
        assert!(parse("voyage raft 3", None).is_err());
        assert_eq!(
            game("travel adv"),
            Ok(Command::FiveTorches(FiveTorchesCommand::TravelTurn {
                advantage: Advantage::Advantage
            }))
        );
        assert_eq!(
            game("chase uneven 40 hesk mirelle group dis dc=-1"),
            Ok(Command::FiveTorches(FiveTorchesCommand::Chase {
                pursuers: vec![id("hesk"), id("mirelle")],
                speed: 40,
                terrain: fray_protocol::ftd::ChaseTerrain::Uneven,
                group: true,
                advantage: Advantage::Disadvantage,
                dc_modifier: -1
            }))
        );
        assert_eq!(
            game("corrupt hesk marsh_fever 13"),
            Ok(Command::FiveTorches(FiveTorchesCommand::CorruptionCheck {
                combatant: id("hesk"),
                name: Some("marsh fever".into()),
                dc: Some(13),
                check: None,
                damages: None
            }))
        );
        assert_eq!(
            game("time-dice 2"),
            Ok(Command::FiveTorches(FiveTorchesCommand::RollTimeDice {
                dice: 2,
                purpose: TimeDicePurpose::TimeOfDay,
                start_hour: None
            }))
        );
        assert_eq!(
            game("time-dice 1 from 5"),
            Ok(Command::FiveTorches(FiveTorchesCommand::RollTimeDice {
                dice: 1,
                purpose: TimeDicePurpose::TimeOfDay,
                start_hour: Some(5)
            }))
        );
        assert_eq!(
            game("time-dice 3 duration"),
            Ok(Command::FiveTorches(FiveTorchesCommand::RollTimeDice {
                dice: 3,
                purpose: TimeDicePurpose::Duration,
                start_hour: None
            }))
        );
        assert_eq!(
            game("set-time 7"),
            Ok(Command::FiveTorches(FiveTorchesCommand::SetTime {
                hour: 7
            }))
        );
        assert_eq!(
            game("cure hesk"),
            Ok(Command::FiveTorches(FiveTorchesCommand::EndCorruption {
                combatant: id("hesk")
            }))
        );
        assert_eq!(
            game("return arduous hesk"),
            Ok(Command::FiveTorches(FiveTorchesCommand::RollToReturn {
                path: fray_protocol::ftd::ReturnPath::Arduous,
                combatants: vec![id("hesk")]
            }))
        );
        assert_eq!(
            game("resilience hesk"),
            Ok(Command::FiveTorches(FiveTorchesCommand::ResilienceCheck {
                combatant: id("hesk")
            }))
        );
        assert_eq!(
            game("camp safe 2"),
            Ok(Command::FiveTorches(FiveTorchesCommand::Rest {
                safe: true,
                nights: 2
            }))
        );
        assert_eq!(
            game("hide"),
            Ok(Command::Hide {
                actor: id("brakka")
            })
        );
        assert_eq!(
            game("concentrate bless the party"),
            Ok(Command::FiveTorches(FiveTorchesCommand::Concentrate {
                actor: id("brakka"),
                effect: "bless the party".into()
            }))
        );
        assert_eq!(
            game("unconcentrate"),
            Ok(Command::FiveTorches(FiveTorchesCommand::EndConcentration {
                actor: id("brakka")
            }))
        );
        assert_eq!(
            game("ready-for active the door opens"),
            Ok(Command::FiveTorches(FiveTorchesCommand::ReadyAction {
                actor: id("brakka"),
                action: fray_protocol::event::ActionKind::Standard,
                trigger: "the door opens".into()
            }))
        );
        assert_eq!(
            game("stealth-dc 14"),
            Ok(Command::FiveTorches(FiveTorchesCommand::SetStealthDc {
                dc: Some(14)
            }))
        );
        assert_eq!(
            game("reveal hesk"),
            Ok(Command::Reveal {
                combatant: id("hesk")
            })
        );
        assert_eq!(
            game("exhaust hesk"),
            Ok(Command::FiveTorches(FiveTorchesCommand::Exhaust {
                combatant: id("hesk")
            }))
        );
        assert!(matches!(
            game("check hesk wis 12 sight"),
            Ok(Command::FiveTorches(FiveTorchesCommand::Check {
                task: Some(LightTask::Sight),
                damage: None,
                ..
            }))
        ));
        assert!(game("light murky").is_err());
    }

    #[test]
    fn a_single_target_is_implied() {
        let mut m = menu();
        m.targets.truncate(1);
        assert_eq!(
            parse("a 1", Some(&m)),
            Ok(Input::Game(attack_cmd("melee", &["goblin-1"])))
        );
    }

    #[test]
    fn turn_commands() {
        let brakka = || CombatantId::new("brakka");
        assert_eq!(
            game("move"),
            Ok(Command::Move {
                actor: brakka(),
                engage: None,
                far_away: false
            })
        );
        assert_eq!(game("r"), Ok(Command::Rally { actor: brakka() }));
        assert_eq!(game("end"), Ok(Command::EndTurn { actor: brakka() }));
        assert_eq!(game("end turn"), Ok(Command::EndTurn { actor: brakka() }));
        assert_eq!(game("end battle"), Ok(Command::EndBattle));
        assert_eq!(game("start"), Ok(Command::StartBattle));
        assert!(game("move fast").is_err());
        assert_eq!(
            game("crawl far"),
            Ok(Command::FiveTorches(FiveTorchesCommand::SpecialMove {
                actor: brakka(),
                engage: None,
                far_away: true
            }))
        );
    }

    #[test]
    fn client_commands_and_blanks() {
        assert_eq!(parse("   ", None), Ok(Input::Empty));
        assert_eq!(parse("help", None), Ok(Input::Help(None)));
        assert_eq!(
            parse("help rally", None),
            Ok(Input::Help(Some("rally".to_owned())))
        );
        assert_eq!(parse("Q", None), Ok(Input::Quit));
        assert_eq!(parse("state", None), Ok(Input::State));
        assert_eq!(parse("start", None), Ok(Input::Game(Command::StartBattle)));
    }

    #[test]
    fn an_attack_named_by_its_name_attacks_and_a_typo_gets_a_suggestion() {
        let by_id = game("melee goblin-1");
        assert_eq!(game("longsword goblin-1"), by_id);
        assert_eq!(
            game("Cleaving-Strike goblin-1 goblin-2"),
            game("cleave 1 2")
        );
        let e = game("atack melee goblin-1").expect_err("a typo");
        assert!(e.contains("did you mean `attack`?"), "{e}");
        let e = game("longswrd goblin-1").expect_err("a typo of an attack");
        assert!(e.contains("did you mean `longsword`?"), "{e}");
        let e = game("whisperr ada hello").expect_err("a typo of a talk verb");
        assert!(e.contains("did you mean `whisper`?"), "{e}");
        let e = game("xyzzy").expect_err("nothing near");
        assert!(!e.contains("did you mean"), "{e}");
    }

    #[test]
    fn acting_needs_a_turn() {
        let e = parse("move", None).expect_err("no actor");
        assert!(e.contains("none of your combatants can act now"), "{e}");
        let e = parse("dance", None).expect_err("unknown");
        assert!(e.contains("unknown command `dance`"), "{e}");
    }
}
