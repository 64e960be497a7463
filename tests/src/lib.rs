//! Shared harness for Fray's end-to-end tests: a real server on port 0 in a temp dir, a tiny
//! HTTP client for session creation, an in-process fight driver (the demo bots' policy) for
//! recording replays, and helpers to tamper with logs.

use anyhow::{Result, anyhow};
use fray_protocol::codec::{from_bincode_record, to_bincode};
use fray_protocol::format::in_record_format;
use fray_protocol::ids::{CombatantId, Role, Side};
use fray_protocol::state::Phase;
use fray_protocol::{BxCommand, BxEvent, FiveTorchesCommand, OrcusEvent};
use fray_protocol::{Command, GameEvent, SessionState};
use fray_server::demo::bot::next_for_table;
use fray_server::log::{FsStorage, SegmentHeader, SessionLog};
use fray_server::net::{self, Registry};
use fray_server::session::record::{Genesis, Record};
use fray_server::session::{Session, SessionConfig};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

/// The operator key of every [`TestServer`].
pub const ADMIN_KEY: &str = "fray-tests-operator-key";

/// A server running in this process.
pub struct TestServer {
    /// Its address.
    pub addr: SocketAddr,
    /// Its registry.
    pub registry: Arc<Registry>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
    /// Keeps the data dir alive.
    pub dir: tempfile::TempDir,
}

impl TestServer {
    /// Starts a server on 127.0.0.1:0 with a fresh data dir.
    pub async fn start() -> Result<TestServer> {
        TestServer::start_with(fray_server::net::limits::Limits::default()).await
    }

    /// [`TestServer::start`] with other limits.
    pub async fn start_with(limits: fray_server::net::limits::Limits) -> Result<TestServer> {
        let dir = tempfile::tempdir()?;
        let registry =
            Registry::with_limits(dir.path().to_path_buf(), SessionConfig::default(), limits);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let reg = registry.clone();
        let task = tokio::spawn(async move {
            let admin = fray_server::net::admin::AdminKey::new(ADMIN_KEY);
            let _ = net::serve(listener, reg, admin, async {
                let _ = rx.await;
            })
            .await;
        });
        Ok(TestServer {
            addr,
            registry,
            stop: Some(tx),
            task,
            dir,
        })
    }

    /// The WebSocket URL.
    pub fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// Stops the server and flushes its logs.
    pub async fn stop(mut self) -> tempfile::TempDir {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        let _ = self.task.await;
        self.dir
    }
}

/// Creates a session over HTTP from a built-in encounter; returns the creation JSON.
pub async fn create_session(
    addr: SocketAddr,
    encounter: &str,
    seed: u64,
) -> Result<serde_json::Value> {
    let text = fray_server::rules::ids()
        .iter()
        .flat_map(|r| fray_server::rules::builtin_encounters(r).iter())
        .find(|(n, _)| *n == encounter)
        .map(|(_, t)| *t)
        .ok_or_else(|| anyhow!("no built-in encounter {encounter}"))?;
    Ok(
        fray_server::demo::client::create_session(addr, ADMIN_KEY, encounter, text, Some(seed))
            .await?,
    )
}

/// The roles of a session's seats, GM first.
pub fn roles(encounter: &fray_server::content::model::Encounter) -> Vec<Role> {
    let mut roles = vec![Role::Gm];
    roles.extend(encounter.seats.iter().map(|s| Role::Player {
        name: s.name.clone(),
        controls: s.controls.clone(),
    }));
    roles
}

/// Plays a session to its end in process with the bots' policy; returns the commands sent.
pub fn play_in_process(session: &mut Session, max_ticks: u64) -> Result<Vec<Command>> {
    let roles = roles(&session.genesis().encounter);
    let mut sent = Vec::new();
    for tick in 0..max_ticks {
        let state = session.state();
        if state.phase == Phase::Ended && state.seed_revealed {
            return Ok(sent);
        }
        let (role, cmd) = next_for_table(&state, &roles, tick)
            .ok_or_else(|| anyhow!("no move at tick {tick}"))?;
        let label = match &role {
            Role::Player { name, .. } => format!("player:{name}"),
            _ => "gm".into(),
        };
        session
            .stage(&label, tick + 1, &cmd)
            .map_err(|r| anyhow!("rejected at tick {tick}: {cmd:?}: {r}"))?;
        session.commit()?;
        sent.push(cmd);
    }
    Err(anyhow!("fight did not end in {max_ticks} ticks"))
}

