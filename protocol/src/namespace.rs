//! The namespaced enums `Command` and `GameEvent`: a common part plus one enum per ruleset
//! family (13th Age, Orcus, Five Torches Deep, B/X).
//!
//! Wire forms:
//! - **bincode** (the binary subprotocol and the log): the outer variant's tag, then — for a
//!   family's variant — the inner variant's tag. Tags are the variants' positions; they are
//!   listed in `protocol/README.md` ("Wire tags") and frozen by `tests/wire_tags.rs`: a new
//!   variant is appended at the end of its own enum, so it never changes another's encoding.
//! - **JSON**: flat, as if every variant belonged to one enum — `{"ready_counter":{…}}`, not
//!   `{"orcus":{"ready_counter":{…}}}`. Names are unique across all the enums (a test checks).
//!   Decoding reads the name, finds its enum in the owner table, and hands that enum's derived
//!   deserializer the name and the rest of the object ([`MapEnum`]), buffering nothing.

use serde::Deserializer;
use serde::de::{
    self, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, VariantAccess, Visitor,
};
use std::collections::HashMap;

/// The ruleset families that own commands and events of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// 13th Age.
    ThirteenthAge,
    /// Orcus.
    Orcus,
    /// Five Torches Deep.
    FiveTorches,
    /// Old-School Essentials and Basic Fantasy (the B/X rules).
    Bx,
}

impl Family {
    /// Every family, in wire-tag order of the wrapper variants.
    pub const ALL: [Family; 4] = [
        Family::ThirteenthAge,
        Family::Orcus,
        Family::FiveTorches,
        Family::Bx,
    ];

    /// The family's name as the wire tables and messages spell it.
    pub fn name(self) -> &'static str {
        match self {
            Family::ThirteenthAge => "thirteenth_age",
            Family::Orcus => "orcus",
            Family::FiveTorches => "five_torches",
            Family::Bx => "bx",
        }
    }

    /// The family's name for people.
    pub fn title(self) -> &'static str {
        match self {
            Family::ThirteenthAge => "13th Age",
            Family::Orcus => "Orcus",
            Family::FiveTorches => "Five Torches Deep",
            Family::Bx => "B/X (Old-School Essentials, Basic Fantasy)",
        }
    }
}

/// Who owns a variant name: the common part (`None`) or a family.
pub(crate) type Owners = HashMap<&'static str, Option<Family>>;

/// The variant names of a serde-derived enum, in declaration (= wire tag) order, read from the
/// list serde passes to `deserialize_enum`.
pub fn variant_names<T>(
    deserialize: impl FnOnce(Probe) -> Result<T, de::value::Error>,
) -> &'static [&'static str] {
    let mut names: &'static [&'static str] = &[];
    let _ = deserialize(Probe(&mut names));
    names
}

/// A deserializer that only records the variant list of the enum asked of it.
pub struct Probe<'a>(&'a mut &'static [&'static str]);

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("probe"))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = variants;
        Err(de::Error::custom("probe"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}

/// The owner table of a namespaced enum: its own variants are common, except the wrappers,
/// whose inner enums' variants belong to their family.
pub(crate) fn owners(
    outer: &'static [&'static str],
    inner: [(Family, &'static [&'static str]); 4],
) -> Owners {
    let wrappers: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
    let mut map: Owners = outer
        .iter()
        .filter(|n| !wrappers.contains(n))
        .map(|n| (*n, None))
        .collect();
    for (family, names) in inner {
        for n in names {
            map.insert(n, Some(family));
        }
    }
    map
}

