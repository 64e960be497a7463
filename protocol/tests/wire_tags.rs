//! The wire tags of every command and event: listed in `protocol/README.md` ("Wire tags"),
//! frozen in `tests/compat/wire-tags.txt` — a released tag never changes; new variants only
//! append (see `src/namespace.rs`).

use fray_protocol::namespace::{wire_tag_lines, wire_tag_rows};
use fray_protocol::{Command, GameEvent};
use std::collections::{BTreeSet, HashSet};
use std::path::Path;

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn current_lines() -> Vec<String> {
    let mut lines = wire_tag_lines("command", &Command::wire_tags());
    lines.extend(wire_tag_lines("event", &GameEvent::wire_tags()));
    lines
}

#[test]
fn the_readme_lists_every_wire_tag_as_the_types_define_them() {
    let mut rows = wire_tag_rows("command", &Command::wire_tags());
    rows.extend(wire_tag_rows("event", &GameEvent::wire_tags()));
    let expected = rows.join("\n");
    let readme = std::fs::read_to_string(manifest().join("README.md")).expect("README.md");
    let begin = "<!-- wire-tags:begin -->\n";
    let end = "\n<!-- wire-tags:end -->";
    let (Some(a), Some(b)) = (readme.find(begin), readme.find(end)) else {
        panic!("README.md has no wire-tags markers; the table is:\n{expected}");
    };
    let listed = readme[a + begin.len()..b]
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| enum") && !l.starts_with("|---"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        listed, expected,
        "README.md's wire tags differ from the types; the table is:\n{expected}"
    );
}

#[test]
fn every_frozen_wire_tag_still_names_the_same_variant() {
    let path = manifest().join("../tests/compat/wire-tags.txt");
    let frozen = std::fs::read_to_string(&path).expect("tests/compat/wire-tags.txt");
    let current: HashSet<String> = current_lines().into_iter().collect();
    let mut missing = Vec::new();
    for line in frozen
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        if !current.contains(line) {
            missing.push(line.to_owned());
        }
    }
    assert!(
        missing.is_empty(),
        "released wire tags changed (recorded logs would no longer read): {missing:#?}\n\
         Append new variants at the end of their own enum instead."
    );
}

#[test]
fn every_current_wire_tag_is_frozen() {
    // A new variant's tag is released with the build that adds it: append its line.
    let path = manifest().join("../tests/compat/wire-tags.txt");
    let frozen = std::fs::read_to_string(&path).expect("tests/compat/wire-tags.txt");
    let frozen: HashSet<&str> = frozen.lines().collect();
    let new: Vec<String> = current_lines()
        .into_iter()
        .filter(|l| !frozen.contains(l.as_str()))
        .collect();
    assert!(
        new.is_empty(),
        "append these lines to tests/compat/wire-tags.txt:\n{}",
        new.join("\n")
    );
}

#[test]
fn a_json_name_belongs_to_exactly_one_enum() {
    for (what, tags) in [
        ("command", Command::wire_tags()),
        ("event", GameEvent::wire_tags()),
    ] {
        let wrappers: BTreeSet<&str> = tags.iter().skip(1).map(|(f, _)| *f).collect();
        let mut seen = HashSet::new();
        for (_, names) in &tags {
            for n in names.iter().filter(|n| !wrappers.contains(*n)) {
                assert!(seen.insert(*n), "{what} name `{n}` is in two enums");
            }
        }
        let json = match what {
            "command" => Command::json_names().len(),
            _ => GameEvent::json_names().len(),
        };
        assert_eq!(json, seen.len(), "{what}: every name decodes");
    }
}
