//! The `codec` scenario: what one command or event costs to encode and decode, JSON and
//! bincode, over every command and event of the recorded fights in `replays/` (all five
//! rulesets). JSON decoding of a namespaced enum reads the value once into a
//! `serde_json::Value` to find its family by name (`protocol/src/namespace.rs`); the scenario
//! also times decoding the same family commands straight into their family's enum, which is
//! what that detour costs.

use super::Report;
use anyhow::{Context, Result};
use fray_protocol::codec::{Encoding, decode_client, encode, from_bincode_record, to_bincode};
use fray_protocol::{
    BxCommand, Command, FiveTorchesCommand, GameEvent, OrcusCommand, ThirteenthAgeCommand,
};
use fray_server::replay;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

/// Runs `f` over `items` repeatedly for about `budget`; returns nanoseconds per item.
fn per_item<T>(items: &[T], budget: Duration, mut f: impl FnMut(&T)) -> f64 {
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < budget {
        for x in items {
            f(x);
        }
        n += items.len() as u64;
    }
    start.elapsed().as_nanos() as f64 / n.max(1) as f64
}

/// The recorded fights' commands and events.
fn corpus() -> Result<(Vec<Command>, Vec<GameEvent>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../replays");
    let (mut commands, mut events) = (Vec::new(), Vec::new());
    for ruleset in std::fs::read_dir(&root).context("replays/")? {
        for fight in std::fs::read_dir(ruleset?.path())? {
            let fight = replay::read_log(&fight?.path())?;
            commands.extend(fight.commands().cloned());
            events.extend(fight.events().into_iter().map(|e| e.event));
        }
    }
    Ok((commands, events))
}

pub(super) fn scenario_codec(seconds: f64, report: &mut Report) -> Result<()> {
    let s = "codec";
    let (commands, events) = corpus()?;
    let budget = Duration::from_secs_f64((seconds / 10.0).max(0.2));
    let cmd_json: Vec<Vec<u8>> = commands
        .iter()
        .map(serde_json::to_vec)
        .collect::<Result<_, _>>()?;
    let cmd_bin: Vec<Vec<u8>> = commands.iter().map(to_bincode).collect::<Result<_, _>>()?;
    let ev_json: Vec<Vec<u8>> = events
        .iter()
        .map(serde_json::to_vec)
        .collect::<Result<_, _>>()?;
    let ev_bin: Vec<Vec<u8>> = events.iter().map(to_bincode).collect::<Result<_, _>>()?;
    println!(
        "codec: {} commands and {} events of replays/",
        commands.len(),
        events.len()
    );
    report.add(s, "commands in the corpus", commands.len() as f64, "");
    report.add(s, "events in the corpus", events.len() as f64, "");
    let t = per_item(&commands, budget, |c| {
        black_box(encode(c, Encoding::Json).ok());
    });
    report.add(s, "command JSON encode", t, "ns");
    let t = per_item(&cmd_json, budget, |b| {
        black_box(decode_client::<Command>(b, Encoding::Json).ok());
    });
    report.add(s, "command JSON decode", t, "ns");
    let t = per_item(&cmd_bin, budget, |b| {
        black_box(from_bincode_record::<Command>(b).ok());
    });
    report.add(s, "command bincode decode", t, "ns");
    let t = per_item(&events, budget, |e| {
        black_box(encode(e, Encoding::Json).ok());
    });
    report.add(s, "event JSON encode", t, "ns");
    let t = per_item(&ev_json, budget, |b| {
        black_box(decode_client::<GameEvent>(b, Encoding::Json).ok());
    });
    report.add(s, "event JSON decode", t, "ns");
    let t = per_item(&events, budget, |e| {
        black_box(to_bincode(e).ok());
    });
    report.add(s, "event bincode encode", t, "ns");
    let t = per_item(&ev_bin, budget, |b| {
        black_box(from_bincode_record::<GameEvent>(b).ok());
    });
    report.add(s, "event bincode decode", t, "ns");
    family_detour(s, &commands, budget, report)
}

/// Family commands decoded through `Command` (the name lookup) and straight into their
/// family's enum.
fn family_detour(
    s: &'static str,
    commands: &[Command],
    budget: Duration,
    report: &mut Report,
) -> Result<()> {
    let family: Vec<(Vec<u8>, &Command)> = commands
        .iter()
        .filter(|c| c.family().is_some())
        .map(|c| serde_json::to_vec(c).map(|b| (b, c)))
        .collect::<Result<_, _>>()?;
    if family.is_empty() {
        return Ok(());
    }
    let t = per_item(&family, budget, |(b, _)| {
        black_box(serde_json::from_slice::<Command>(b).ok());
    });
    report.add(s, "family command JSON decode via Command", t, "ns");
    let t = per_item(&family, budget, |(b, c)| {
        black_box(match c {
            Command::ThirteenthAge(_) => serde_json::from_slice::<ThirteenthAgeCommand>(b).is_ok(),
            Command::Orcus(_) => serde_json::from_slice::<OrcusCommand>(b).is_ok(),
            Command::FiveTorches(_) => serde_json::from_slice::<FiveTorchesCommand>(b).is_ok(),
            Command::Bx(_) => serde_json::from_slice::<BxCommand>(b).is_ok(),
            _ => false,
        });
    });
    report.add(
        s,
        "family command JSON decode straight into its enum",
        t,
        "ns",
    );
    Ok(())
}