/// The wire tag table of a namespaced enum as lines `<enum> <family or -> <tag> <name>`: the
/// form of `tests/compat/wire-tags.txt` (frozen: lines are only ever appended).
pub fn wire_tag_lines(what: &str, tags: &[(&'static str, &'static [&'static str])]) -> Vec<String> {
    let mut lines = Vec::new();
    for (family, names) in tags {
        let family = if family.is_empty() { "-" } else { family };
        for (tag, name) in names.iter().enumerate() {
            lines.push(format!("{what} {family} {tag} {name}"));
        }
    }
    lines
}

/// The same table as Markdown rows, one per enum (`protocol/README.md`, "Wire tags").
pub fn wire_tag_rows(what: &str, tags: &[(&'static str, &'static [&'static str])]) -> Vec<String> {
    tags.iter()
        .map(|(family, names)| {
            let list: Vec<String> = names
                .iter()
                .enumerate()
                .map(|(tag, name)| format!("{tag} `{name}`"))
                .collect();
            let enum_name = if family.is_empty() {
                format!("{what} (common)")
            } else {
                format!("{what} `{family}`")
            };
            format!("| {enum_name} | {} |", list.join(" · "))
        })
        .collect()
}

/// An externally tagged enum whose name was already read from a JSON object (to find its
/// family): the name, then the rest of the object as the variant's content. What serde's derived
/// enum deserializers expect, without buffering the value.
pub struct MapEnum<'m, A> {
    name: String,
    map: &'m mut A,
}

impl<'m, A> MapEnum<'m, A> {
    /// The enum named `name`, its content the next value of `map`.
    pub fn new(name: String, map: &'m mut A) -> Self {
        MapEnum { name, map }
    }

    /// The variant name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl<'de, A: MapAccess<'de>> Deserializer<'de> for MapEnum<'_, A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, A::Error> {
        Err(de::Error::custom("expected an enum"))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_enum(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}

impl<'de, 'm, A: MapAccess<'de>> EnumAccess<'de> for MapEnum<'m, A> {
    type Error = A::Error;
    type Variant = MapVariant<'m, A>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, MapVariant<'m, A>), A::Error> {
        let variant = seed.deserialize(self.name.into_deserializer())?;
        Ok((variant, MapVariant(self.map)))
    }
}

/// The content of a [`MapEnum`]: the object's value.
pub struct MapVariant<'m, A>(&'m mut A);

impl<'de, A: MapAccess<'de>> VariantAccess<'de> for MapVariant<'_, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.next_value::<()>()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(seed)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(Shaped::Tuple(len, visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(Shaped::Struct(fields, visitor))
    }
}

/// A variant's content of a known shape.
enum Shaped<V> {
    Tuple(usize, V),
    Struct(&'static [&'static str], V),
}

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for Shaped<V> {
    type Value = V::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        match self {
            Shaped::Tuple(len, v) => d.deserialize_tuple(len, v),
            Shaped::Struct(fields, v) => d.deserialize_struct("", fields, v),
        }
    }
}

/// Generates the `Serialize`/`Deserialize` impls of a namespaced enum (`$outer`, derived with
/// `#[serde(remote = "Self")]`) whose family wrappers hold `$inner` enums.
macro_rules! namespaced {
    ($outer:ident, $what:literal, $owners:ident, [$(($fam:ident, $inner:ident)),* $(,)?]) => {
        fn $owners() -> &'static $crate::namespace::Owners {
            static OWNERS: std::sync::OnceLock<$crate::namespace::Owners> = std::sync::OnceLock::new();
            OWNERS.get_or_init(|| {
                $crate::namespace::owners(
                    $crate::namespace::variant_names(|p| $outer::deserialize(p)),
                    [$((
                        $crate::namespace::Family::$fam,
                        $crate::namespace::variant_names(|p| <$inner as serde::Deserialize>::deserialize(p)),
                    )),*],
                )
            })
        }

        impl $outer {
            /// The family that owns this variant; `None` for the common part.
            pub fn family(&self) -> Option<$crate::namespace::Family> {
                match self {
                    $($outer::$fam(_) => Some($crate::namespace::Family::$fam),)*
                    _ => None,
                }
            }

            /// Every variant name of the JSON form with its owner (`None`: common), sorted.
            pub fn json_names() -> Vec<(&'static str, Option<$crate::namespace::Family>)> {
                let mut v: Vec<_> = $owners().iter().map(|(n, f)| (*n, *f)).collect();
                v.sort();
                v
            }

            /// The wire tags: the outer enum's variant names in tag order, then each family's.
            pub fn wire_tags() -> Vec<(&'static str, &'static [&'static str])> {
                vec![
                    ("", $crate::namespace::variant_names(|p| $outer::deserialize(p))),
                    $((
                        $crate::namespace::Family::$fam.name(),
                        $crate::namespace::variant_names(|p| <$inner as serde::Deserialize>::deserialize(p)),
                    )),*
                ]
            }
        }

        impl serde::Serialize for $outer {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                if s.is_human_readable() {
                    match self {
                        $($outer::$fam(inner) => return inner.serialize(s),)*
                        _ => {}
                    }
                }
                $outer::serialize(self, s)
            }
        }

        impl<'de> serde::Deserialize<'de> for $outer {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                if !d.is_human_readable() {
                    return $outer::deserialize(d);
                }
                struct Flat;
                impl<'de> serde::de::Visitor<'de> for Flat {
                    type Value = $outer;

                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str(concat!("a ", $what, ": a name or an object with one key"))
                    }

                    fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<$outer, E> {
                        use serde::de::IntoDeserializer as _;
                        match $owners().get(name) {
                            None => Err(E::custom(format!(concat!("unknown ", $what, " `{}`"), name))),
                            Some(None) => $outer::deserialize(name.into_deserializer()),
                            $(Some(Some($crate::namespace::Family::$fam)) => {
                                <$inner as serde::Deserialize>::deserialize(name.into_deserializer())
                                    .map($outer::$fam)
                            })*
                        }
                    }

                    fn visit_map<MapA: serde::de::MapAccess<'de>>(
                        self,
                        mut map: MapA,
                    ) -> Result<$outer, MapA::Error> {
                        use serde::de::Error as _;
                        let Some(name) = map.next_key::<String>()? else {
                            return Err(MapA::Error::custom(concat!(
                                "expected ", $what, ": an object with one key"
                            )));
                        };
                        let owner = $owners().get(name.as_str()).copied();
                        let content = $crate::namespace::MapEnum::new(name, &mut map);
                        let value = match owner {
                            None => {
                                return Err(MapA::Error::custom(format!(
                                    concat!("unknown ", $what, " `{}`"),
                                    content.name()
                                )))
                            }
                            Some(None) => $outer::deserialize(content)?,
                            $(Some(Some($crate::namespace::Family::$fam)) => {
                                $outer::$fam(<$inner as serde::Deserialize>::deserialize(content)?)
                            })*
                        };
                        if map.next_key::<serde::de::IgnoredAny>()?.is_some() {
                            return Err(MapA::Error::custom(concat!(
                                "expected ", $what, ": an object with one key"
                            )));
                        }
                        Ok(value)
                    }
                }
                d.deserialize_any(Flat)
            }
        }
    };
}
pub(crate) use namespaced;

