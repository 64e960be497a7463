//! The JSON Schema (`fray_protocol::schema`, checked in as `sdk/schema/fray-protocol.schema.json`)
//! against the protocol's real JSON: every example of `protocol/README.md` validates, wrong
//! messages do not, the namespaced enums are described flat, and the checked-in file is the one
//! the generator writes now.

use fray_protocol::schema::{GENERATOR_COMMAND, SCHEMA_PATH, document, document_text};
use fray_protocol::{
    ClientMessage, CombatantId, Command, GameEvent, JsonPatch, LegalAction, OrcusCommand,
    ServerMessage,
};
use jsonschema::Validator;
use serde_json::{Value, json};
use std::collections::BTreeSet;

mod support;
use support::{README, table_examples};

fn doc() -> Value {
    document().unwrap_or_else(|e| panic!("{e}"))
}

/// A validator for one type of the document (`#/$defs/<name>`).
fn validator(doc: &Value, name: &str) -> Validator {
    let schema = json!({
        "$schema": doc["$schema"],
        "$ref": format!("#/$defs/{name}"),
        "$defs": doc["$defs"],
    });
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn assert_valid(v: &Validator, what: &str, json: &str) {
    let value: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    let errors: Vec<String> = v
        .iter_errors(&value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what} {json}:\n{}", errors.join("\n"));
}

fn assert_invalid(v: &Validator, what: &str, value: Value) {
    assert!(
        !v.is_valid(&value),
        "{what} validates but must not: {value}"
    );
}

#[test]
fn readme_example_frames_validate() {
    let doc = doc();
    let (client, server) = (
        validator(&doc, "ClientMessage"),
        validator(&doc, "ServerMessage"),
    );
    let lines: Vec<&str> = README.lines().collect();
    let mut checked = 0;
    for (i, line) in lines.iter().enumerate() {
        let what = format!("README line {}", i + 1);
        if let Some(json) = line.strip_prefix("C ") {
            // The frame the example itself calls broken is not JSON at all.
            if serde_json::from_str::<Value>(json).is_err() {
                let next = lines.get(i + 1).copied().unwrap_or("");
                assert!(next.contains("\"malformed_frame\""), "{what}: {json}");
                continue;
            }
            assert_valid(&client, &what, json);
            assert!(!server.is_valid(&serde_json::from_str(json).unwrap_or(Value::Null)));
            checked += 1;
        } else if let Some(json) = line.strip_prefix("S ") {
            assert_valid(&server, &what, json);
            checked += 1;
        }
    }
    assert!(checked > 30, "only {checked} example frames found");
}

#[test]
fn readme_table_examples_validate() {
    let doc = doc();
    let (command, event) = (validator(&doc, "Command"), validator(&doc, "GameEvent"));
    let mut checked = 0;
    for section in [
        "### Commands",
        "### Orcus commands",
        "### Five Torches Deep commands",
        "### Old-School Essentials commands",
        "### Basic Fantasy commands",
    ] {
        for json in table_examples(section) {
            assert_valid(&command, section, &json);
            checked += 1;
        }
    }
    // Events are described as the server writes them (every field there); a table example may
    // leave out a defaulted field, so what is checked is the event as the server writes it, and
    // that the example differs from it only by fields left out.
    let mut shortened = Vec::new();
    for section in [
        "### Game events (13th Age)",
        "### Orcus events",
        "### Five Torches Deep events",
        "### Old-School Essentials events",
        "### Basic Fantasy events",
    ] {
        for json in table_examples(section) {
            let example: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
            let decoded: GameEvent =
                serde_json::from_value(example.clone()).unwrap_or_else(|e| panic!("{e}: {json}"));
            let written = serde_json::to_value(&decoded).unwrap_or_default();
            assert_valid(&event, section, &written.to_string());
            if !event.is_valid(&example) {
                assert!(
                    leaves_out_only(&example, &written),
                    "{section}: {json} is invalid, and not only by fields left out"
                );
                shortened.push(json);
            }
            checked += 1;
        }
    }
    // Today one example leaves out a field (Orcus `rider_attached`: `aftereffect_damage`).
    assert!(shortened.len() <= 3, "{shortened:#?}");
    // The counts `tests/readme_examples.rs` pins, plus at least 20 13th Age events.
    assert!(
        checked >= 30 + 36 + 27 + 26 + 9 + 20 + 30 + 25 + 29 + 10,
        "{checked}"
    );
}

/// Whether `short` is `full` with some object fields left out (and nothing else changed).
fn leaves_out_only(short: &Value, full: &Value) -> bool {
    match (short, full) {
        (Value::Object(s), Value::Object(f)) => s
            .iter()
            .all(|(k, v)| f.get(k).is_some_and(|fv| leaves_out_only(v, fv))),
        (Value::Array(s), Value::Array(f)) => {
            s.len() == f.len() && s.iter().zip(f).all(|(a, b)| leaves_out_only(a, b))
        }
        _ => short == full,
    }
}

#[test]
fn wrong_messages_do_not_validate() {
    let doc = doc();
    let (client, server) = (
        validator(&doc, "ClientMessage"),
        validator(&doc, "ServerMessage"),
    );
    let command = |c: Value| json!({"command": {"id": 1, "command": c}});
    // The shapes right, as a baseline.
    assert!(client.is_valid(&command(json!({"end_turn": {"actor": "vex"}}))));
    assert!(client.is_valid(&command(
        json!({"ready_counter": {"actor": "vex", "power": "riposte"}})
    )));
    for (what, wrong) in [
        (
            "an unknown command",
            command(json!({"fly": {"actor": "vex"}})),
        ),
        ("an unknown unit command", command(json!("fly"))),
        (
            "a family command nested in its family",
            command(json!({"orcus": {"ready_counter": {"actor": "vex", "power": "riposte"}}})),
        ),
        (
            "a command missing a required field",
            command(json!({"end_turn": {}})),
        ),
        (
            "a command of two keys",
            command(json!({"end_turn": {"actor": "vex"}, "rally": {"actor": "vex"}})),
        ),
        (
            "a field of the wrong type",
            command(json!({"end_turn": {"actor": 7}})),
        ),
        (
            "a message missing its id",
            json!({"command": {"command": "start_battle"}}),
        ),
        ("an unknown message", json!({"subscribe": {}})),
    ] {
        assert_invalid(&client, what, wrong);
    }
    for (what, wrong) in [
        (
            "an unknown error code",
            json!({"error": {"code": "not_a_code", "message": "x"}}),
        ),
        (
            "an event nested in its family",
            json!({"event": {"seq": 1, "tick": 1, "event": {"orcus": {"round_started": {"round": 1}}}}}),
        ),
        (
            // Server messages are described as written: every field there.
            "a server message missing a field",
            json!({"accepted": {"command_id": 1, "first_seq": 1}}),
        ),
        (
            "a patch operation the server does not use",
            json!({"view_patch": {"from_seq": 1, "seq": 2, "patch": [{"op": "move", "from": "/a", "path": "/b"}]}}),
        ),
        (
            "a patch given as text (its bincode form)",
            json!({"view_patch": {"from_seq": 1, "seq": 2, "patch": "[]"}}),
        ),
    ] {
        assert_invalid(&server, what, wrong);
    }
}

#[test]
fn messages_the_server_writes_validate() {
    let doc = doc();
    let server = validator(&doc, "ServerMessage");
    let from = json!({"round": 1, "combatants": [{"id": "vex", "hp": 20}, {"id": "orin"}]});
    let to = json!({"round": 2, "combatants": [{"id": "vex", "hp": 13}], "current": "vex"});
    let actions = vec![
        LegalAction {
            actor: Some(CombatantId::new("vex")),
            group: "Charge".into(),
            label: "Orc".into(),
            command: Command::Orcus(OrcusCommand::Charge {
                actor: CombatantId::new("vex"),
                target: CombatantId::new("orc"),
                path: Vec::new(),
            }),
        },
        LegalAction {
            actor: None,
            group: "End battle".into(),
            label: String::new(),
            command: Command::EndBattle,
        },
    ];
    for msg in [
        ServerMessage::ViewPatch {
            from_seq: 4,
            seq: 9,
            patch: JsonPatch::diff(&from, &to),
        },
        ServerMessage::LegalActions { seq: 9, actions },
        ServerMessage::Event {
            seq: 3,
            tick: 2,
            event: GameEvent::BattleStarted,
        },
    ] {
        let json = serde_json::to_string(&msg).unwrap_or_default();
        assert_valid(&server, "written", &json);
    }
}

/// Every name a `Command` or `GameEvent` can have in JSON, as the schema lists them.
fn schema_names(doc: &Value, name: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let Some(variants) = doc["$defs"][name]["oneOf"].as_array() else {
        panic!("{name} is not a oneOf");
    };
    for v in variants {
        if let Some(target) = v["$ref"].as_str() {
            let inner = target.trim_start_matches("#/$defs/");
            names.extend(schema_names(doc, inner));
        } else if let Some(c) = v["const"].as_str() {
            names.insert(c.to_owned());
        } else if let Some(list) = v["enum"].as_array() {
            names.extend(list.iter().filter_map(Value::as_str).map(str::to_owned));
        } else if let Some(props) = v["properties"].as_object() {
            assert_eq!(props.len(), 1, "{name}: {v}");
            names.extend(props.keys().cloned());
        } else {
            panic!("{name}: unexpected variant schema {v}");
        }
    }
    names
}

#[test]
fn namespaced_enums_are_described_flat() {
    let doc = doc();
    for (name, families, json_names) in [
        (
            "Command",
            [
                "ThirteenthAgeCommand",
                "OrcusCommand",
                "FiveTorchesCommand",
                "BxCommand",
            ],
            Command::json_names(),
        ),
        (
            "GameEvent",
            [
                "ThirteenthAgeEvent",
                "OrcusEvent",
                "FiveTorchesEvent",
                "BxEvent",
            ],
            GameEvent::json_names(),
        ),
    ] {
        let refs: Vec<&str> = doc["$defs"][name]["oneOf"]
            .as_array()
            .map(|v| v.iter().filter_map(|s| s["$ref"].as_str()).collect())
            .unwrap_or_default();
        let expected: Vec<String> = families.iter().map(|f| format!("#/$defs/{f}")).collect();
        assert_eq!(refs, expected, "{name}: the family enums, in wire order");
        let in_schema = schema_names(&doc, name);
        let in_rust: BTreeSet<String> = json_names.iter().map(|(n, _)| (*n).to_owned()).collect();
        assert_eq!(in_schema, in_rust, "{name}: the flat JSON names");
        for wrapper in ["thirteenth_age", "orcus", "five_torches", "bx"] {
            assert!(!in_schema.contains(wrapper), "{name} still has `{wrapper}`");
        }
    }
}

#[test]
fn the_main_types_are_named() {
    let doc = doc();
    for name in [
        "ClientMessage",
        "ServerMessage",
        "Command",
        "GameEvent",
        "SessionState",
        "CombatantState",
        "LegalAction",
        "Role",
        "ErrorCode",
        "JsonPatch",
    ] {
        assert!(doc["$defs"][name].is_object(), "no $defs/{name}");
    }
    // ErrorCode is the snake_case strings its serde form writes.
    let codes = validator(&doc, "ErrorCode");
    for code in [
        fray_protocol::ErrorCode::NotYourTurn,
        fray_protocol::ErrorCode::WrongRuleset,
    ] {
        let value = serde_json::to_value(code).unwrap_or_default();
        assert!(value.is_string() && codes.is_valid(&value), "{value}");
    }
    assert!(!codes.is_valid(&json!("NotYourTurn")));
}

#[test]
fn client_messages_may_leave_out_defaulted_fields_server_messages_may_not() {
    let doc = doc();
    let client = validator(&doc, "ClientMessage");
    // `resume_from` is an Option: the server reads a hello without it.
    let hello = json!({"hello": {"protocol": 1, "token": "t"}});
    assert!(serde_json::from_value::<ClientMessage>(hello.clone()).is_ok());
    assert!(client.is_valid(&hello));
    // `mode`, `knock_out`, `forced`, … have defaults.
    let attack = json!({"command": {"id": 1, "command": {"attack": {"actor": "a", "attack": "x", "targets": ["b"]}}}});
    assert!(serde_json::from_value::<ClientMessage>(attack.clone()).is_ok());
    assert!(client.is_valid(&attack));
    // A snapshot's state is written whole: `SessionState.clock` (a serde default) is required.
    let required = doc["$defs"]["SessionState"]["required"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(required.contains(&json!("clock")), "{required:?}");
    assert!(required.contains(&json!("winner")), "{required:?}");
}

#[test]
fn the_checked_in_schema_is_current() {
    let path = format!("{}/../{SCHEMA_PATH}", env!("CARGO_MANIFEST_DIR"));
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let now = document_text().unwrap_or_else(|e| panic!("{e}"));
    assert!(
        committed == now,
        "{SCHEMA_PATH} is not what the protocol types describe now: regenerate it with \
         `{GENERATOR_COMMAND}` (then `npm --prefix sdk run generate` for sdk/src/protocol.ts)"
    );
}
