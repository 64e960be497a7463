//! Views and legal actions: what the server computes so that no client folds events or knows
//! the rules.
//!
//! A *view* is the state an audience may see (the GM's, or the public one players and
//! spectators get) in the JSON form of [`SessionState`](crate::SessionState). A watching
//! connection gets the full view once (a `snapshot`) and then, after every batch of events, a
//! [`JsonPatch`] from the view it has to the new one. *Legal actions* are the commands a seat
//! may send now, each complete and checked by the session's ruleset.

use crate::command::Command;
use crate::ids::CombatantId;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An RFC 6902 JSON Patch. The server's patches use only `add`, `remove` and `replace`, with
/// RFC 6901 paths into the view's JSON (`/combatants/3/hp`), applied in order.
///
/// In JSON it is the patch's array itself. In bincode (not self-describing, so a JSON value
/// cannot be carried as such) it is the patch's JSON text as a string.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JsonPatch(pub json_patch::Patch);

/// Why a patch could not be applied to a view (it was not the view the patch was made from).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the patch does not apply to this view: {0}")]
pub struct PatchError(pub String);

impl JsonPatch {
    /// The patch that turns `from` into `to`.
    pub fn diff(from: &serde_json::Value, to: &serde_json::Value) -> JsonPatch {
        JsonPatch(json_patch::diff(from, to))
    }

    /// Whether the patch changes nothing.
    pub fn is_empty(&self) -> bool {
        self.0.0.is_empty()
    }

    /// Number of operations.
    pub fn len(&self) -> usize {
        self.0.0.len()
    }

    /// Applies the patch to `view` in place. On an error `view` is left unchanged.
    pub fn apply(&self, view: &mut serde_json::Value) -> Result<(), PatchError> {
        json_patch::patch(view, &self.0).map_err(|e| PatchError(e.to_string()))
    }
}

impl Serialize for JsonPatch {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            self.0.serialize(serializer)
        } else {
            let text = serde_json::to_string(&self.0).map_err(serde::ser::Error::custom)?;
            serializer.serialize_str(&text)
        }
    }
}

impl<'de> Deserialize<'de> for JsonPatch {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            json_patch::Patch::deserialize(deserializer).map(JsonPatch)
        } else {
            let text = String::deserialize(deserializer)?;
            serde_json::from_str(&text)
                .map(JsonPatch)
                .map_err(serde::de::Error::custom)
        }
    }
}

/// One command a seat may send now, complete and checked: sent as it is, the ruleset accepts it
/// (unless something else happens first). A client shows `group` as a button and `label` as
/// the choice within it (a target, a square, an option).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LegalAction {
    /// The combatant the command acts for; `null` for the GM's session commands.
    pub actor: Option<CombatantId>,
    /// The action as a player names it: an attack's name, `Move`, `End turn`, …
    pub group: String,
    /// The choice within the group (a target's name, a square, an option); empty when the
    /// group has one choice.
    pub label: String,
    /// The command, ready to send.
    pub command: Command,
}

/// What a command would cover, as the session's ruleset computes it without deciding the
/// command (`preview`): no die is drawn, nothing is logged or changed. For an Orcus area power,
/// the area's squares after the ruleset's own line-of-effect and map-edge filtering — exactly
/// the squares the command would use; for a charge, its path.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CommandPreview {
    /// The squares of the command's area, in order of `x`, then `y` (empty: no area).
    pub squares: Vec<crate::grid::Square>,
    /// The squares the actor would walk, in order, its start left out (empty: no walk).
    pub path: Vec<crate::grid::Square>,
    /// The creatures it would affect, sorted by id: the creatures in the area its target rule
    /// takes (for a power whose targets the user chooses and the command names none, every
    /// creature in the area it could choose), or a charge's target.
    pub targets: Vec<CombatantId>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{Encoding, decode_server, encode};
    use crate::message::ServerMessage;
    use serde_json::json;

    fn patch_message() -> ServerMessage {
        let from = json!({"round": 1, "combatants": [{"id": "vex", "hp": 20}]});
        let to =
            json!({"round": 2, "combatants": [{"id": "vex", "hp": 13}, {"id": "orin", "hp": 9}]});
        ServerMessage::ViewPatch {
            from_seq: 4,
            seq: 9,
            patch: JsonPatch::diff(&from, &to),
        }
    }

    #[test]
    fn a_patch_turns_the_old_view_into_the_new_one() {
        let from = json!({"round": 1, "combatants": [{"id": "vex", "hp": 20}, {"id": "orin", "hp": 9}], "current": "vex"});
        let to = json!({"round": 2, "combatants": [{"id": "vex", "hp": 13}], "current": null});
        let p = JsonPatch::diff(&from, &to);
        let mut view = from.clone();
        assert_eq!(p.apply(&mut view), Ok(()));
        assert_eq!(view, to);
        assert!(JsonPatch::diff(&to, &to).is_empty());
    }

    #[test]
    fn a_patch_that_does_not_fit_the_view_is_an_error_and_leaves_it_unchanged() {
        let p = JsonPatch::diff(&json!({"a": [1, 2]}), &json!({"a": [1]}));
        let mut other = json!({"b": 1});
        assert!(p.apply(&mut other).is_err());
        assert_eq!(other, json!({"b": 1}));
    }

    #[test]
    fn a_patch_is_an_array_in_json_and_round_trips_in_both_encodings() {
        let msg = patch_message();
        let text = serde_json::to_value(&msg).unwrap_or_default();
        assert!(text["view_patch"]["patch"].is_array(), "{text}");
        assert_eq!(text["view_patch"]["patch"][0]["op"], "replace");
        for enc in [Encoding::Json, Encoding::Bincode] {
            let back = encode(&msg, enc)
                .and_then(|f| {
                    let bytes = match &f {
                        crate::codec::Frame::Text(t) => t.as_bytes().to_vec(),
                        crate::codec::Frame::Binary(b) => b.clone(),
                    };
                    decode_server::<ServerMessage>(&bytes, enc)
                })
                .map_err(|e| e.to_string());
            assert_eq!(back, Ok(msg.clone()), "{enc:?}");
        }
    }
}
