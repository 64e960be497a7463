//! The JSON Schema of the JSON protocol (feature `schema`): one document describing
//! [`ClientMessage`] and [`ServerMessage`] and every type they reach, under `$defs`. It is
//! checked in as `sdk/schema/fray-protocol.schema.json` (written by the `fray-schema` binary) and
//! the TypeScript types `sdk/src/protocol.ts` are generated from it.
//!
//! What the document describes, and why:
//! - **Client messages as the server reads them** (schemars' deserialize contract): a field with
//!   `#[serde(default)]`, or of an `Option` type, may be left out.
//! - **Server messages as the server writes them** (the serialize contract): every field is
//!   there, an absent `Option` as `null`. Where a type is reached from both sides (`Command`,
//!   through `LegalAction`) the lenient reading form is kept: every message the server writes
//!   still validates, and [`document`] checks that the two forms differ only in that.
//! - **`Command` and `GameEvent` flat**, as their JSON is: one of the common part's variants or
//!   of a family enum's (`ThirteenthAgeCommand`, `OrcusCommand`, …), never
//!   `{"orcus":{…}}` ([`flatten_families`]).
//! - **`JsonPatch` as its JSON form**: an array of RFC 6902 `add`/`remove`/`replace`
//!   operations (in bincode it is a string; no schema covers bincode).
//!
//! Not described: serde aliases that the server also accepts on input (`ArmorType`'s
//! `unarmored`/`light`/`heavy`, `Terrain`'s `woods`/`broken`/`city`), and a unit variant
//! written as `{"name": null}` (accepted, never written): the schema names the canonical form.

use crate::message::{ClientMessage, ServerMessage};
use crate::namespace::Family;
use crate::view::JsonPatch;
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The command that regenerates the checked-in schema (named in the document).
pub const GENERATOR_COMMAND: &str =
    "cargo run -p fray-protocol --features schema --bin fray-schema -- sdk/schema";

/// Path of the checked-in schema, relative to the repository root.
pub const SCHEMA_PATH: &str = "sdk/schema/fray-protocol.schema.json";

/// The `$defs` name of a type in the document.
pub fn def_name<T: JsonSchema>() -> Cow<'static, str> {
    T::schema_name()
}

/// Schemars transform for the namespaced enums (`#[schemars(transform = …)]` on `Command` and
/// `GameEvent`): the derived schema has one `oneOf` entry per variant, the family wrappers as
/// `{"orcus": <OrcusCommand>}`; their JSON is the inner enum's alone, so each wrapper's entry
/// becomes the inner enum's schema (a `$ref`). Variant names are unique across the enums (a
/// test in `namespace` checks), so exactly one entry matches any value.
pub fn flatten_families(schema: &mut Schema) {
    let wrappers = Family::ALL.map(Family::name);
    let Some(Value::Array(variants)) = schema.get_mut("oneOf") else {
        return;
    };
    for variant in variants.iter_mut() {
        let Some(properties) = variant.get("properties").and_then(Value::as_object) else {
            continue;
        };
        if properties.len() != 1 {
            continue;
        }
        if let Some((name, inner)) = properties.iter().next()
            && wrappers.contains(&name.as_str())
        {
            *variant = inner.clone();
        }
    }
}

impl JsonSchema for JsonPatch {
    fn schema_name() -> Cow<'static, str> {
        "JsonPatch".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let op = generator.subschema_for::<JsonPatchOperation>();
        json_schema!({
            "description": "An RFC 6902 JSON Patch (JSON form): operations applied in order to the view's JSON. The server uses only `add`, `remove` and `replace`, with RFC 6901 paths (`/combatants/3/hp`).",
            "type": "array",
            "items": op,
        })
    }
}

/// One operation of a [`JsonPatch`], for the schema only.
struct JsonPatchOperation;

impl JsonSchema for JsonPatchOperation {
    fn schema_name() -> Cow<'static, str> {
        "JsonPatchOperation".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let path = json_schema!({
            "description": "An RFC 6901 JSON Pointer into the view.",
            "type": "string",
        });
        let op = |name: &str, description: &str, with_value: bool| {
            let mut properties = Map::new();
            properties.insert("op".into(), json_schema!({ "const": name }).into());
            properties.insert("path".into(), path.clone().into());
            let mut required = vec![Value::from("op"), Value::from("path")];
            if with_value {
                properties.insert(
                    "value".into(),
                    json_schema!({ "description": "Any JSON value." }).into(),
                );
                required.push("value".into());
            }
            json_schema!({
                "description": description,
                "type": "object",
                "properties": properties,
                "required": required,
                "additionalProperties": false,
            })
        };
        json_schema!({
            "oneOf": [
                op("add", "Insert `value` at `path` (into an array: before the index; `-`: at the end).", true),
                op("remove", "Remove the value at `path`.", false),
                op("replace", "Replace the value at `path` with `value`.", true),
            ]
        })
    }
}