/// Copies every file of a directory (flat).
/// Copies a recorded session's log to the empty directory `to`, editing its segment header and
/// genesis on the way: the compatibility tests make recordings "of other versions" from real
/// ones (an older ruleset version, the next record format).
pub fn rewrite_genesis(
    from: &Path,
    to: &Path,
    edit: impl FnOnce(&mut SegmentHeader, &mut Genesis),
) -> Result<()> {
    let recovered = fray_server::log::read_log_path(from)?;
    let mut header = recovered.header.clone();
    let mut frames: Vec<Vec<u8>> = recovered.frames.into_iter().map(|(_, b)| b).collect();
    let first = frames.first_mut().ok_or_else(|| anyhow!("an empty log"))?;
    // The genesis is read and written in the log's own record format.
    let format = fray_server::session::record::reader_for(first)?;
    let Record::Genesis(mut genesis) =
        in_record_format(format, || from_bincode_record::<Record>(first))?
    else {
        return Err(anyhow!("the first record is not a genesis"));
    };
    edit(&mut header, &mut genesis);
    *first = in_record_format(format, || to_bincode(&Record::Genesis(genesis)))?;
    let mut log = SessionLog::create(FsStorage::open(to)?, header)?;
    log.append_batch(&frames)?;
    log.flush_sync()?;
    Ok(())
}

pub fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        if e.path().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name()))?;
        }
    }
    Ok(())
}

/// What an Orcus fight exercised, by name, from its events and its starting positions:
/// `opportunity`, `flanking` (a melee attack roll against an enemy flanked by the attacker and a
/// conscious ally on the opposite side), `area` (one attack command rolling against two or more
/// targets), `persistent`, `aftereffect` (an effect applied when a ridden effect ended),
/// `first-failed-save`, `save-ends`, `action-point`, `death-save`, `coup-de-grace`, `rally`,
/// `stabilize`.
pub fn orcus_coverage(
    start: &[(
        fray_protocol::ids::CombatantId,
        fray_server::rules::orcus::geometry::Space,
        fray_protocol::ids::Side,
    )],
    events: &[GameEvent],
) -> std::collections::BTreeSet<&'static str> {
    use fray_protocol::event::{EffectEndReason, EffectKind, SavePurpose};
    use fray_server::rules::orcus::geometry;
    use std::collections::{BTreeMap, BTreeSet};
    let mut at: BTreeMap<_, _> = start
        .iter()
        .map(|(id, sp, side)| (id.clone(), (*sp, *side)))
        .collect();
    let mut down: BTreeSet<fray_protocol::ids::CombatantId> = BTreeSet::new();
    let mut riders: BTreeMap<u32, bool> = BTreeMap::new();
    let mut after_pending = false;
    let mut seen = BTreeSet::new();
    let mut last_attack: Option<(fray_protocol::ids::CombatantId, String, usize)> = None;
    for e in events {
        let mut tag: Option<&'static str> = None;
        match e {
            GameEvent::Orcus(OrcusEvent::GridMoved {
                combatant, path, ..
            }) => {
                if let (Some(last), Some(entry)) = (path.last(), at.get_mut(combatant)) {
                    entry.0.at = *last;
                }
            }
            GameEvent::FellUnconscious { combatant }
            | GameEvent::Died { combatant }
            | GameEvent::Slain { combatant } => {
                down.insert(combatant.clone());
            }
            GameEvent::Healed {
                target: combatant, ..
            } => {
                down.remove(combatant);
            }
            GameEvent::OpportunityTaken { .. } => tag = Some("opportunity"),
            GameEvent::AttackRolled {
                attacker,
                target,
                attack,
                ..
            } => {
                let n = match &last_attack {
                    Some((a, p, n)) if a == attacker && p == attack => n + 1,
                    _ => 1,
                };
                if n >= 2 {
                    tag = Some("area");
                }
                last_attack = Some((attacker.clone(), attack.clone(), n));
                if let (Some((a_sp, side)), Some((t_sp, _))) = (at.get(attacker), at.get(target))
                    && geometry::adjacent(*a_sp, *t_sp)
                    && at.iter().any(|(id, (sp, s))| {
                        id != attacker
                            && s == side
                            && !down.contains(id)
                            && geometry::flanking(*t_sp, *a_sp, *sp)
                    })
                {
                    seen.insert("flanking");
                }
            }
            GameEvent::Orcus(OrcusEvent::RiderAttached { rider, .. }) => {
                riders.insert(rider.effect, rider.aftereffect.is_some());
            }
            GameEvent::EffectEnded { effect, reason, .. } => {
                if *reason == EffectEndReason::Replaced {
                    tag = Some("first-failed-save");
                }
                if matches!(reason, EffectEndReason::Saved | EffectEndReason::Expired)
                    && riders.get(effect) == Some(&true)
                {
                    after_pending = true;
                }
            }
            GameEvent::EffectApplied { effect } => {
                if after_pending {
                    tag = Some("aftereffect");
                    after_pending = false;
                } else if matches!(effect.kind, EffectKind::OngoingDamage { .. }) {
                    tag = Some("persistent");
                }
            }
            GameEvent::SaveRolled {
                purpose: SavePurpose::Effect(_),
                success: true,
                ..
            } => tag = Some("save-ends"),
            GameEvent::SaveRolled {
                purpose: SavePurpose::Death,
                ..
            } => tag = Some("death-save"),
            GameEvent::Orcus(OrcusEvent::ActionPointSpent { .. }) => tag = Some("action-point"),
            GameEvent::CoupDeGrace { .. } => tag = Some("coup-de-grace"),
            GameEvent::Rallied { .. } => tag = Some("rally"),
            GameEvent::Stabilized { .. } => tag = Some("stabilize"),
            _ => {}
        }
        if !matches!(e, GameEvent::EffectEnded { .. })
            && !matches!(e, GameEvent::EffectApplied { .. })
        {
            after_pending = false;
        }
        // An area's attack rolls come one after another, before its damage.
        if !matches!(e, GameEvent::AttackRolled { .. }) {
            last_attack = None;
        }
        if let Some(t) = tag {
            seen.insert(t);
        }
    }
    seen
}

