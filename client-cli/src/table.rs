//! Plain-text rendering of a `SessionState`: a header line (phase, round, escalation die, whose
//! turn) and one row per combatant. Hidden values (a monster's hit points for players and
//! spectators) show as `?`.

use crate::narrate::{duration_text, effect_kind_text};
use fray_protocol::state::{CombatantState, LifeStatus, Phase};
use fray_protocol::{SessionState, Side};

/// The header line: `Round 2 · escalation 1 · Brakka's turn`.
pub fn header(state: &SessionState) -> String {
    let main = header_main(state);
    match &state.ftd {
        // Five Torches Deep: the dungeon clock and the scene's light.
        Some(f) => {
            let mut h = format!(
                "{main} · {} · clock {}:{:02} · travel turns {}",
                crate::narrate::light_text(f.light),
                f.clock / 3600,
                f.clock % 3600 / 60,
                f.travel_turns
            );
            // The time of day and its time dice (6, 1 is 07:00h).
            if let Some(t) = f.time_of_day {
                let faces: Vec<String> = fray_protocol::ftd::time_dice(t / 3600)
                    .iter()
                    .map(u32::to_string)
                    .collect();
                h.push_str(&format!(
                    " · {:02}:{:02}h {} [{}]",
                    t / 3600,
                    t % 3600 / 60,
                    fray_protocol::ftd::day_quarter(t / 3600),
                    faces.join(" ")
                ));
            }
            h
        }
        None => main,
    }
}

fn header_main(state: &SessionState) -> String {
    match state.phase {
        Phase::Setup => "Setup: waiting for the GM to start the battle".to_owned(),
        Phase::Ended => match state.winner {
            Some(Side::Heroes) => format!("Ended in round {}: the heroes won", state.round),
            Some(Side::Monsters) => format!("Ended in round {}: the monsters won", state.round),
            None => format!("Ended in round {} by the GM", state.round),
        },
        Phase::Running => {
            let turn = state
                .current
                .as_ref()
                .map(|id| {
                    let name = state.combatant(id).map_or(id.as_str(), |c| c.name.as_str());
                    format!(" · {name}'s turn")
                })
                .unwrap_or_default();
            if state.ftd.is_some() {
                // Five Torches Deep has no escalation die.
                format!("Round {}{turn}", state.round)
            } else {
                format!(
                    "Round {} · escalation {}{turn}",
                    state.round, state.escalation
                )
            }
        }
    }
}

/// `24/30`, `24` or `?`, with temporary hit points as `+5`.
fn hp_cell(c: &CombatantState) -> String {
    let mut s = match (c.hp, c.max_hp) {
        (Some(hp), Some(max)) => format!("{hp}/{max}"),
        (Some(hp), None) => hp.to_string(),
        (None, _) => "?".to_owned(),
    };
    if c.temp_hp > 0 {
        s.push_str(&format!(" +{}", c.temp_hp));
    }
    s
}

/// `up`, `up, staggered`, `unconscious (2 failed saves)`, `dead`, `slain`.
pub fn status_cell(c: &CombatantState) -> String {
    if let Some(how) = c.ftd.as_ref().and_then(|f| f.departed) {
        return match how {
            fray_protocol::ftd::Departure::Fled => "fled",
            fray_protocol::ftd::Departure::Surrendered => "surrendered",
            fray_protocol::ftd::Departure::Escaped => "escaped",
        }
        .to_owned();
    }
    let mut s = match c.status {
        LifeStatus::Conscious => "up".to_owned(),
        LifeStatus::Unconscious if c.ftd.is_some() => "incapacitated".to_owned(),
        LifeStatus::Unconscious => "unconscious".to_owned(),
        LifeStatus::Dead => "dead".to_owned(),
        LifeStatus::Slain => "slain".to_owned(),
        LifeStatus::KnockedOut => "knocked out".to_owned(),
    };
    if c.staggered && c.status.is_up() && c.ftd.is_none() {
        s.push_str(", staggered");
    }
    if c.death_save_failures > 0 && c.status == LifeStatus::Unconscious {
        s.push_str(&format!(" ({} failed saves)", c.death_save_failures));
    }
    if c.stabilized {
        s.push_str(", stabilized");
    }
    if c.coma {
        s.push_str(", in a coma");
    }
    if let Some(f) = &c.ftd {
        if f.speed != 30 || f.over_load > 0 {
            s.push_str(&format!(", speed {}'", f.speed));
        }
        if f.over_load > 0 {
            s.push_str(&format!(", encumbered (+{} load)", f.over_load));
        }
        if f.exhausted {
            s.push_str(", exhausted");
        }
        if f.hidden {
            s.push_str(", hidden");
        }
        if let Some(l) = f.carried {
            s.push_str(&format!(
                ", {} {} min",
                match l.source {
                    fray_protocol::ftd::LightSource::Torch => "torch",
                    fray_protocol::ftd::LightSource::Lantern => "lantern",
                },
                l.seconds_left / 60
            ));
        }
        if let Some(l) = f.light {
            s.push_str(&format!(", in {}", crate::narrate::light_text(l)));
        }
    }
    if c.far_away {
        s.push_str(", far away");
    }
    if !c.engaged_with.is_empty() {
        let names: Vec<&str> = c.engaged_with.iter().map(|e| e.as_str()).collect();
        s.push_str(&format!(", engaged with {}", names.join(" & ")));
    }
    s
}

