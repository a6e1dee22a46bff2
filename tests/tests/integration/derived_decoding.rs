//! A struct or a unit-only enum deriving `ToolArgs` alone is decoded by the `Deserialize` impl
//! the derive writes (`tool-macros/src/decode.rs`, `enums/unit.rs`; enums with data in
//! `derived_enum_decoding.rs`). Each serde key it
//! follows must decode as serde's derive decodes the same type: every value below, and
//! objects generated near a valid one, give the same value or the same error both ways.

use proptest::test_runner::{Config, RngSeed, TestRunner};
use serde_json::{Value, json};

/// The same type twice, in modules `ours` (`ToolArgs` alone) and `theirs` (serde's
/// derive), under one name so that the errors read alike.
macro_rules! twins {
    ($module:ident, $(#[$meta:meta])* $item:ident $($body:tt)*) => {
        mod $module {
            pub mod ours {
                #[derive(tool_core::ToolArgs, serde::Serialize, Default)]
                $(#[$meta])*
                pub $item $($body)*
            }
            pub mod theirs {
                #[derive(serde::Deserialize, serde::Serialize, Default)]
                $(#[$meta])*
                pub $item $($body)*
            }
        }
    };
}

twins!(
    renamed,
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Args {
        pub city_name: String,
        #[serde(default)]
        pub day_count: u8,
        #[serde(alias = "n", alias = "remark")]
        pub note: Option<String>,
        #[serde(rename = "ID")]
        pub id: u32,
        #[serde(skip_deserializing)]
        pub cache: Vec<u8>,
    }
);

twins!(
    defaulted,
    #[serde(default, rename = "Wire")]
    struct Args {
        pub page: u32,
        pub size: Option<u16>,
        #[serde(skip_deserializing)]
        pub seen: bool,
        pub tags: Vec<String>,
    }
);

twins!(
    expecting,
    #[serde(expecting = "the search's arguments")]
    struct Args {
        pub query: String,
        pub limit: Option<u8>,
    }
);

twins!(
    generic,
    struct Args<T> {
        pub items: Vec<T>,
        pub next: Option<T>,
    }
);

twins!(newtype, struct Args(pub f64););

// A unit-only enum.
twins!(
    units,
    #[serde(rename_all = "snake_case", expecting = "a speed")]
    enum Mode {
        #[default]
        Fast,
        #[serde(alias = "careful", alias = "slow")]
        VerySlow,
        #[serde(rename = "X")]
        Other,
        #[serde(skip)]
        #[allow(dead_code)] // never decoded: what is tested
        Hidden,
    }
);

/// Decodes `value` both ways: the value (as JSON) or the error's text.
pub(crate) fn both<O, T>(value: &Value) -> (Result<Value, String>, Result<Value, String>)
where
    O: serde::de::DeserializeOwned + serde::Serialize,
    T: serde::de::DeserializeOwned + serde::Serialize,
{
    let decode = |text: &str| -> (Result<Value, String>, Result<Value, String>) {
        let ours = serde_json::from_str::<O>(text).map(|v| serde_json::to_value(v).unwrap()).map_err(|e| e.to_string());
        let theirs =
            serde_json::from_str::<T>(text).map(|v| serde_json::to_value(v).unwrap()).map_err(|e| e.to_string());
        (ours, theirs)
    };
    // From text and from a `Value`: two deserializers, the two the dispatch uses.
    let from_text = decode(&value.to_string());
    let ours =
        serde_json::from_value::<O>(value.clone()).map(|v| serde_json::to_value(v).unwrap()).map_err(|e| e.to_string());
    let theirs =
        serde_json::from_value::<T>(value.clone()).map(|v| serde_json::to_value(v).unwrap()).map_err(|e| e.to_string());
    assert_eq!(ours, theirs, "from a value: {value}");
    from_text
}

/// Asserts the same result for each value, and returns how many decoded.
pub(crate) fn same<O, T>(values: &[Value]) -> usize
where
    O: serde::de::DeserializeOwned + serde::Serialize,
    T: serde::de::DeserializeOwned + serde::Serialize,
{
    values
        .iter()
        .filter(|value| {
            let (ours, theirs) = both::<O, T>(value);
            assert_eq!(ours, theirs, "{value}");
            ours.is_ok()
        })
        .count()
}

#[test]
fn rename_all_rename_alias_default_skipping_and_deny_unknown_fields() {
    let values = [
        json!({"cityName": "Paris", "ID": 1}),
        json!({"cityName": "Paris", "dayCount": 3, "n": "x", "ID": 1}),
        json!({"cityName": "Paris", "remark": null, "ID": 1}),
        json!({"city_name": "Paris", "ID": 1}),
        json!({"cityName": "Paris", "id": 1}),
        json!({"cityName": "Paris", "ID": 1, "cache": [1]}),
        json!({"cityName": "Paris", "ID": 1, "note": "a", "n": "b"}),
        json!({"cityName": 5, "ID": 1}),
        json!({"cityName": "Paris", "dayCount": 300, "ID": 1}),
        json!({"ID": 1}),
        json!({}),
    ];
    assert_eq!(same::<renamed::ours::Args, renamed::theirs::Args>(&values), 3);
}

#[test]
fn a_container_default_fills_every_absent_field() {
    let values = [
        json!({}),
        json!({"page": 2, "tags": ["a"]}),
        json!({"page": 2, "seen": true}),
        json!({"page": "2"}),
        json!({"size": null, "other": 1}),
        json!({"page": 1, "tags": null}),
    ];
    assert_eq!(same::<defaulted::ours::Args, defaulted::theirs::Args>(&values), 4);
}

#[test]
fn expecting_generics_and_newtypes() {
    let values = [json!({"query": "q"}), json!({"query": 1}), json!({"limit": 1}), json!("q"), json!(null)];
    assert_eq!(same::<expecting::ours::Args, expecting::theirs::Args>(&values), 1);
    let values = [json!({"items": [1, 2]}), json!({"items": [1], "next": 2}), json!({"items": ["x"]}), json!({})];
    assert_eq!(same::<generic::ours::Args<u8>, generic::theirs::Args<u8>>(&values), 2);
    let values = [json!(1.5), json!(2), json!("x"), json!(null), json!({"0": 1.0})];
    assert_eq!(same::<newtype::ours::Args, newtype::theirs::Args>(&values), 2);
}

#[test]
fn unit_enums_by_name_alias_number_and_map() {
    let values = [
        json!("fast"),
        json!("very_slow"),
        json!("careful"),
        json!("X"),
        json!("other"),
        json!("hidden"),
        json!("Fast"),
        json!(""),
        json!(0),
        json!(2),
        json!(3),
        json!(-1),
        json!(1.5),
        json!(null),
        json!(true),
        json!(["fast"]),
        json!({"fast": null}),
        json!({"slow": null}),
        json!({"fast": 1}),
        json!({"nope": null}),
        json!({"fast": null, "X": null}),
        json!({}),
    ];
    assert_eq!(same::<units::ours::Mode, units::theirs::Mode>(&values), 6);
}

/// Objects near a valid one (values swapped for others of every JSON type, keys removed,
/// names, aliases and unknown keys added: `differential.rs`'s instances).
#[test]
fn generated_objects_decode_alike() {
    let base = json!({"cityName": "Paris", "dayCount": 3, "note": "x", "ID": 1});
    let names = ["cityName", "city_name", "dayCount", "note", "n", "remark", "ID", "id", "cache", "zzz"];
    let strategy = super::differential::near(base, names.map(str::to_owned).to_vec(), vec!["Paris".to_owned()]);
    let config =
        Config { cases: 1_000, failure_persistence: None, rng_seed: RngSeed::Fixed(0x5e7d), ..Config::default() };
    let decoded = std::cell::Cell::new(0_u32);
    TestRunner::new(config)
        .run(&strategy, |value| {
            if !value.is_object() {
                return Ok(());
            }
            let (ours, theirs) = both::<renamed::ours::Args, renamed::theirs::Args>(&value);
            decoded.set(decoded.get() + u32::from(ours.is_ok()));
            proptest::prop_assert_eq!(ours, theirs);
            Ok(())
        })
        .unwrap();
    // The comparison must not be of refusals alone.
    assert!(decoded.get() >= 100, "only {} of 1,000 objects decoded", decoded.get());
}