/// The starting spaces and sides of an Orcus encounter's combatants.
pub fn orcus_start(
    encounter: &fray_server::content::model::Encounter,
) -> Vec<(
    fray_protocol::ids::CombatantId,
    fray_server::rules::orcus::geometry::Space,
    fray_protocol::ids::Side,
)> {
    encounter
        .combatants
        .iter()
        .filter_map(|c| {
            c.orcus.as_ref().map(|o| {
                (
                    c.id.clone(),
                    fray_server::rules::orcus::geometry::Space {
                        at: o.square,
                        size: o.size,
                    },
                    c.side,
                )
            })
        })
        .collect()
}

/// Plays a Five Torches Deep session in process as its GM: every combatant moves close to an
/// enemy and attacks it; heroes stabilize incapacitated allies, retreat when nearly dead (the GM
/// calls a DEX check), and get advantage when an ally is already close to their foe; the GM
/// calls morale checks when the server proposes them after a kill; a hero whose first attack is
/// ranged tries stealth once; once a fight a hero with a close attack readies it and strikes
/// the first enemy that comes close, out of turn. Before the battle the GM runs the dungeon clock: darkness, the
/// first hero's torch burns out in a travel turn and another is lit, the second hero carries a
/// load over its STR. After the battle the dying are stabilized if someone can, then the
/// session ends (or, when it ended by itself, the party rests a night). Returns the commands
/// sent.
/// Five Torches Deep after a won or lost fight, before the session ends (§ Treasure, § Overland
/// Travel, § Overwater Travel): the first PC up loots every enemy down (1d20 gp per HD), takes
/// a hoard; the next gets unearned coins, captures a magic item and sells it; then the party
/// walks a day through difficult terrain and takes a boat for 30 hours with the current.
pub fn ftd_spoils_and_journey(state: &SessionState) -> Vec<Command> {
    use fray_protocol::ftd::{Advantage, Current, TravelPace, TravelTerrain, Vessel};
    use fray_protocol::state::LifeStatus;
    let up: Vec<CombatantId> = state
        .combatants
        .iter()
        .filter(|c| {
            c.side == Side::Heroes
                && c.status == LifeStatus::Conscious
                && c.ftd.as_ref().is_some_and(|f| f.departed.is_none())
        })
        .map(|c| c.id.clone())
        .collect();
    let Some(first) = up.first().cloned() else {
        return Vec::new();
    };
    let second = up.get(1).cloned().unwrap_or_else(|| first.clone());
    let ftd = Command::FiveTorches;
    let mut out: Vec<Command> = state
        .combatants
        .iter()
        .filter(|c| {
            c.side == Side::Monsters
                && (c.status.is_out() || c.status == LifeStatus::Unconscious)
                && c.ftd
                    .as_ref()
                    .is_some_and(|f| f.hd.is_some_and(|hd| hd > 0))
        })
        .map(|c| {
            ftd(FiveTorchesCommand::Loot {
                looter: first.clone(),
                enemy: c.id.clone(),
            })
        })
        .collect();
    let item = "Chapel bell of warding";
    out.extend([
        ftd(FiveTorchesCommand::Treasure {
            to: first.clone(),
            gp: 120,
            sp: 40,
            cp: 15,
            unearned: false,
        }),
        ftd(FiveTorchesCommand::Treasure {
            to: second.clone(),
            gp: 30,
            sp: 0,
            cp: 0,
            unearned: true,
        }),
        ftd(FiveTorchesCommand::MagicItem {
            to: second.clone(),
            name: item.into(),
            value: 200,
        }),
        ftd(FiveTorchesCommand::SellItem {
            seller: second,
            name: item.into(),
            gp: 150,
        }),
        ftd(FiveTorchesCommand::TravelOverland {
            days: 1,
            terrain: TravelTerrain::Difficult,
            pace: TravelPace::Normal,
            advantage: Advantage::None,
        }),
        ftd(FiveTorchesCommand::TravelOverwater {
            vessel: Vessel::Boat,
            hours: 30,
            current: Current::Favorable,
            advantage: Advantage::None,
        }),
    ]);
    out
}

