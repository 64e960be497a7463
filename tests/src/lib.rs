//! Shared harness for Fray's end-to-end tests: a real server on port 0 in a temp dir, a tiny
//! HTTP client for session creation, an in-process fight driver (the demo bots' policy) for
//! recording replays, and helpers to tamper with logs.

use anyhow::{Result, anyhow};
use fray_protocol::ids::Role;
use fray_protocol::state::Phase;
use fray_protocol::{Command, GameEvent};
use fray_server::demo::bot::next_for_table;
use fray_server::net::{self, Registry};
use fray_server::session::{Session, SessionConfig};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

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
        let dir = tempfile::tempdir()?;
        let registry = Registry::new(dir.path().to_path_buf(), SessionConfig::default());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let reg = registry.clone();
        let task = tokio::spawn(async move {
            let _ = net::serve(listener, reg, async {
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
    let text = fray_server::content::RULESETS
        .iter()
        .flat_map(|r| fray_server::content::builtin_encounters(r).iter())
        .find(|(n, _)| *n == encounter)
        .map(|(_, t)| *t)
        .ok_or_else(|| anyhow!("no built-in encounter {encounter}"))?;
    Ok(fray_server::demo::client::create_session(addr, encounter, text, Some(seed)).await?)
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
            GameEvent::GridMoved {
                combatant, path, ..
            } => {
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
            GameEvent::RiderAttached { rider, .. } => {
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
            GameEvent::ActionPointSpent { .. } => tag = Some("action-point"),
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
