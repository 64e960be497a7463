//! The help of `fray play`, per ruleset. The entries are those of `input::HELP` (the rules'
//! verbs), `grid_input::HELP` (Orcus's grid) and `talk::HELP` (table talk and the GM's tools,
//! every ruleset); each gets the rulesets whose sessions take it, so that `help` lists only the
//! session's own verbs and the shared ones, and `help VERB` shows one verb.

/// Ruleset ids (the server's registry names them the same).
const THIRTEENTH_AGE: &str = "13th-age";
const ORCUS: &str = "orcus";
const FIVE_TORCHES: &str = "five-torches-deep";
const OSE: &str = "ose";
const BASIC_FANTASY: &str = "basic-fantasy";
const ALL: &[&str] = &[THIRTEENTH_AGE, ORCUS, FIVE_TORCHES, OSE, BASIC_FANTASY];

/// Where an entry comes from: its help text and, inside `input::HELP`, its heading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    /// `input::HELP`'s first part: the shared verbs and 13th Age's and Orcus's own.
    Rules,
    /// `input::HELP`'s "Five Torches Deep:" part.
    FiveTorches,
    /// `input::HELP`'s "Old-School Essentials:" part (OSE and Basic Fantasy alike).
    Bx,
    /// `grid_input::HELP`: the Orcus grid.
    Grid,
    /// `talk::HELP`: table talk and the GM's tools, every ruleset.
    Talk,
}

/// One entry: its lines as the help prints them, and the verbs that call it.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The lines, the first one with the usage.
    pub text: String,
    /// The verb and its aliases (`end | e`): empty for `ATTACK TARGET...`.
    pub verbs: Vec<&'static str>,
    usage_first: &'static str,
    section: Section,
}

impl Entry {
    /// The rulesets whose sessions take this entry's verb.
    pub fn rulesets(&self) -> &'static [&'static str] {
        match self.section {
            Section::Talk => ALL,
            Section::Grid => &[ORCUS],
            Section::FiveTorches => &[FIVE_TORCHES],
            Section::Bx if self.text.contains("GM (OSE)") => &[OSE],
            Section::Bx if self.text.contains("Basic Fantasy") => &[BASIC_FANTASY],
            Section::Bx => &[OSE, BASIC_FANTASY],
            Section::Rules => rules_section(self),
        }
    }
}

/// The first part of `input::HELP`: the Orcus entries say so; the rest is told by verb, from
/// which rulesets' decide take the command it sends.
fn rules_section(e: &Entry) -> &'static [&'static str] {
    let description = e
        .text
        .lines()
        .next()
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .nth(1)
        })
        .unwrap_or_default()
        .or_else(|| e.text.lines().nth(1).map(str::trim))
        .unwrap_or("");
    if description.starts_with("Orcus") || description.starts_with("GM (Orcus)") {
        return &[ORCUS];
    }
    if e.usage_first.starts_with(|c: char| c.is_ascii_uppercase()) {
        return ALL; // `ATTACK TARGET...`
    }
    match e.usage_first {
        "attack" | "ko" | "end" | "start" | "state" | "menu" | "help" | "quit" => ALL,
        "move" => &[THIRTEENTH_AGE, FIVE_TORCHES],
        "stabilize" | "end-session" | "next-battle" => &[THIRTEENTH_AGE, ORCUS, FIVE_TORCHES],
        "ready" | "rally" | "letgo" | "temp" | "rest" | "healup" | "oa" => &[THIRTEENTH_AGE, ORCUS],
        _ => &[THIRTEENTH_AGE],
    }
}

/// Every entry of the three help texts, in their order: split once, then kept (the completion
/// words are rebuilt from them at every view, and the menu asks them for each hint).
pub fn entries() -> &'static [Entry] {
    static ENTRIES: std::sync::OnceLock<Vec<Entry>> = std::sync::OnceLock::new();
    ENTRIES.get_or_init(|| {
        let mut out = Vec::new();
        split(crate::input::HELP, Section::Rules, &mut out);
        split(crate::grid_input::HELP, Section::Grid, &mut out);
        split(crate::talk::HELP, Section::Talk, &mut out);
        out
    })
}