/// The dungeon clock before a Five Torches Deep fight (`play_ftd_in_process`): darkness, the
/// first hero's torch burns out in a travel turn and a fresh one is lit; the second hero
/// carries coins over its STR.
fn ftd_dungeon_prelude(state: &SessionState) -> Vec<Command> {
    use fray_protocol::ftd::{Advantage, LightLevel, LightSource};
    let heroes: Vec<&CombatantId> = state
        .combatants
        .iter()
        .filter(|c| c.side == Side::Heroes)
        .map(|c| &c.id)
        .collect();
    let ftd = Command::FiveTorches;
    let mut out = vec![ftd(FiveTorchesCommand::SetLight {
        combatant: None,
        light: Some(LightLevel::Darkness),
    })];
    if let Some(torchbearer) = heroes.first() {
        let torch = ftd(FiveTorchesCommand::CarryLight {
            actor: (*torchbearer).clone(),
            source: Some(LightSource::Torch),
        });
        out.push(torch.clone());
        out.push(ftd(FiveTorchesCommand::TravelTurn {
            advantage: Advantage::Advantage,
        }));
        out.push(torch);
    }
    if let Some(porter) = heroes.get(1)
        && let Some(str_score) = state
            .combatant(porter)
            .and_then(|c| c.ftd.as_ref())
            .map(|f| f.abilities.str)
    {
        out.push(ftd(FiveTorchesCommand::SetLoad {
            combatant: (*porter).clone(),
            load: str_score,
            coins: 500,
        }));
    }
    out
}

