//! A power's Effect line, utility powers and Maintain in Orcus content
//! (`orcus-basic-rules.txt` § Action descriptions, § Category, § Maintain).

use super::{EffectFile, PowerFile, orcus_effect};
use crate::content::ContentError;
use crate::content::file::Ctx;
use crate::content::model::{OrcusEffect, Origin, ZoneSpec};
use fray_protocol::event::{ActionKind, EffectDuration};
use fray_protocol::grid::ZoneKind;

/// § Maintain: a power's `maintain` action (`swift`, `move` or `standard`).
pub(super) fn maintain(
    ctx: &Ctx,
    field: &str,
    p: &PowerFile,
) -> Result<Option<ActionKind>, ContentError> {
    Ok(match p.maintain.as_deref() {
        None => None,
        Some("swift") => Some(ActionKind::Quick),
        Some("move") => Some(ActionKind::Move),
        Some("standard") => Some(ActionKind::Standard),
        Some(o) => {
            return Err(ctx.err(
                format!("{field}.maintain"),
                format!("unknown action '{o}' (swift, move, standard)"),
            ));
        }
    })
}

/// An effect clause of a power; duration `maintain` (the power must say how it is
/// maintained) lasts the encounter unless its user stops maintaining it.
pub(super) fn clause(
    ctx: &Ctx,
    field: &str,
    e: &EffectFile,
    p: &PowerFile,
) -> Result<OrcusEffect, ContentError> {
    if e.duration.as_deref() != Some("maintain") {
        return orcus_effect(ctx, field, e);
    }
    if p.maintain.is_none() {
        return Err(ctx.err(
            format!("{field}.duration"),
            "a `maintain` duration needs the power's `maintain` action (swift, move, standard)",
        ));
    }
    if e.persistent.is_some() {
        return Err(ctx.err(
            format!("{field}.duration"),
            "persistent damage lasts until a save ends it: it is not maintained",
        ));
    }
    let mut lasting = e.clone();
    lasting.duration = Some("encounter".into());
    let mut out = orcus_effect(ctx, field, &lasting)?;
    out.maintained = true;
    Ok(out)
}

/// § Action descriptions: the Effect line — effect clauses on every target, and for a near or
/// far burst or blast at most one zone clause over its area.
pub(super) fn effect_line(
    ctx: &Ctx,
    field: &str,
    p: &PowerFile,
    origin: &Origin,
    maintain: Option<ActionKind>,
) -> Result<(Vec<OrcusEffect>, Option<ZoneSpec>), ContentError> {
    let mut effects = Vec::new();
    let mut zone = None;
    for (i, e) in p.effect.iter().enumerate() {
        let f = format!("{field}.effect[{i}]");
        let Some(kind) = &e.zone else {
            effects.push(clause(ctx, &f, e, p)?);
            continue;
        };
        let kind = match kind.as_str() {
            "difficult terrain" => ZoneKind::DifficultTerrain,
            o => {
                return Err(ctx.err(
                    format!("{f}.zone"),
                    format!("unknown zone '{o}' (difficult terrain)"),
                ));
            }
        };
        if e.condition.is_some()
            || e.persistent.is_some()
            || e.damage.is_some()
            || e.damage_type.is_some()
            || e.aftereffect.is_some()
            || e.first_failed_save.is_some()
        {
            return Err(ctx.err(f, "a zone clause has only `zone` and `duration`"));
        }
        if !matches!(
            origin,
            Origin::NearBurst { .. }
                | Origin::NearBlast { .. }
                | Origin::FarBurst { .. }
                | Origin::FarBlast { .. }
        ) {
            return Err(ctx.err(
                format!("{f}.zone"),
                "a zone covers the area of a near or far burst or blast",
            ));
        }
        if zone.is_some() {
            return Err(ctx.err(f, "a power makes at most one zone"));
        }
        let (duration, maintained) = match e.duration.as_deref() {
            Some("end of your next turn") => (EffectDuration::UntilEndOfSourcesNextTurn, false),
            Some("encounter") => (EffectDuration::EndOfBattle, false),
            Some("maintain") if maintain.is_some() => (EffectDuration::EndOfBattle, true),
            Some("maintain") => {
                return Err(ctx.err(
                    format!("{f}.duration"),
                    "a `maintain` duration needs the power's `maintain` action (swift, move, standard)",
                ));
            }
            o => {
                return Err(ctx.err(
                    format!("{f}.duration"),
                    format!(
                        "a zone's duration is 'end of your next turn', 'encounter' or 'maintain', not {o:?}"
                    ),
                ));
            }
        };
        zone = Some(ZoneSpec {
            kind,
            duration,
            maintained,
        });
    }
    let maintains_something = zone.as_ref().is_some_and(|z| z.maintained)
        || effects.iter().any(|e| e.maintained)
        || p.on_hit
            .iter()
            .chain(&p.on_miss)
            .any(|e| e.duration.as_deref() == Some("maintain"));
    if maintain.is_some() && !maintains_something {
        return Err(ctx.err(
            format!("{field}.maintain"),
            "nothing of this power has the `maintain` duration",
        ));
    }
    Ok((effects, zone))
}

/// § Category, utility: a power without `vs` makes no attack roll, so it has nothing that
/// depends on one (hit or miss damage and effects, secondary attacks, forced movement,
/// ammunition); what it does is its `effect`.
pub(super) fn check_utility(ctx: &Ctx, field: &str, p: &PowerFile) -> Result<(), ContentError> {
    let attack_parts = [
        ("hit", p.hit.is_some()),
        ("miss", p.miss.is_some()),
        ("level21_hit", p.level21_hit.is_some()),
        ("on_hit", !p.on_hit.is_empty()),
        ("on_miss", !p.on_miss.is_empty()),
        ("secondary", p.secondary.is_some()),
        ("push", p.push.is_some()),
        ("pull", p.pull.is_some()),
        ("shunt", p.shunt.is_some()),
        ("bonus", p.bonus.is_some()),
        ("damage_type", p.damage_type.is_some()),
        ("ammunition", p.ammunition == Some(true)),
        ("loading", p.loading.is_some()),
        ("basic", p.basic),
    ];
    if let Some((name, _)) = attack_parts.iter().find(|(_, given)| *given) {
        return Err(ctx.err(
            format!("{field}.{name}"),
            "a utility power (no `vs`) makes no attack roll: give it `vs` or put what it does in `effect`",
        ));
    }
    if p.effect.is_empty() {
        return Err(ctx.err(
            format!("{field}.vs"),
            "a power gives `vs` (an attack) or an `effect` line (a utility power)",
        ));
    }
    Ok(())
}