fn effects_cell(state: &SessionState, c: &CombatantState) -> String {
    let parts: Vec<String> = c
        .effects
        .iter()
        .map(|e| {
            let source = state
                .combatant(&e.source)
                .map_or(e.source.as_str(), |s| s.name.as_str());
            format!(
                "{} ({})",
                effect_kind_text(&e.kind),
                duration_text(&e.duration, source)
            )
        })
        .collect();
    parts.join("; ")
}

/// How a table is drawn: plain (files, pipes, `NO_COLOR`), or for a terminal — hit-point bars
/// in colour and lines cut to its width.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    /// Hit-point bars in colour (green, yellow when staggered or half down, red when low).
    pub colour: bool,
    /// Cut each line to this many columns.
    pub width: Option<usize>,
}

impl Style {
    /// For stdout: colour and width when it is a terminal and `NO_COLOR` is not set
    /// (<https://no-color.org>); plain otherwise.
    pub fn for_stdout() -> Style {
        use std::io::IsTerminal;
        if !std::io::stdout().is_terminal() {
            return Style::default();
        }
        Style {
            colour: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
            width: terminal_size::terminal_size().map(|(w, _)| usize::from(w.0)),
        }
    }
}

/// A hit-point bar of 8 cells and its colour, when the hit points are known.
fn hp_bar(c: &CombatantState) -> Option<(String, &'static str)> {
    let (hp, max) = (c.hp?, c.max_hp?);
    let max = max.max(1);
    let filled = usize::try_from((hp.clamp(0, max) * 8 + max - 1) / max).unwrap_or(0);
    let colour = if hp * 4 <= max {
        "\x1b[31m" // red
    } else if hp * 2 <= max {
        "\x1b[33m" // yellow
    } else {
        "\x1b[32m" // green
    };
    Some((
        format!("{}{}", "█".repeat(filled), "░".repeat(8 - filled)),
        colour,
    ))
}

/// The whole table, header included, for a terminal or plain, ending with a newline.
pub fn render_styled(state: &SessionState, style: Style) -> String {
    let heads = ["", "ID", "NAME", "SIDE", "HP", "STATUS", "INIT", "EFFECTS"];
    let mut rows: Vec<([String; 8], Option<&'static str>)> = Vec::new();
    // Order of battle first when there is one, then anyone left out, by id.
    let mut ordered: Vec<&CombatantState> = state
        .order
        .iter()
        .filter_map(|id| state.combatant(id))
        .collect();
    for c in &state.combatants {
        if !state.order.contains(&c.id) {
            ordered.push(c);
        }
    }
    for c in ordered {
        let marker = if state.current.as_ref() == Some(&c.id) {
            ">"
        } else {
            ""
        };
        let side = match c.side {
            Side::Heroes => "heroes",
            Side::Monsters => "monsters",
        };
        let mut hp = hp_cell(c);
        let mut colour = None;
        if style.colour
            && let Some((bar, code)) = hp_bar(c)
        {
            hp = format!("{hp} {bar}");
            colour = Some(code);
        }
        rows.push((
            [
                marker.to_owned(),
                c.id.to_string(),
                c.name.clone(),
                side.to_owned(),
                hp,
                status_cell(c),
                c.initiative.map_or_else(String::new, |i| i.to_string()),
                effects_cell(state, c),
            ],
            colour,
        ));
    }
    let mut widths = heads.map(|h| h.chars().count());
    for (row, _) in &rows {
        for (w, cell) in widths.iter_mut().zip(row.iter()) {
            *w = (*w).max(cell.chars().count());
        }
    }
    // Where the HP column starts: the four columns before it and their gaps.
    let hp_at: usize = widths[..4].iter().map(|w| w + 2).sum();
    let line = |cells: &[String], colour: Option<&str>| {
        let mut out = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths.iter()).enumerate() {
            out.push_str(cell);
            if i + 1 < cells.len() {
                out.push_str(&" ".repeat(w - cell.chars().count() + 2));
            }
        }
        let mut chars: Vec<char> = out.trim_end().chars().collect();
        if let Some(w) = style.width
            && chars.len() > w
        {
            chars.truncate(w.saturating_sub(1));
            chars.push('…');
        }
        match colour {
            Some(code) if hp_at < chars.len() => {
                let end = (hp_at + cells[4].chars().count()).min(chars.len());
                let text = |r: std::ops::Range<usize>| chars[r].iter().collect::<String>();
                format!(
                    "{}{code}{}\x1b[0m{}",
                    text(0..hp_at),
                    text(hp_at..end),
                    text(end..chars.len())
                )
            }
            _ => chars.into_iter().collect(),
        }
    };
    let mut out = format!("{}\n", header(state));
    out.push_str(&line(&heads.map(str::to_owned), None));
    out.push('\n');
    for (row, colour) in &rows {
        out.push_str(&line(row, *colour));
        out.push('\n');
    }
    out.push_str(&grid_map(state));
    out
}

