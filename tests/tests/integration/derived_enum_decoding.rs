//! An enum with data deriving `ToolArgs` alone is decoded by the `Deserialize` impl the
//! derive writes (`tool-macros/src/enums/decode.rs`), one for each tagging serde has. Each
//! must decode as serde's derive decodes the same enum: every value and text below, and
//! objects generated near a valid one, give the same value or the same error both ways.

use proptest::test_runner::{Config, RngSeed, TestRunner};
use serde_json::{Value, json};

use super::derived_decoding::{both, same};

/// The same enum twice, in modules `ours` (`ToolArgs` alone) and `theirs` (serde's derive),
/// under one name so that the errors read alike, beside a struct both hold.
macro_rules! twins {
    ($module:ident, $(#[$meta:meta])* enum $item:ident $body:tt) => {
        mod $module {
            pub mod ours {
                #[derive(tool_core::ToolArgs, serde::Serialize)]
                $(#[$meta])*
                pub enum $item $body
                #[derive(tool_core::ToolArgs, serde::Serialize)]
                #[allow(dead_code)] // held by some of the enums only
                pub struct Inner {
                    pub label: String,
                    pub size: Option<u8>,
                }
            }
            pub mod theirs {
                #[derive(serde::Deserialize, serde::Serialize)]
                $(#[$meta])*
                pub enum $item $body
                #[derive(serde::Deserialize, serde::Serialize)]
                #[allow(dead_code)] // held by some of the enums only
                pub struct Inner {
                    pub label: String,
                    pub size: Option<u8>,
                }
            }
        }
    };
}

twins!(
    external,
    #[serde(rename_all = "snake_case", rename_all_fields = "camelCase")]
    enum Op {
        Stop,
        #[serde(rename = "go", alias = "run")]
        Go(u32),
        MoveTo {
            #[serde(alias = "dx")]
            delta_x: i32,
            #[serde(default)]
            delta_y: i32,
        },
        Wrap(Inner),
        #[serde(skip)]
        #[allow(dead_code)] // never decoded: what is tested
        Hidden,
    }
);

twins!(
    internal,
    #[serde(tag = "kind", deny_unknown_fields)]
    enum Op {
        Stop,
        Wrap(Inner),
        Move {
            x: i32,
            #[serde(default)]
            y: i32,
        },
    }
);

twins!(
    adjacent,
    #[serde(tag = "t", content = "c")]
    enum Op {
        Stop,
        Go(Option<u32>),
        Wrap(Inner),
        Move { x: i32 },
    }
);

twins!(
    adjacent_strict,
    #[serde(tag = "t", content = "c", deny_unknown_fields, rename = "Wire")]
    enum Op {
        Stop,
        Go(u32),
    }
);

twins!(
    untagged,
    #[serde(untagged)]
    enum Op {
        Count(u32),
        Word(String),
        Move { x: i32, y: Option<i32> },
        Wrap(Inner),
    }
);

twins!(
    untagged_expecting,
    #[serde(untagged, expecting = "a count or a word")]
    enum Op {
        Count(u32),
        Word(String),
    }
);

/// Decodes `text` both ways (text the `json!` macro cannot write: a key twice).
fn same_text<O, T>(text: &str)
where
    O: serde::de::DeserializeOwned + serde::Serialize,
    T: serde::de::DeserializeOwned + serde::Serialize,
{
    let ours = serde_json::from_str::<O>(text).map(|v| serde_json::to_value(v).unwrap()).map_err(|e| e.to_string());
    let theirs = serde_json::from_str::<T>(text).map(|v| serde_json::to_value(v).unwrap()).map_err(|e| e.to_string());
    assert_eq!(ours, theirs, "{text}");
}

#[test]
fn externally_tagged_by_name_alias_and_content() {
    let values = [
        json!("stop"),
        json!({"stop": null}),
        json!({"go": 3}),
        json!({"run": 3}),
        json!({"go": "3"}),
        json!({"go": null}),
        json!("go"),
        json!({"move_to": {"deltaX": 1}}),
        json!({"move_to": {"dx": 1, "deltaY": 2}}),
        json!({"move_to": {"deltaX": 1, "other": 2}}),
        json!({"move_to": {"deltaY": 2}}),
        json!({"move_to": 1}),
        json!({"wrap": {"label": "a"}}),
        json!({"wrap": {"label": 1}}),
        json!({"hidden": null}),
        json!("hidden"),
        json!({"stop": null, "go": 1}),
        json!({}),
        json!(1),
        json!(null),
    ];
    assert_eq!(same::<external::ours::Op, external::theirs::Op>(&values), 8);
    same_text::<external::ours::Op, external::theirs::Op>(r#"{"move_to": {"deltaX": 1, "dx": 2}}"#);
}

#[test]
fn internally_tagged_by_its_tag_anywhere_in_the_object() {
    let values = [
        json!({"kind": "Stop"}),
        json!({"kind": "Stop", "extra": 1}),
        json!({"kind": "Wrap", "label": "a"}),
        json!({"label": "a", "size": 3, "kind": "Wrap"}),
        json!({"kind": "Wrap", "label": "a", "more": 1}),
        json!({"kind": "Wrap"}),
        json!({"kind": "Move", "x": 1}),
        json!({"x": 1, "y": 2, "kind": "Move"}),
        json!({"kind": "Move", "x": "1"}),
        json!({"kind": "Move", "x": 1, "z": 0}),
        json!({"kind": "Nope"}),
        json!({"kind": 1}),
        json!({"kind": 7}),
        json!({"kind": null}),
        json!({"x": 1}),
        json!({}),
        json!("Stop"),
        json!(null),
    ];
    assert_eq!(same::<internal::ours::Op, internal::theirs::Op>(&values), 7);
    for text in [r#"{"kind": "Stop", "kind": "Stop"}"#, r#"{"kind": "Move", "x": 1, "x": 2}"#] {
        same_text::<internal::ours::Op, internal::theirs::Op>(text);
    }
}

#[test]
fn adjacently_tagged_in_either_order() {
    let values = [
        json!({"t": "Stop"}),
        json!({"t": "Stop", "c": null}),
        json!({"t": "Stop", "c": 1}),
        json!({"c": null, "t": "Stop"}),
        json!({"t": "Go", "c": 3}),
        json!({"c": 3, "t": "Go"}),
        json!({"t": "Go"}),
        json!({"t": "Go", "c": null}),
        json!({"t": "Go", "c": "x"}),
        json!({"c": "x", "t": "Go"}),
        json!({"t": "Wrap", "c": {"label": "a"}}),
        json!({"t": "Wrap"}),
        json!({"t": "Move", "c": {"x": 1}}),
        json!({"t": "Move"}),
        json!({"c": {"x": 1}}),
        json!({"t": "Move", "c": {"x": 1}, "other": true}),
        json!({"other": true, "t": "Stop"}),
        json!({"t": "Nope", "c": 1}),
        json!({"t": 1, "c": 1}),
        json!({"t": null}),
        json!({}),
        json!("Stop"),
        json!(null),
    ];
    assert_eq!(same::<adjacent::ours::Op, adjacent::theirs::Op>(&values), 11);
    let values =
        [json!({"t": "Go", "c": 1}), json!({"t": "Go", "c": 1, "x": 1}), json!({"x": 1}), json!({"t": "Stop"})];
    assert_eq!(same::<adjacent_strict::ours::Op, adjacent_strict::theirs::Op>(&values), 2);
    for text in [
        r#"{"t": "Go", "t": "Go", "c": 1}"#,
        r#"{"t": "Go", "c": 1, "c": 2}"#,
        r#"{"c": 1, "c": 2, "t": "Go"}"#,
        r#"{"c": 1, "t": "Go", "t": "Go"}"#,
        r#"{"t": "Go", "c": 1, "t": "Stop"}"#,
    ] {
        same_text::<adjacent::ours::Op, adjacent::theirs::Op>(text);
    }
}

#[test]
fn untagged_by_the_first_variant_that_decodes() {
    let values = [
        json!(3),
        json!("three"),
        json!({"x": 1}),
        json!({"x": 1, "y": null}),
        json!({"x": 1, "label": "a"}),
        json!({"label": "a"}),
        json!({"label": "a", "size": 300}),
        json!(-1),
        json!(1.5),
        json!(null),
        json!({}),
    ];
    assert_eq!(same::<untagged::ours::Op, untagged::theirs::Op>(&values), 6);
    let values = [json!(1), json!("a"), json!(true)];
    assert_eq!(same::<untagged_expecting::ours::Op, untagged_expecting::theirs::Op>(&values), 2);
}

/// Where serde's derive would read a sequence: the value, or a variant's content. Ours reads
/// objects only, as a tool's arguments are (`sequences_are_refused`).
fn reads_a_sequence(value: &Value) -> bool {
    value.is_array() || value.as_object().is_some_and(|map| map.values().any(Value::is_array))
}

/// serde's derive reads an externally tagged struct variant from a sequence of its fields'
/// values too, and an internally or adjacently tagged enum from `[tag, ..]`; no object schema
/// allows a sequence, and the impl `ToolArgs` writes refuses one.
#[test]
fn sequences_are_refused() {
    fn refused<O: serde::de::DeserializeOwned, T: serde::de::DeserializeOwned>(value: &Value) {
        let text = value.to_string();
        assert!(serde_json::from_str::<T>(&text).is_ok(), "serde's derive reads {text}");
        let error = serde_json::from_str::<O>(&text).err().map(|error| error.to_string());
        assert!(error.as_deref().is_some_and(|error| error.starts_with("invalid type: sequence")), "{error:?}");
    }
    refused::<external::ours::Op, external::theirs::Op>(&json!({"move_to": [1, 2]}));
    refused::<internal::ours::Op, internal::theirs::Op>(&json!(["Stop"]));
    refused::<adjacent::ours::Op, adjacent::theirs::Op>(&json!(["Go", 1]));
}

/// Objects near a valid one of each tagging (`differential.rs`'s instances).
#[test]
fn generated_enums_decode_alike() {
    fn run<O, T>(base: Value, names: &[&str], words: &[&str]) -> u32
    where
        O: serde::de::DeserializeOwned + serde::Serialize,
        T: serde::de::DeserializeOwned + serde::Serialize,
    {
        let strategy = super::differential::near(
            base,
            names.iter().map(|name| (*name).to_owned()).collect(),
            words.iter().map(|word| (*word).to_owned()).collect(),
        );
        let config =
            Config { cases: 1_000, failure_persistence: None, rng_seed: RngSeed::Fixed(0xe7a5), ..Config::default() };
        let decoded = std::cell::Cell::new(0_u32);
        TestRunner::new(config)
            .run(&strategy, |value| {
                if reads_a_sequence(&value) {
                    return Ok(());
                }
                let (ours, theirs) = both::<O, T>(&value);
                decoded.set(decoded.get() + u32::from(ours.is_ok()));
                proptest::prop_assert_eq!(ours, theirs);
                Ok(())
            })
            .unwrap();
        decoded.get()
    }
    let decoded = [
        run::<internal::ours::Op, internal::theirs::Op>(
            json!({"kind": "Move", "x": 1, "y": 2}),
            &["kind", "x", "y", "label", "size", "zzz"],
            &["Stop", "Wrap", "Move"],
        ),
        run::<adjacent::ours::Op, adjacent::theirs::Op>(
            json!({"t": "Move", "c": {"x": 1}}),
            &["t", "c", "x", "label", "zzz"],
            &["Stop", "Go", "Wrap", "Move"],
        ),
        run::<external::ours::Op, external::theirs::Op>(
            json!({"move_to": {"deltaX": 1, "deltaY": 2}}),
            &["move_to", "go", "run", "stop", "wrap", "deltaX", "dx", "label"],
            &["stop", "go"],
        ),
        run::<untagged::ours::Op, untagged::theirs::Op>(json!({"x": 1, "y": 2}), &["x", "y", "label", "size"], &["a"]),
    ];
    // The comparison must not be of refusals alone.
    for count in decoded {
        assert!(count >= 100, "only {count} of 1,000 values decoded: {decoded:?}");
    }
}