/// Why the schema could not be built.
#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    /// A type's reading and writing forms differ by more than optional fields.
    #[error(
        "the `{0}` of client messages (read) and of server messages (written) differ by more than which fields may be left out"
    )]
    ContractsDiffer(String),
    /// Two types share a schema name.
    #[error("two types share the schema name `{0}`: rename one with #[schemars(rename = …)]")]
    NameClash(String),
}

/// The schema document: `ClientMessage` (as read) and `ServerMessage` (as written) and every
/// type they reach under `$defs`; the root accepts a frame of either.
pub fn document() -> Result<Value, SchemaError> {
    let settings = SchemaSettings::draft2020_12();
    let mut read = settings.clone().for_deserialize().into_generator();
    read.subschema_for::<ClientMessage>();
    let mut written = settings.for_serialize().into_generator();
    written.subschema_for::<ServerMessage>();
    let mut defs = read.take_definitions(true);
    for (name, schema) in written.take_definitions(true) {
        clash_check(&name, &defs)?;
        match defs.get(&name) {
            None => {
                defs.insert(name, schema);
            }
            Some(lenient) if *lenient == schema => {}
            Some(lenient) => {
                if !only_optionality_differs(lenient, &schema) {
                    return Err(SchemaError::ContractsDiffer(name));
                }
            }
        }
    }
    for name in defs.keys() {
        clash_check(name, &defs)?;
    }
    let client = def_name::<ClientMessage>();
    let server = def_name::<ServerMessage>();
    Ok(serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "FrayProtocol",
        "description": format!(
            "The Fray JSON protocol (subprotocol `fray.v1.json`, protocol version {}): a frame is a `ClientMessage` (client to server) or a `ServerMessage` (server to client). Generated from the Rust types of `fray-protocol` by `{GENERATOR_COMMAND}`; do not edit.",
            crate::PROTOCOL_VERSION
        ),
        "anyOf": [
            { "$ref": format!("#/$defs/{client}") },
            { "$ref": format!("#/$defs/{server}") },
        ],
        "$defs": defs,
    }))
}

/// The document as the checked-in file holds it: pretty JSON and a final newline.
pub fn document_text() -> Result<String, SchemaError> {
    let doc = document()?;
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    Ok(text)
}

/// Schemars names a second type of the same name `Name2`: refuse, so that every name in the
/// document is a Rust type's own.
fn clash_check(name: &str, defs: &Map<String, Value>) -> Result<(), SchemaError> {
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit());
    if base != name && defs.contains_key(base) {
        return Err(SchemaError::NameClash(base.to_owned()));
    }
    Ok(())
}

/// Whether `lenient` (read form) is `strict` (written form) but for `required` lists that are
/// subsets and `default` annotations: then every value the strict form accepts, it accepts.
fn only_optionality_differs(lenient: &Value, strict: &Value) -> bool {
    match (lenient, strict) {
        (Value::Object(l), Value::Object(s)) => {
            let annotation = |k: &String| k == "default" || k == "required";
            let keys = |m: &Map<String, Value>| -> Vec<String> {
                m.keys().filter(|k| !annotation(k)).cloned().collect()
            };
            let required = |m: &Map<String, Value>| -> Vec<Value> {
                match m.get("required") {
                    Some(Value::Array(r)) => r.clone(),
                    _ => Vec::new(),
                }
            };
            let strict_required = required(s);
            keys(l) == keys(s)
                && required(l).iter().all(|r| strict_required.contains(r))
                && l.iter()
                    .filter(|(k, _)| !annotation(k))
                    .all(|(k, lv)| s.get(k).is_some_and(|sv| only_optionality_differs(lv, sv)))
        }
        (Value::Array(l), Value::Array(s)) => {
            l.len() == s.len() && l.iter().zip(s).all(|(a, b)| only_optionality_differs(a, b))
        }
        _ => lenient == strict,
    }
}