#[cfg(test)]
mod tests {
    //! The encoding promise on a scratch pair of types: version 2 adds a variant to one
    //! family's enum; every value version 1 could write keeps its bytes.
    use crate::codec::{from_bincode_record, to_bincode};
    use serde::{Deserialize, Serialize};

    macro_rules! scratch {
        ($m:ident, [$($orcus:tt)*]) => {
            #[allow(dead_code)]
            mod $m {
                use serde::{Deserialize, Serialize};
                #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
                #[serde(remote = "Self", rename_all = "snake_case")]
                pub enum Cmd {
                    Start,
                    Hit { who: String },
                    ThirteenthAge(A),
                    Orcus(O),
                    FiveTorches(F),
                    Bx(B),
                }
                #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
                #[serde(rename_all = "snake_case")]
                pub enum A { Ambush { by: String } }
                #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
                #[serde(rename_all = "snake_case")]
                pub enum O { Climb { h: u8 }, $($orcus)* }
                #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
                #[serde(rename_all = "snake_case")]
                pub enum F { Rest }
                #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
                #[serde(rename_all = "snake_case")]
                pub enum B { Hold, Flee { far: bool } }
                crate::namespace::namespaced!(Cmd, "command", owners, [
                    (ThirteenthAge, A), (Orcus, O), (FiveTorches, F), (Bx, B),
                ]);
            }
        };
    }
    scratch!(v1, []);
    scratch!(v2, [ReadyCounter { power: String }]);

