//! Keeps `protocol/README.md` exact: every example frame in its `text` blocks decodes as the
//! message it claims to be, and every JSON example in its command and event tables decodes as
//! a `Command` or a `GameEvent`.

use fray_protocol::codec::{Encoding, decode_client, decode_server};
use fray_protocol::{ClientMessage, Command, GameEvent, ServerMessage};

mod support;
use support::{README, table_examples};

#[test]
fn example_frames_decode() {
    let mut checked = 0;
    let lines: Vec<&str> = README.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if let Some(json) = line.strip_prefix("C ") {
            match decode_client::<ClientMessage>(json.as_bytes(), Encoding::Json) {
                Ok(_) => checked += 1,
                Err(e) => {
                    // Only a frame the example itself calls broken may fail, and the server
                    // must answer it with malformed_frame.
                    let next = lines.get(i + 1).copied().unwrap_or("");
                    assert!(
                        next.contains("\"malformed_frame\""),
                        "line {}: {e}: {json}",
                        i + 1
                    );
                }
            }
        } else if let Some(json) = line.strip_prefix("S ") {
            decode_server::<ServerMessage>(json.as_bytes(), Encoding::Json)
                .unwrap_or_else(|e| panic!("line {}: {e}: {json}", i + 1));
            checked += 1;
        }
    }
    assert!(checked > 30, "only {checked} example frames found");
}

#[test]
fn command_table_examples_decode() {
    let examples = table_examples("### Commands");
    assert_eq!(examples.len(), 30);
    for json in examples {
        serde_json::from_str::<Command>(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    }
}

#[test]
fn orcus_table_examples_decode() {
    let commands = table_examples("### Orcus commands");
    assert_eq!(commands.len(), 37);
    for json in commands {
        serde_json::from_str::<Command>(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    }
    let events = table_examples("### Orcus events");
    assert_eq!(events.len(), 32);
    for json in events {
        serde_json::from_str::<GameEvent>(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    }
}

#[test]
fn five_torches_deep_table_examples_decode() {
    let commands = table_examples("### Five Torches Deep commands");
    assert_eq!(commands.len(), 33);
    for json in commands {
        serde_json::from_str::<Command>(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    }
    let events = table_examples("### Five Torches Deep events");
    assert_eq!(events.len(), 27);
    for json in events {
        serde_json::from_str::<GameEvent>(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    }
}

#[test]
fn old_school_essentials_table_examples_decode() {
    let commands = table_examples("### Old-School Essentials commands");
    assert_eq!(commands.len(), 28);
    for json in commands {
        serde_json::from_str::<Command>(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    }
    let events = table_examples("### Old-School Essentials events");
    assert_eq!(events.len(), 30);
    for json in events {
        serde_json::from_str::<GameEvent>(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    }
}

#[test]
fn event_table_examples_decode() {
    let examples = table_examples("### Game events (13th Age)");
    assert!(examples.len() >= 20, "{}", examples.len());
    for json in examples {
        serde_json::from_str::<GameEvent>(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    }
}

#[test]
fn basic_fantasy_table_examples_decode() {
    let commands = table_examples("### Basic Fantasy commands");
    assert_eq!(commands.len(), 10);
    for json in commands {
        serde_json::from_str::<Command>(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    }
    let events = table_examples("### Basic Fantasy events");
    assert_eq!(events.len(), 11);
    for json in events {
        serde_json::from_str::<GameEvent>(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    }
}

#[test]
fn gm_tools_table_examples_decode() {
    let examples = table_examples(
        "### GM tools: rewind, overrides, chat, free rolls, the server's own play and seats",
    );
    assert_eq!(examples.len(), 26);
    for json in &examples[..15] {
        serde_json::from_str::<Command>(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    }
    for json in &examples[15..] {
        serde_json::from_str::<GameEvent>(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    }
}