pub fn play_ftd_in_process(session: &mut Session, max_ticks: u64) -> Result<Vec<Command>> {
    use fray_protocol::command::RetreatCheck;
    use fray_protocol::ftd::{Ability, Advantage, MoraleOutcome, MoraleTrigger};
    use fray_protocol::state::{ActionsLeft, LifeStatus};
    let mut sent = Vec::new();
    let mut tick = 0;
    let mut send = |session: &mut Session, cmd: Command, sent: &mut Vec<Command>| {
        tick += 1;
        let events: Vec<GameEvent> = session
            .stage("gm", tick, &cmd)
            .map_err(|r| anyhow!("rejected at tick {tick}: {cmd:?}: {r}"))?
            .events
            .into_iter()
            .map(|e| e.event)
            .collect();
        sent.push(cmd);
        session.commit()?;
        Ok::<_, anyhow::Error>(events)
    };
    let up = |s: &SessionState, id: &CombatantId| {
        s.combatant(id).is_some_and(|c| {
            c.status == LifeStatus::Conscious
                && c.ftd.as_ref().is_some_and(|f| f.departed.is_none())
        })
    };
    let mut proposals: Vec<(MoraleTrigger, Vec<CombatantId>)> = Vec::new();
    for cmd in ftd_dungeon_prelude(&session.state()) {
        send(session, cmd, &mut sent)?;
    }
    let mut tried_hiding: Vec<CombatantId> = Vec::new();
    let mut readied_once = false;
    let mut spoils_taken = false;
    let mut events = send(session, Command::StartBattle, &mut sent)?;
    for _ in 0..max_ticks {
        for e in &events {
            if let GameEvent::MoraleProposed {
                trigger,
                combatants,
            } = e
                && *trigger != MoraleTrigger::BattleStart
            {
                proposals.push((*trigger, combatants.clone()));
            }
        }
        let state = session.state();
        // A readied hero strikes, out of turn, the first enemy that comes close to it.
        let trigger = events.iter().find_map(|e| match e {
            GameEvent::Moved {
                combatant,
                engaged: Some(target),
                ..
            } if state.readied.iter().any(|(c, _)| c == target)
                && up(&state, target)
                && up(&state, combatant)
                && state.combatant(combatant).map(|c| c.side) == Some(Side::Monsters) =>
            {
                Some((target.clone(), combatant.clone()))
            }
            _ => None,
        });
        if state.phase == Phase::Running
            && let Some((readier, mover)) = trigger
            && let Some(a) = state
                .combatant(&readier)
                .and_then(|c| c.attacks.first().cloned())
        {
            events = send(
                session,
                Command::Attack {
                    actor: readier,
                    attack: a.id,
                    targets: vec![mover],
                    mode: Default::default(),
                    knock_out: false,
                    forced: Vec::new(),
                    weapon: None,
                    secondary_target: None,
                },
                &mut sent,
            )?;
            continue;
        }
        if state.phase == Phase::Ended {
            if state.seed_revealed {
                // A night's unsafe rest after the fight, unless the GM ended the session.
                let rested = sent
                    .iter()
                    .any(|c| matches!(c, Command::FiveTorches(FiveTorchesCommand::Rest { .. })));
                if !rested && !state.session_over {
                    send(
                        session,
                        Command::FiveTorches(FiveTorchesCommand::Rest {
                            safe: false,
                            nights: 1,
                        }),
                        &mut sent,
                    )?;
                }
                return Ok(sent);
            }
            let dying = state
                .combatants
                .iter()
                .find(|c| c.status == LifeStatus::Unconscious)
                .map(|c| c.id.clone());
            let helper = state
                .combatants
                .iter()
                .find(|c| c.side == Side::Heroes && up(&state, &c.id))
                .map(|c| c.id.clone());
            if dying.is_none() && helper.is_some() && !spoils_taken {
                spoils_taken = true;
                for cmd in ftd_spoils_and_journey(&state) {
                    send(session, cmd, &mut sent)?;
                }
                events = Vec::new();
                continue;
            }
            // Several battles: the next one comes in and starts; its spoils are taken after it.
            if dying.is_none() && helper.is_some() && state.battle < state.battles {
                send(session, Command::NextBattle, &mut sent)?;
                events = send(session, Command::StartBattle, &mut sent)?;
                spoils_taken = false;
                continue;
            }
            let cmd = match (dying, helper, sent.len() % 3) {
                (Some(target), Some(actor), 0 | 1) => Command::Stabilize { actor, target },
                _ => Command::EndSession,
            };
            events = send(session, cmd, &mut sent)?;
            continue;
        }
        if let Some((trigger, who)) = proposals.pop() {
            let who: Vec<CombatantId> = who.into_iter().filter(|c| up(&state, c)).collect();
            if !who.is_empty() {
                let monsters = who
                    .iter()
                    .all(|c| state.combatant(c).is_some_and(|c| c.side == Side::Monsters));
                events = send(
                    session,
                    Command::FiveTorches(FiveTorchesCommand::MoraleCheck {
                        combatants: who,
                        group: monsters && trigger == MoraleTrigger::LeaderKilled,
                        advantage: if trigger == MoraleTrigger::PcRetreated {
                            Advantage::Disadvantage
                        } else {
                            Advantage::None
                        },
                        on_failure: MoraleOutcome::Flee,
                    }),
                    &mut sent,
                )?;
                continue;
            }
        }
        if let Some(who) = state.ftd.as_ref().and_then(|f| f.retreat.clone()) {
            let me = state.combatant(&who).cloned();
            let attackers = me
                .filter(|m| !m.ftd.as_ref().is_some_and(|f| f.hidden))
                .map(|m| m.engaged_with.into_iter().take(1).collect())
                .unwrap_or_default();
            events = send(
                session,
                Command::FiveTorches(FiveTorchesCommand::ResolveRetreat {
                    check: Some(RetreatCheck {
                        ability: Ability::Dex,
                        dc: 12,
                        proficient: false,
                    }),
                    attackers,
                }),
                &mut sent,
            )?;
            continue;
        }
        let Some(cur) = state.current.clone() else {
            return Err(anyhow!("no current combatant while running"));
        };
        let Some(me) = state.combatant(&cur).cloned() else {
            return Err(anyhow!("unknown current combatant"));
        };
        let fresh = me.actions == ActionsLeft::FULL;
        if me.side == Side::Heroes && me.actions.standard {
            if let Some(d) = state
                .combatants
                .iter()
                .find(|c| c.side == Side::Heroes && c.status == LifeStatus::Unconscious)
            {
                events = send(
                    session,
                    Command::Stabilize {
                        actor: cur.clone(),
                        target: d.id.clone(),
                    },
                    &mut sent,
                )?;
                continue;
            }
            if fresh && me.hp.is_some_and(|h| h <= 2) && !me.engaged_with.is_empty() {
                events = send(
                    session,
                    Command::FiveTorches(FiveTorchesCommand::Retreat { actor: cur }),
                    &mut sent,
                )?;
                continue;
            }
            // Once a fight, a fresh hero with a close first attack and no one close waits for
            // the enemy: it readies its active action (and ends its turn).
            if fresh
                && !readied_once
                && me.engaged_with.is_empty()
                && me.attacks.first().is_some_and(|a| a.range == "close")
            {
                readied_once = true;
                send(
                    session,
                    Command::FiveTorches(FiveTorchesCommand::ReadyAction {
                        actor: cur.clone(),
                        action: fray_protocol::event::ActionKind::Standard,
                        trigger: "an enemy comes close".into(),
                    }),
                    &mut sent,
                )?;
                events = send(session, Command::EndTurn { actor: cur }, &mut sent)?;
                continue;
            }
            // A hero with a ranged first attack, not in melee, tries stealth once.
            if me.engaged_with.is_empty()
                && me.attacks.first().is_some_and(|a| a.range == "ranged")
                && !tried_hiding.contains(&cur)
            {
                tried_hiding.push(cur.clone());
                events = send(session, Command::Hide { actor: cur }, &mut sent)?;
                continue;
            }
        }
        let foe = state
            .combatants
            .iter()
            .filter(|c| c.side != me.side && up(&state, &c.id))
            .filter(|c| !c.ftd.as_ref().is_some_and(|f| f.hidden))
            .min_by_key(|c| (!me.engaged_with.contains(&c.id), c.id.clone()))
            .map(|c| c.id.clone());
        let (Some(foe), Some(attack)) = (foe, me.attacks.first().cloned()) else {
            events = send(session, Command::EndTurn { actor: cur }, &mut sent)?;
            continue;
        };
        if me.actions.move_action && attack.range == "close" && !me.engaged_with.contains(&foe) {
            events = send(
                session,
                Command::Move {
                    actor: cur,
                    engage: Some(foe),
                    far_away: false,
                },
                &mut sent,
            )?;
            continue;
        }
        if me.actions.standard {
            let flanked = state
                .combatants
                .iter()
                .any(|c| c.id != cur && c.side == me.side && c.engaged_with.contains(&foe));
            if me.side == Side::Heroes
                && flanked
                && me
                    .ftd
                    .as_ref()
                    .is_some_and(|f| f.granted == Advantage::None)
            {
                events = send(
                    session,
                    Command::FiveTorches(FiveTorchesCommand::GrantAdvantage {
                        combatant: cur,
                        advantage: Advantage::Advantage,
                    }),
                    &mut sent,
                )?;
                continue;
            }
            events = send(
                session,
                Command::Attack {
                    actor: cur,
                    attack: attack.id,
                    targets: vec![foe],
                    mode: Default::default(),
                    knock_out: false,
                    forced: Vec::new(),
                    weapon: None,
                    secondary_target: None,
                },
                &mut sent,
            )?;
            continue;
        }
        events = send(session, Command::EndTurn { actor: cur }, &mut sent)?;
    }
    Err(anyhow!("fight did not end in {max_ticks} ticks"))
}