/// The battle map of a grid ruleset, with combatants as letters (heroes upper case, monsters
/// lower case) and a legend; empty without a map.
pub fn grid_map(state: &SessionState) -> String {
    let Some(map) = &state.map else {
        return String::new();
    };
    let (w, h) = (map.width.clamp(0, 64), map.height.clamp(0, 64));
    let mut cells = vec![vec!['.'; w as usize]; h as usize];
    let mut put = |sq: &fray_protocol::grid::Square, c: char| {
        if let Some(cell) = usize::try_from(sq.y)
            .ok()
            .and_then(|y| cells.get_mut(y))
            .and_then(|row| usize::try_from(sq.x).ok().and_then(|x| row.get_mut(x)))
        {
            *cell = c;
        }
    };
    for (list, c) in [
        (&map.dim_light, ','),
        (&map.darkness, ';'),
        (&map.difficult, '~'),
        (&map.lightly_obscured, ':'),
        (&map.heavily_obscured, '%'),
        (&map.totally_obscured, '@'),
        (&map.transparent, '='),
        (&map.blocking, '#'),
    ] {
        for sq in list {
            put(sq, c);
        }
    }
    let mut legend = Vec::new();
    let (mut upper, mut lower) = (b'A', b'a');
    for c in &state.combatants {
        let Some(g) = &c.grid else { continue };
        if matches!(c.status, LifeStatus::Dead | LifeStatus::Slain) {
            continue;
        }
        let letter = match c.side {
            Side::Heroes => &mut upper,
            Side::Monsters => &mut lower,
        };
        let ch = char::from(*letter);
        *letter = letter.saturating_add(1);
        let side = g.size.side();
        for dy in 0..side {
            for dx in 0..side {
                put(
                    &fray_protocol::grid::Square::new(g.square.x + dx, g.square.y + dy),
                    ch,
                );
            }
        }
        legend.push(format!(
            "{ch} {} ({},{}){}",
            c.id,
            g.square.x,
            g.square.y,
            if g.action_points > 0 && c.side == Side::Heroes {
                format!(", {} AP", g.action_points)
            } else {
                String::new()
            }
        ));
    }
    let mut out = String::from("\n");
    for row in cells {
        out.extend(row);
        out.push('\n');
    }
    out.push_str(&legend.join(" · "));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The final state of a recorded 13th Age fight (monsters slain, heroes hurt).
    fn state() -> SessionState {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../replays/13th-age/crypt-of-ash-seed-0");
        let fight = fray_server::replay::read_log(&path).expect("the golden reads");
        fray_server::replay::fold(&fight).expect("folds").state
    }

    fn visible(s: &str) -> String {
        let mut out = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for d in chars.by_ref() {
                    if d == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn a_plain_table_has_no_colour_and_no_bars() {
        let plain = render_styled(&state(), Style::default());
        assert!(!plain.contains('\x1b') && !plain.contains('█') && !plain.contains('░'));
        assert!(plain.contains("HP"), "{plain}");
    }

    #[test]
    fn a_terminal_table_colours_a_bar_per_known_hit_points_and_keeps_the_columns() {
        let s = state();
        let plain = render_styled(&s, Style::default());
        let coloured = render_styled(
            &s,
            Style {
                colour: true,
                width: None,
            },
        );
        let known = s.combatants.iter().filter(|c| c.hp.is_some()).count();
        let barred: Vec<&str> = coloured
            .lines()
            .filter(|row| row.contains('█') || row.contains('░'))
            .collect();
        assert_eq!(barred.len(), known, "a bar for each known hit points");
        for row in &barred {
            assert!(row.contains("\x1b[3") && row.contains("\x1b[0m"), "{row:?}");
        }
        assert!(coloured.contains('█') || coloured.contains('░'));
        // Without the escapes, every row still starts its columns where the header does.
        let head = visible(coloured.lines().nth(1).expect("the column heads"));
        let status_at = head.find("STATUS").expect("STATUS");
        for row in coloured.lines().skip(2).take(s.combatants.len()) {
            let row = visible(row);
            let before: String = row.chars().take(status_at).collect();
            assert!(before.ends_with("  "), "{row}");
        }
        assert_eq!(
            plain.lines().count(),
            coloured.lines().count(),
            "one line per row either way"
        );
    }

    #[test]
    fn a_table_fits_the_terminal_width() {
        let s = state();
        let cut = render_styled(
            &s,
            Style {
                colour: true,
                width: Some(40),
            },
        );
        for line in cut.lines().skip(1).take(s.combatants.len() + 1) {
            let shown = visible(line);
            assert!(shown.chars().count() <= 40, "{shown}");
        }
        assert!(cut.contains('…'), "{cut}");
    }
}