/// Splits a help text into entries: an entry starts on a line indented by two spaces, and the
/// lines indented further continue it; an unindented line ending in `:` is a heading.
fn split(text: &'static str, first: Section, out: &mut Vec<Entry>) {
    let mut section = first;
    for line in text.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            section = match line {
                l if l.starts_with("Five Torches Deep") => Section::FiveTorches,
                l if l.starts_with("Old-School Essentials") => Section::Bx,
                _ => section,
            };
            continue;
        }
        // A text's first line lost its indentation to the string's leading `\`.
        let entry = line.strip_prefix("  ").unwrap_or(line);
        match entry {
            entry if !entry.starts_with(' ') => {
                let usage = entry.split("  ").next().unwrap_or("");
                out.push(Entry {
                    text: format!("  {entry}"),
                    verbs: verbs_of(usage),
                    usage_first: usage.split_whitespace().next().unwrap_or(""),
                    section,
                });
            }
            _ => {
                if let Some(last) = out.last_mut() {
                    last.text.push('\n');
                    last.text.push_str(line);
                }
            }
        }
    }
}

/// The verbs a usage names: its first word, the `|` alternatives of it (`end | e`,
/// `fly|climb|swim|burrow`), lower-case words only.
fn verbs_of(usage: &'static str) -> Vec<&'static str> {
    let words: Vec<&str> = usage.split_whitespace().collect();
    let mut verbs = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let alias = i == 0 || (i >= 2 && words[i - 1] == "|" && verbs.len() == (i / 2));
        if alias
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || c == '-' || c == '|')
        {
            verbs.extend(w.split('|').filter(|v| !v.is_empty()));
        }
    }
    verbs
}

/// Every verb of the help, sorted (for "did you mean").
pub fn all_verbs() -> Vec<&'static str> {
    let mut verbs: Vec<&'static str> = entries()
        .iter()
        .flat_map(|e| e.verbs.iter().copied())
        .collect();
    verbs.sort_unstable();
    verbs.dedup();
    verbs
}

/// Whether a session of `ruleset` takes `verb`.
pub fn has_verb(ruleset: &str, verb: &str) -> bool {
    entries()
        .iter()
        .any(|e| e.verbs.contains(&verb) && e.rulesets().contains(&ruleset))
}

/// `help`: the entries of this ruleset's sessions (the shared ones included).
pub fn for_ruleset(ruleset: &str) -> String {
    let mut out = format!("Commands of this session ({ruleset}; case-insensitive):\n");
    let mut talk = false;
    for e in entries().iter().filter(|e| e.rulesets().contains(&ruleset)) {
        if e.section == Section::Talk && !talk {
            out.push_str("Table talk and the GM's tools:\n");
            talk = true;
        }
        out.push_str(&e.text);
        out.push('\n');
    }
    out.push_str("`help VERB` shows one command.");
    out
}

