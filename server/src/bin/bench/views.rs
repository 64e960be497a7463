//! The `views` scenario: what the views and the legal actions cost the session task, over the
//! recorded fights of `replays/` (every ruleset). Each fight's commands are run again on a fresh
//! engine; after each one the scenario times what the task does for a watching connection:
//! the state read (once for both audiences), then each audience's view (its JSON and the RFC
//! 6902 diff against the previous one — `net/views.rs`) and the legal actions of the GM (every combatant and the session
//! commands) and of the seat controlling the current combatant (`Engine::legal_actions`).
//! The goldens are of record format 2, without reserves; the GM's legal actions are timed again
//! on a copy of each fight given its ruleset's built-in monsters as reserves (record format 4:
//! the GM is offered each one as a reinforcement), to show what they add.

use super::Report;
use anyhow::{Context, Result};
use fray_protocol::JsonPatch;
use fray_server::net::views::Views;
use fray_server::replay;
use fray_server::session::engine_for;
use std::path::Path;
use std::time::Instant;

#[derive(Default)]
struct Timings {
    micros: Vec<f64>,
}

impl Timings {
    fn time<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let out = f();
        self.micros.push(start.elapsed().as_secs_f64() * 1e6);
        out
    }
    fn summary(&mut self) -> (f64, f64, usize) {
        self.micros.sort_by(f64::total_cmp);
        let n = self.micros.len().max(1);
        let p50 = self.micros.get(n / 2).copied().unwrap_or(0.0);
        let p99 = self.micros.get((n * 99) / 100).copied().unwrap_or(0.0);
        (p50, p99, self.micros.len())
    }
}

pub(super) fn scenario_views(report: &mut Report) -> Result<()> {
    let s = "views";
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../replays");
    println!("\n== views: per accepted command, over replays/ (µs: p50, p99)");
    let mut rulesets: Vec<_> = std::fs::read_dir(&root)
        .context("replays/")?
        .collect::<Result<_, _>>()?;
    rulesets.sort_by_key(|e| e.file_name());
    for ruleset in rulesets {
        let name = ruleset.file_name().to_string_lossy().into_owned();
        let (mut state_read, mut gm_view, mut public_view): (Timings, Timings, Timings) =
            Default::default();
        let (mut gm_actions, mut seat_actions): (Timings, Timings) = Default::default();
        let mut gm_reserves = Timings::default();
        let mut listed_reserves = 0usize;
        let mut whole_json = Timings::default();
        let mut listed = 0usize;
        let mut fights: Vec<_> = std::fs::read_dir(ruleset.path())?.collect::<Result<_, _>>()?;
        fights.sort_by_key(|e| e.file_name());
        for fight in fights {
            let fight = replay::read_log(&fight.path())?;
            let mut engine = engine_for(fight.genesis())?;
            let mut with_reserves = {
                let mut genesis = fight.genesis().clone();
                genesis.encounter.reserves = builtin_reserves(&name, &genesis.encounter)?;
                engine_for(&genesis)?
            };
            let seats = &fight.genesis().encounter.seats;
            let json =
                |s: &fray_protocol::SessionState| serde_json::to_value(s).unwrap_or_default();
            let first = engine.state();
            let mut last_json = json(&first);
            // Both audiences watched, as the session task keeps them (`net::views::Views`).
            let mut views = Views::default();
            views.keep(0, first.redacted(), false);
            views.keep(0, first, true);
            for (seq, command) in (1u64..).zip(fight.commands()) {
                engine
                    .execute(command)
                    .map_err(|r| anyhow::anyhow!("{name}: a recorded command was refused: {r}"))?;
                // What the session task does after a group when both audiences are watched:
                // one state read, then each audience's patch (`Views::advance`).
                let state = state_read.time(|| engine.state());
                gm_view.time(|| {
                    views
                        .advance(state.clone(), seq, true)
                        .map_or(0, |p| p.patch.len())
                });
                public_view.time(|| {
                    views
                        .advance(state.redacted(), seq, false)
                        .map_or(0, |p| p.patch.len())
                });
                // For comparison: the whole view's JSON diffed as one document.
                whole_json.time(|| {
                    let now = json(&state);
                    let p = JsonPatch::diff(&last_json, &now);
                    last_json = now;
                    p.len()
                });
                let all = gm_actions.time(|| engine.legal_actions(None));
                listed += all.len();
                with_reserves
                    .execute(command)
                    .map_err(|r| anyhow::anyhow!("{name}: refused with reserves: {r}"))?;
                let all = gm_reserves.time(|| with_reserves.legal_actions(None));
                listed_reserves += all.len();
                let current = state.current;
                if let Some(seat) =
                    current.and_then(|c| seats.iter().find(|s| s.controls.contains(&c)))
                {
                    Timings::time(&mut seat_actions, || {
                        engine.legal_actions(Some(&seat.controls))
                    });
                }
            }
        }
        let mut line = |what: &'static str, t: &mut Timings| {
            let (p50, p99, n) = t.summary();
            println!("  {name:<18} {what:<28} {p50:>9.1} {p99:>9.1}   ({n} commands)");
            report.push(s, format!("{name} {what} p50"), p50, "µs", None);
            report.push(s, format!("{name} {what} p99"), p99, "µs", None);
        };
        line("state read", &mut state_read);
        line("GM view patch", &mut gm_view);
        line("public view patch", &mut public_view);
        line("GM view as one JSON diff", &mut whole_json);
        line("GM legal actions", &mut gm_actions);
        line("GM legal actions, reserves", &mut gm_reserves);
        line("seat legal actions", &mut seat_actions);
        let n = gm_actions.micros.len().max(1) as f64;
        println!(
            "  {name:<18} GM actions listed per command: {:.1} ({:.1} with the reserves)",
            listed as f64 / n,
            listed_reserves as f64 / n
        );
    }
    Ok(())
}

/// Every built-in monster of the ruleset that `encounter` does not field, as the reserves a
/// session of record format 4 would carry (the union of the built-in encounters' reserves, by
/// template).
fn builtin_reserves(
    ruleset: &str,
    encounter: &fray_server::content::model::Encounter,
) -> Result<Vec<fray_server::content::model::CombatantSpec>> {
    let fielded: Vec<&str> = encounter
        .combatants
        .iter()
        .chain(encounter.battles.iter().flat_map(|b| b.monsters.iter()))
        .map(|c| c.template.as_str())
        .collect();
    let mut all: std::collections::BTreeMap<String, fray_server::content::model::CombatantSpec> =
        Default::default();
    for (file, text) in fray_server::rules::builtin_encounters(ruleset) {
        let e = fray_server::rules::load_encounter(file, text)?;
        for spec in e.reserves {
            all.entry(spec.template.clone()).or_insert(spec);
        }
    }
    Ok(all
        .into_values()
        .filter(|spec| !fielded.contains(&spec.template.as_str()))
        .collect())
}