    fn every_v1_value() -> Vec<v1::Cmd> {
        vec![
            v1::Cmd::Start,
            v1::Cmd::Hit { who: "orc".into() },
            v1::Cmd::ThirteenthAge(v1::A::Ambush { by: "gob".into() }),
            v1::Cmd::Orcus(v1::O::Climb { h: 3 }),
            v1::Cmd::FiveTorches(v1::F::Rest),
            v1::Cmd::Bx(v1::B::Hold),
            v1::Cmd::Bx(v1::B::Flee { far: true }),
        ]
    }

    #[test]
    fn a_variant_added_to_one_family_leaves_every_other_encoding_unchanged() {
        for old in every_v1_value() {
            let json = serde_json::to_string(&old).expect("encodes");
            let new: v2::Cmd = serde_json::from_str(&json).expect("the JSON names are the same");
            let (a, b) = (to_bincode(&old).expect("v1"), to_bincode(&new).expect("v2"));
            assert_eq!(a, b, "{json}: v1 and v2 bytes differ");
            // And a v2 reader reads what v1 wrote.
            assert_eq!(
                from_bincode_record::<v2::Cmd>(&a).expect("v2 reads v1"),
                new
            );
        }
        // The new variant has a tag of its own after its family's last.
        let added = v2::Cmd::Orcus(v2::O::ReadyCounter {
            power: "riposte".into(),
        });
        let bytes = to_bincode(&added).expect("v2");
        assert_eq!(&bytes[..2], &[3, 1], "outer tag 3 (orcus), inner tag 1");
    }

    #[test]
    fn the_json_form_is_flat_and_reads_back() {
        for v in every_v1_value() {
            let json = serde_json::to_string(&v).expect("encodes");
            assert!(
                !json.contains("\"orcus\"") && !json.contains("\"bx\""),
                "{json}"
            );
            assert_eq!(serde_json::from_str::<v1::Cmd>(&json).expect("decodes"), v);
        }
        assert_eq!(
            serde_json::to_string(&v1::Cmd::Orcus(v1::O::Climb { h: 2 })).expect("encodes"),
            r#"{"climb":{"h":2}}"#
        );
        let err = serde_json::from_str::<v1::Cmd>(r#"{"fly":{}}"#).expect_err("unknown");
        assert!(err.to_string().contains("unknown command `fly`"), "{err}");
        let err = serde_json::from_str::<v1::Cmd>(r#""fly""#).expect_err("unknown");
        assert!(err.to_string().contains("unknown command `fly`"), "{err}");
        let err = serde_json::from_str::<v1::Cmd>(r#"{"climb":{"h":2},"hold":null}"#)
            .expect_err("two keys");
        assert!(err.to_string().contains("one key"), "{err}");
        let err = serde_json::from_str::<v1::Cmd>(r#"{"climb":{"h":"high"}}"#).expect_err("shape");
        assert!(err.to_string().contains("invalid type"), "{err}");
        let err = serde_json::from_str::<v1::Cmd>("[1]").expect_err("not an enum");
        assert!(
            err.to_string().contains("a name or an object with one key"),
            "{err}"
        );
        // A family's unit variant as a name, and the common part's struct variant.
        assert_eq!(
            serde_json::from_str::<v1::Cmd>(r#""rest""#).expect("unit"),
            v1::Cmd::FiveTorches(v1::F::Rest)
        );
        assert_eq!(
            serde_json::from_str::<v1::Cmd>(r#"{"hit":{"who":"orc"}}"#).expect("common"),
            v1::Cmd::Hit { who: "orc".into() }
        );
    }

    #[test]
    fn in_one_flat_enum_the_same_addition_would_shift_the_tags_after_it() {
        // Why the protocol is namespaced: grouped by ruleset in one enum, a variant added to
        // one ruleset's group moves every later variant's tag.
        #[derive(Serialize, Deserialize)]
        enum FlatV1 {
            Climb { h: u8 },
            Rest,
        }
        #[derive(Serialize, Deserialize)]
        enum FlatV2 {
            Climb { h: u8 },
            ReadyCounter { power: String },
            Rest,
        }
        let _ = (
            FlatV1::Climb { h: 0 },
            FlatV2::Climb { h: 0 },
            FlatV2::ReadyCounter {
                power: String::new(),
            },
        );
        assert_ne!(
            to_bincode(&FlatV1::Rest).expect("v1"),
            to_bincode(&FlatV2::Rest).expect("v2")
        );
    }
}