/// Old-School Essentials § Combat Sequence Per Round, for the scripted tables: the phase a
/// combatant of these fights means to act in (a caster its spell, Quill his sling, the others
/// melee; none for a disrupted caster, who ends its turn), and whether the current combatant
/// should `ose_hold` so that a later member of its side's group, meaning to act in an earlier
/// phase, goes first (the side's phases only go forward).
pub fn ose_should_hold(state: &SessionState, cur: &CombatantId) -> bool {
    use fray_protocol::ose::{Declaration, OsePhase};
    use fray_protocol::state::LifeStatus;
    let intent = |id: &CombatantId| -> Option<OsePhase> {
        let c = state.combatant(id)?;
        let o = c.ose.as_ref()?;
        if c.status != LifeStatus::Conscious || o.fled {
            return None;
        }
        match (&o.declared, id.as_str()) {
            (Some(Declaration::Spell { .. }), _) if o.disrupted => None,
            (Some(Declaration::Spell { .. }), _) => Some(OsePhase::Spells),
            // § Missile Attacks: in melee he fights with his sword (`missile_in_melee`).
            (_, "quill") if !ose_in_melee(state, id) => Some(OsePhase::Missiles),
            _ => Some(OsePhase::Melee),
        }
    };
    let (Some(mine), Some(side)) = (intent(cur), state.combatant(cur).map(|c| c.side)) else {
        return false;
    };
    let Some(at) = state.order.iter().position(|c| c == cur) else {
        return false;
    };
    state.order[at + 1..]
        .iter()
        .take_while(|c| state.combatant(c).is_some_and(|c| c.side == side))
        .any(|c| intent(c).is_some_and(|p| p < mine))
}

/// Whether an Old-School Essentials combatant is in melee (§ In Melee, Fray's record: it
/// exchanged a melee attack with a foe still in the fight), so that it may not shoot
/// (§ Missile Attacks).
pub fn ose_in_melee(state: &SessionState, id: &CombatantId) -> bool {
    use fray_protocol::state::LifeStatus;
    state
        .combatant(id)
        .and_then(|c| c.ose.as_ref())
        .is_some_and(|o| {
            o.engaged.iter().any(|f| {
                state.combatant(f).is_some_and(|c| {
                    c.status == LifeStatus::Conscious && c.ose.as_ref().is_some_and(|o| !o.fled)
                })
            })
        })
}

