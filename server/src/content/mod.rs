//! Content: hero and monster stat blocks and encounters, written as TOML, validated on load with
//! errors that name the file, the field and the reason, and resolved into [`model::Encounter`].
//!
//! Each ruleset ships a sample party and bestiary, embedded in the binary (`server/content/`).
//! An encounter file may use them by id and may define its own `[[hero]]` and `[[monster]]`
//! blocks, which take precedence over built-in ones with the same id.

pub mod file;
pub mod model;

use file::Ctx;
use fray_protocol::ids::CombatantId;
use model::Seat;
use thiserror::Error;

/// A content file failed to load.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ContentError {
    /// The file is not valid TOML or has unknown fields.
    #[error("{file}: {reason}")]
    Syntax {
        /// File name.
        file: String,
        /// Parser message (with line and column).
        reason: String,
    },
    /// A field has an invalid value.
    #[error("{file}: {field}: {reason}")]
    Invalid {
        /// File name.
        file: String,
        /// Field path.
        field: String,
        /// What is wrong.
        reason: String,
    },
}

/// Parses a content file of any shape; syntax errors name the file, line and column.
pub(crate) fn parse_toml<T: serde::de::DeserializeOwned>(
    name: &str,
    text: &str,
) -> Result<T, ContentError> {
    toml::from_str(text).map_err(|e| ContentError::Syntax {
        file: name.to_owned(),
        reason: e.to_string().trim_end().replace('\n', " "),
    })
}

/// Player seats: names 1–40 characters, unique, controlling heroes of the encounter.
/// `[[battles]]` (13th Age, Orcus): later battles need the rests option (they come after the
/// rests), and a session holds at most 8 of them.
pub(crate) fn later_battles_allowed(
    ctx: &Ctx,
    later: usize,
    rests: bool,
) -> Result<(), ContentError> {
    if later > 0 && !rests {
        return Err(ctx.err(
            "battles",
            "later battles come after rests: set [options] rests = true",
        ));
    }
    if later > 8 {
        return Err(ctx.err("battles", format!("{later} later battles is more than 8")));
    }
    Ok(())
}

pub(crate) fn resolve_seats(
    ctx: &Ctx,
    seats: &[file::SeatFile],
    combatants: &[model::CombatantSpec],
) -> Result<Vec<Seat>, ContentError> {
    let mut out: Vec<Seat> = Vec::new();
    for (i, s) in seats.iter().enumerate() {
        if s.name.trim().is_empty() || s.name.len() > 40 {
            return Err(ctx.err(format!("seats[{i}].name"), "a seat name is 1-40 characters"));
        }
        if out.iter().any(|x: &Seat| x.name == s.name) {
            return Err(ctx.err(
                format!("seats[{i}].name"),
                format!("duplicate seat '{}'", s.name),
            ));
        }
        let mut controls = Vec::new();
        for (j, c) in s.controls.iter().enumerate() {
            let id = CombatantId::new(c.clone());
            match combatants.iter().find(|x| x.id == id) {
                Some(x) if x.hero.is_some() => controls.push(id),
                Some(_) => {
                    return Err(ctx.err(
                        format!("seats[{i}].controls[{j}]"),
                        format!("'{c}' is a monster; the GM controls monsters"),
                    ));
                }
                None => {
                    return Err(ctx.err(
                        format!("seats[{i}].controls[{j}]"),
                        format!("'{c}' is not a hero in this encounter"),
                    ));
                }
            }
        }
        out.push(Seat {
            name: s.name.clone(),
            controls,
        });
    }
    Ok(out)
}

/// The reserves of an encounter (`Encounter::reserves`): every monster of `catalog` — the
/// ruleset's built-in bestiary and the encounter file's own `[[monster]]` blocks, keyed by
/// template, with the file each came from — whose template no combatant of `fielded` has,
/// resolved by `resolve` (the ruleset's own) under the id of its template, sorted by template.
/// Resolving validates the file's unused blocks too, so their errors name their field.
pub(crate) fn reserves<'a, M>(
    catalog: &std::collections::BTreeMap<String, (String, M)>,
    fielded: impl IntoIterator<Item = &'a model::CombatantSpec>,
    resolve: impl Fn(&Ctx, &M) -> Result<model::CombatantSpec, ContentError>,
) -> Result<Vec<model::CombatantSpec>, ContentError> {
    let used: std::collections::BTreeSet<&str> =
        fielded.into_iter().map(|c| c.template.as_str()).collect();
    let mut out = Vec::new();
    for (template, (file, m)) in catalog {
        if used.contains(template.as_str()) {
            continue;
        }
        let mut spec = resolve(&Ctx { file }, m)?;
        spec.id = CombatantId::new(template.clone());
        out.push(spec);
    }
    Ok(out)
}