/// `help VERB`: that verb's entries in this ruleset, or where it belongs.
pub fn for_verb(ruleset: &str, verb: &str) -> String {
    let verb = verb.trim_start_matches('/').to_lowercase();
    let named: Vec<&Entry> = entries()
        .iter()
        .filter(|e| e.verbs.contains(&verb.as_str()))
        .collect();
    let here: Vec<&str> = named
        .iter()
        .filter(|e| e.rulesets().contains(&ruleset))
        .map(|e| e.text.as_str())
        .collect();
    if !here.is_empty() {
        return here.join("\n");
    }
    let elsewhere: Vec<&str> = named
        .iter()
        .flat_map(|e| e.rulesets().iter().copied())
        .collect();
    if elsewhere.is_empty() {
        format!("no command `{verb}`; `help` lists this session's commands")
    } else {
        format!(
            "`{verb}` is not a command of {ruleset} sessions (it is one of {})",
            elsewhere.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verbs_in(text: &str) -> Vec<String> {
        text.lines()
            .filter_map(|l| l.strip_prefix("  "))
            .filter(|l| !l.starts_with(' '))
            .filter_map(|l| l.split_whitespace().next())
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn an_orcus_session_lists_only_orcus_and_shared_verbs() {
        let help = for_ruleset(ORCUS);
        let verbs = verbs_in(&help);
        for v in [
            "attack",
            "walk",
            "area",
            "charge",
            "pass-time",
            "say",
            "sethp",
            "end",
        ] {
            assert!(verbs.iter().any(|x| x == v), "{v} missing:\n{help}");
        }
        // 13th Age's engagement moves and rallies by recovery, FTD's and OSE's verbs.
        for v in [
            "move",
            "disengage",
            "escalation",
            "potion",
            "retreat",
            "torch",
            "bx-move",
        ] {
            assert!(!verbs.iter().any(|x| x == v), "{v} listed:\n{help}");
        }
    }

    #[test]
    fn each_ruleset_gets_its_own_verbs_and_not_the_others() {
        let ose = verbs_in(&for_ruleset(OSE));
        assert!(ose.iter().any(|v| v == "bx-move"));
        assert!(ose.iter().any(|v| v == "bx-sail"), "GM (OSE)");
        assert!(!ose.iter().any(|v| v == "bx-candle"), "Basic Fantasy only");
        assert!(
            !ose.iter()
                .any(|v| v == "move" || v == "rally" || v == "walk")
        );
        let bf = verbs_in(&for_ruleset(BASIC_FANTASY));
        assert!(bf.iter().any(|v| v == "bx-candle") && bf.iter().any(|v| v == "bx-hire"));
        let ftd = verbs_in(&for_ruleset(FIVE_TORCHES));
        assert!(ftd.iter().any(|v| v == "retreat") && ftd.iter().any(|v| v == "move"));
        assert!(!ftd.iter().any(|v| v == "walk" || v == "bx-turn"));
        let age = verbs_in(&for_ruleset(THIRTEENTH_AGE));
        assert!(age.iter().any(|v| v == "escalation") && age.iter().any(|v| v == "move"));
        assert!(
            !age.iter()
                .any(|v| v == "walk" || v == "shove" || v == "retreat")
        );
        // Every entry belongs to at least one ruleset, so nothing of the help is lost.
        for e in entries() {
            assert!(!e.rulesets().is_empty(), "{}", e.text);
        }
    }

    #[test]
    fn help_verb_shows_one_entry_or_says_where_it_belongs() {
        let one = for_verb(THIRTEENTH_AGE, "rally");
        assert!(one.starts_with("  rally | r"), "{one}");
        assert_eq!(one.lines().count(), 1);
        let alias = for_verb(THIRTEENTH_AGE, "e");
        assert!(alias.contains("end the turn"), "{alias}");
        let wrong = for_verb(ORCUS, "escalation");
        assert!(wrong.contains("not a command of orcus sessions"), "{wrong}");
        assert!(wrong.contains("13th-age"), "{wrong}");
        let none = for_verb(ORCUS, "dance");
        assert!(none.starts_with("no command `dance`"), "{none}");
        assert!(for_verb(OSE, "/roll").contains("free public roll"));
    }

    #[test]
    fn aliases_are_verbs_and_placeholders_are_not() {
        assert_eq!(verbs_of("end | e"), vec!["end", "e"]);
        assert_eq!(verbs_of("move | m"), vec!["move", "m"]);
        assert_eq!(
            verbs_of("fly|climb|swim|burrow X,Y..."),
            vec!["fly", "climb", "swim", "burrow"]
        );
        assert_eq!(verbs_of("help | h | ?"), vec!["help", "h"]);
        assert_eq!(verbs_of("ready [standard|move]"), vec!["ready"]);
        assert!(verbs_of("ATTACK TARGET...").is_empty());
    }
}