/// Plays an Old-School Essentials session in process with a scripted GM (legal by
/// construction): surprise for the monsters, a reaction roll with the cleric speaking, the
/// magic-user declaring *Sleep* for every round (so that a lost initiative and a hit disrupt
/// it), a saving throw by the first monster in the fight after each cast spell, missile
/// weapons shot at short range, melee otherwise, and a morale check whenever the server
/// proposes one. Returns the commands sent.
pub fn play_ose_in_process(session: &mut Session, max_ticks: u64) -> Result<Vec<Command>> {
    use fray_protocol::ose::{Declaration, MissileRange, SaveCategory};
    use fray_protocol::state::LifeStatus;
    let mut sent = Vec::new();
    let mut tick = 0;
    let mut send = |session: &mut Session, cmd: Command, sent: &mut Vec<Command>| {
        tick += 1;
        let events: Vec<GameEvent> = session
            .stage("gm", tick, &cmd)
            .map_err(|r| anyhow!("rejected at tick {tick}: {cmd:?}: {r}"))?
            .events
            .into_iter()
            .map(|e| e.event)
            .collect();
        sent.push(cmd);
        session.commit()?;
        Ok::<_, anyhow::Error>(events)
    };
    let up = |s: &SessionState, id: &CombatantId| {
        s.combatant(id).is_some_and(|c| {
            c.status == LifeStatus::Conscious && c.ose.as_ref().is_some_and(|o| !o.fled)
        })
    };
    if session.state().ruleset == "basic-fantasy" {
        // basic-fantasy-adventures.txt: the exploration before the encounter — a torch, a
        // listen, a stuck door, searches for a secret door and a trap (the GM's secret rolls),
        // exploration turns with the wandering-monster check until the torch burns out, a rest
        // in the sixth turn.
        use fray_protocol::ose::{LightSource, SecretCheck};
        // The days before: Wenna (level 2) tries to hire Pell (level 1) as her retainer, the
        // party's loads, two days of forced march through the forest (saves on the second) and a
        // day on a road with Odo leading
        // (the secret check for becoming lost), Quill without food.
        use fray_protocol::bf::{ArmorType, March, Terrain};
        send(
            session,
            Command::Bx(BxCommand::HireRetainer {
                employer: CombatantId::new("wenna"),
                retainer: CombatantId::new("pell"),
                adjustment: 1,
            }),
            &mut sent,
        )?;
        for (who, armor, load) in [
            ("odo", ArmorType::Metal, 60),
            ("quill", ArmorType::Leather, 30),
        ] {
            send(
                session,
                Command::Bx(BxCommand::SetEncumbrance {
                    combatant: CombatantId::new(who),
                    armor,
                    load,
                    treasure: false,
                }),
                &mut sent,
            )?;
        }
        for (march, terrain) in [
            (March::Forced, Terrain::Forest),
            (March::Forced, Terrain::Forest),
            (March::Normal, Terrain::Road),
        ] {
            send(
                session,
                Command::Bx(BxCommand::PassDay {
                    march,
                    terrain,
                    unfed: vec![CombatantId::new("quill")],
                    no_water: Vec::new(),
                    leader: Some(CombatantId::new("odo")),
                    water: None,
                }),
                &mut sent,
            )?;
        }
        send(
            session,
            Command::Bx(BxCommand::TimeEffect {
                name: "bless".into(),
                combatant: Some(CombatantId::new("wenna")),
                turns: 2,
            }),
            &mut sent,
        )?;
        send(
            session,
            Command::Bx(BxCommand::LightSource {
                carrier: CombatantId::new("odo"),
                source: LightSource::Torch,
            }),
            &mut sent,
        )?;
        for (check, who, chance) in [
            (SecretCheck::Listen, "quill", 1),
            (SecretCheck::StuckDoor, "odo", 1),
            (SecretCheck::SecretDoor, "pell", 2),
            (SecretCheck::RoomTrap, "quill", 1),
        ] {
            send(
                session,
                Command::Bx(BxCommand::SecretRoll {
                    check,
                    combatant: Some(CombatantId::new(who)),
                    chance,
                    area: None,
                }),
                &mut sent,
            )?;
        }
        for turn in 1..=12 {
            let events = send(
                session,
                Command::Bx(BxCommand::ExplorationTurn {
                    wandering: Some(1),
                    rest: turn == 6,
                }),
                &mut sent,
            )?;
            if events
                .iter()
                .any(|e| matches!(e, GameEvent::Bx(BxEvent::LightBurnedOut { .. })))
            {
                break;
            }
        }
    }
    let caster = CombatantId::new("pell");
    let sleep = || {
        Some(Declaration::Spell {
            spell: "Sleep".into(),
        })
    };
    send(
        session,
        Command::Bx(BxCommand::RollSurprise {
            sides: vec![Side::Monsters],
        }),
        &mut sent,
    )?;
    send(
        session,
        Command::Bx(BxCommand::RollReaction {
            speaker: Some(CombatantId::new("wenna")),
        }),
        &mut sent,
    )?;
    send(
        session,
        Command::Bx(BxCommand::Declare {
            actor: caster.clone(),
            declaration: sleep(),
        }),
        &mut sent,
    )?;
    let mut proposals: Vec<Vec<CombatantId>> = Vec::new();
    let mut events = send(session, Command::StartBattle, &mut sent)?;
    for _ in 0..max_ticks {
        let mut cast = false;
        for e in &events {
            match e {
                GameEvent::MoraleProposed { combatants, .. } => proposals.push(combatants.clone()),
                GameEvent::Bx(BxEvent::SpellCast { .. }) => cast = true,
                _ => {}
            }
        }
        let state = session.state();
        if state.phase == Phase::Ended {
            if state.seed_revealed {
                if state.ruleset == "basic-fantasy" {
                    // basic-fantasy-adventures.txt § Character Advancement: the defeated rats'
                    // experience, shared by the party still standing.
                    let defeated: Vec<CombatantId> = state
                        .combatants
                        .iter()
                        .filter(|c| c.side == Side::Monsters && !up(&state, &c.id))
                        .map(|c| c.id.clone())
                        .collect();
                    let party: Vec<CombatantId> = state
                        .combatants
                        .iter()
                        .filter(|c| c.side == Side::Heroes)
                        .map(|c| c.id.clone())
                        .collect();
                    send(
                        session,
                        Command::Bx(BxCommand::AwardXp {
                            monsters: defeated,
                            bonus: 50,
                            party,
                        }),
                        &mut sent,
                    )?;
                }
                return Ok(sent);
            }
            return Err(anyhow!("the battle ended without revealing the seed"));
        }
        if cast
            && let Some(m) = state
                .combatants
                .iter()
                .find(|c| c.side == Side::Monsters && up(&state, &c.id))
        {
            events = send(
                session,
                Command::Bx(BxCommand::SavingThrow {
                    combatant: m.id.clone(),
                    category: SaveCategory::Spells,
                    modifier: 0,
                }),
                &mut sent,
            )?;
            continue;
        }
        if let Some(who) = proposals.pop() {
            let who: Vec<CombatantId> = who
                .into_iter()
                .filter(|c| {
                    up(&state, c)
                        && state
                            .combatant(c)
                            .and_then(|c| c.ose.as_ref())
                            .is_some_and(|o| o.morale_successes < 2)
                })
                .collect();
            if !who.is_empty() {
                events = send(
                    session,
                    Command::Bx(BxCommand::OseMorale {
                        combatants: who,
                        adjustment: 0,
                    }),
                    &mut sent,
                )?;
                continue;
            }
        }
        if up(&state, &caster)
            && state
                .combatant(&caster)
                .and_then(|c| c.ose.as_ref())
                .is_some_and(|o| o.next.is_none())
        {
            events = send(
                session,
                Command::Bx(BxCommand::Declare {
                    actor: caster.clone(),
                    declaration: sleep(),
                }),
                &mut sent,
            )?;
            continue;
        }
        let Some(cur) = state.current.clone() else {
            return Err(anyhow!("no current combatant while running"));
        };
        let Some(me) = state.combatant(&cur).cloned() else {
            return Err(anyhow!("unknown current combatant"));
        };
        let Some(o) = me.ose.clone() else {
            return Err(anyhow!("{cur} has no Old-School Essentials sheet"));
        };
        if ose_should_hold(&state, &cur) {
            events = send(
                session,
                Command::Bx(BxCommand::OseHold { actor: cur }),
                &mut sent,
            )?;
            continue;
        }
        if matches!(o.declared, Some(Declaration::Spell { .. })) {
            let cmd = if o.disrupted {
                Command::EndTurn { actor: cur }
            } else {
                Command::Bx(BxCommand::CastSpell { actor: cur })
            };
            events = send(session, cmd, &mut sent)?;
            continue;
        }
        let foe = state
            .combatants
            .iter()
            .find(|c| c.side != me.side && up(&state, &c.id))
            .map(|c| c.id.clone());
        let Some(foe) = foe else {
            events = send(session, Command::EndTurn { actor: cur }, &mut sent)?;
            continue;
        };
        let missile = me.attacks.iter().find(|a| a.range == "missile").cloned();
        // § Movement Outside of Melee: Quill steps 10′ for a clear shot before shooting, when
        // no foe is in melee with him.
        let in_melee = o.engaged.iter().any(|f| up(&state, f));
        if me.id.as_str() == "quill" && missile.is_some() && o.moved == 0 && !in_melee {
            events = send(
                session,
                Command::Bx(BxCommand::OseMove {
                    actor: cur,
                    feet: 10,
                }),
                &mut sent,
            )?;
            continue;
        }
        let cmd = match (me.side, missile, me.attacks.first().cloned()) {
            // § Missile Attacks: no shooting while in melee (`missile_in_melee`): he fights
            // with his first (melee) weapon instead.
            (Side::Heroes, Some(m), _) if me.id.as_str() == "quill" && !in_melee => {
                Command::Bx(BxCommand::OseAttack {
                    actor: cur,
                    attack: m.id,
                    target: foe,
                    range: Some(MissileRange::Short),
                    modifier: 0,
                    behind: false,
                })
            }
            (_, _, Some(a)) => Command::Bx(BxCommand::OseAttack {
                actor: cur,
                attack: a.id,
                target: foe,
                range: None,
                modifier: 0,
                behind: false,
            }),
            _ => Command::EndTurn { actor: cur },
        };
        events = send(session, cmd, &mut sent)?;
    }
    Err(anyhow!("fight did not end in {max_ticks} ticks"))
}
