//! Record formats: how fields added to the protocol's types after a log format was released
//! stay readable (issue 21; `ARCHITECTURE.md`, "Recordings that survive upgrades").
//!
//! The log stores bincode, which is positional: a field added to an event, a stat block or the
//! state changes the bytes of every record that holds one, so a log written before the field
//! existed no longer decodes, and a state hash recorded then no longer matches. Each such field
//! is therefore tagged with the record format that introduced it (`#[serde(default, with =
//! "crate::format::since_2")]`). Inside [`in_record_format`] with an older format the field is
//! left out of the bincode encoding entirely (a unit, which bincode writes as no bytes) and
//! decodes as its default: the log's records, snapshots and state hashes of a format-1 session
//! are read, written and hashed byte for byte as format 1 wrote them. Outside that scope (the
//! wire, JSON, a new session) every field is there.
//!
//! | format | adds |
//! |---|---|
//! | 1 | the namespaced protocol (the first frozen format) |
//! | 2 | `modifiers` of `attack_rolled`, `damage_rolled`, `save_rolled`, `check_rolled`, `initiative_rolled`, `hide_checked`, `searched`, `morale_checked`, `reaction_rolled` and `retainer_hire_rolled`; the stat blocks' `bonus_terms`; Five Torches Deep sheets' `xp`, `magic_items` and `looted` |
//! | 3 | Orcus heroes' `xp` and monsters' `xp_awarded` (`grid`); Basic Fantasy stat blocks' `gear_pounds`; `loyalty_checked`'s `modifiers` |
//! | 4 | the genesis encounter's `reserves`: the ruleset's built-in stat blocks (and the encounter file's unused ones) that the GM may call in as reinforcements |

use std::cell::Cell;

/// The newest record format: what this build writes for a new session.
pub const LATEST: u32 = 4;

thread_local! {
    /// The record format being read or written on this thread ([`LATEST`] outside a scope).
    static FORMAT: Cell<u32> = const { Cell::new(LATEST) };
}

/// The record format in force on this thread.
pub fn current() -> u32 {
    FORMAT.with(|c| c.get())
}

/// Runs `f` with records read and written in `format`: fields added by a later format are left
/// out of the bincode encoding and decode as their defaults. Only the log's record codec, its
/// snapshots and the state hash of a session of that format call this.
pub fn in_record_format<T>(format: u32, f: impl FnOnce() -> T) -> T {
    struct Restore(u32);
    impl Drop for Restore {
        fn drop(&mut self) {
            FORMAT.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(FORMAT.with(|c| c.replace(format)));
    f()
}

/// A serde adapter module for fields added in record format `$n`: the field, or nothing in an
/// older format (a unit, no bytes in bincode); its default when read from an older format.
macro_rules! since {
    ($name:ident, $n:literal) => {
        #[doc = concat!("The serde adapter of a field added in record format ", stringify!($n), ".")]
        pub mod $name {
            use serde::{Deserialize, Deserializer, Serialize, Serializer};

            /// The field, or nothing in an older format.
            pub fn serialize<T: Serialize, S: Serializer>(
                value: &T,
                s: S,
            ) -> Result<S::Ok, S::Error> {
                if super::current() < $n {
                    s.serialize_unit()
                } else {
                    value.serialize(s)
                }
            }

            /// The field, or its default in an older format (where nothing was written).
            pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
            where
                T: Deserialize<'de> + Default,
                D: Deserializer<'de>,
            {
                if super::current() < $n {
                    <()>::deserialize(d)?;
                    Ok(T::default())
                } else {
                    T::deserialize(d)
                }
            }
        }
    };
}

since!(since_2, 2);
since!(since_3, 3);
since!(since_4, 4);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{from_bincode_record, to_bincode};
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Old {
        a: u32,
        b: String,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct New {
        a: u32,
        #[serde(default, with = "since_2")]
        added: Vec<i32>,
        b: String,
    }

    #[test]
    fn a_field_added_in_format_2_is_absent_from_format_1_bytes_and_decodes_as_its_default() {
        let old = to_bincode(&Old {
            a: 7,
            b: "x".into(),
        })
        .unwrap();
        let read = in_record_format(1, || from_bincode_record::<New>(&old)).unwrap();
        assert_eq!(
            read,
            New {
                a: 7,
                added: vec![],
                b: "x".into()
            }
        );
        // Written in format 1 again, byte for byte (a session that began in format 1 goes on).
        let again = in_record_format(1, || to_bincode(&read)).unwrap();
        assert_eq!(again, old);
        // In the latest format the field is there.
        let new = New {
            a: 7,
            added: vec![-2, 3],
            b: "x".into(),
        };
        let bytes = to_bincode(&new).unwrap();
        assert_ne!(bytes, old);
        assert_eq!(from_bincode_record::<New>(&bytes).unwrap(), new);
        assert_eq!(current(), LATEST, "the scope is left behind");
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Newer {
        a: u32,
        #[serde(default, with = "since_2")]
        added: Vec<i32>,
        b: String,
        #[serde(default, with = "since_3")]
        later: u32,
    }

    #[test]
    fn a_field_added_in_format_3_is_absent_from_format_2_bytes_and_both_from_format_1() {
        let v2 = in_record_format(2, || {
            to_bincode(&New {
                a: 1,
                added: vec![4],
                b: "z".into(),
            })
        })
        .unwrap();
        let read = in_record_format(2, || from_bincode_record::<Newer>(&v2)).unwrap();
        assert_eq!((read.added.clone(), read.later), (vec![4], 0));
        assert_eq!(in_record_format(2, || to_bincode(&read)).unwrap(), v2);
        let v1 = in_record_format(1, || to_bincode(&read)).unwrap();
        assert_eq!(
            v1,
            to_bincode(&Old {
                a: 1,
                b: "z".into()
            })
            .unwrap()
        );
        let latest = Newer { later: 9, ..read };
        let bytes = to_bincode(&latest).unwrap();
        assert_eq!(from_bincode_record::<Newer>(&bytes).unwrap(), latest);
    }

    #[test]
    fn json_carries_the_field_and_reads_a_document_without_it() {
        let v: New = serde_json::from_str(r#"{"a":1,"b":"y"}"#).unwrap();
        assert!(v.added.is_empty());
        let text = serde_json::to_string(&New {
            a: 1,
            added: vec![2],
            b: "y".into(),
        })
        .unwrap();
        assert_eq!(text, r#"{"a":1,"added":[2],"b":"y"}"#);
    }
}
