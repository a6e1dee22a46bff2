//! The serde attribute readers' unit tests: `rename_all` against serde's own table, and what
//! each reader keeps, passes over or leaves to serde's derive.

use super::RenameRule::{self, Camel, Kebab, Lower, Pascal, ScreamingKebab, ScreamingSnake, Snake, Upper};

/// The table of serde's own `rename_all` tests (`serde_derive`, `internals/case.rs`).
#[test]
fn rules_match_serde() {
    let fields: [(&str, [&str; 8]); 3] = [
        ("outcome", ["outcome", "OUTCOME", "Outcome", "outcome", "outcome", "OUTCOME", "outcome", "OUTCOME"]),
        (
            "very_tasty",
            [
                "very_tasty",
                "VERY_TASTY",
                "VeryTasty",
                "veryTasty",
                "very_tasty",
                "VERY_TASTY",
                "very-tasty",
                "VERY-TASTY",
            ],
        ),
        ("a", ["a", "A", "A", "a", "a", "A", "a", "A"]),
    ];
    let rules: [RenameRule; 8] = [Lower, Upper, Pascal, Camel, Snake, ScreamingSnake, Kebab, ScreamingKebab];
    for (field, expected) in fields {
        for (rule, want) in rules.iter().zip(expected) {
            assert_eq!(rule.apply_to_field(field), want, "{rule:?} on field {field}");
        }
    }
    let variants: [(&str, [&str; 8]); 2] = [
        ("Outcome", ["outcome", "OUTCOME", "Outcome", "outcome", "outcome", "OUTCOME", "outcome", "OUTCOME"]),
        (
            "VeryTasty",
            [
                "verytasty",
                "VERYTASTY",
                "VeryTasty",
                "veryTasty",
                "very_tasty",
                "VERY_TASTY",
                "very-tasty",
                "VERY-TASTY",
            ],
        ),
    ];
    for (variant, expected) in variants {
        for (rule, want) in rules.iter().zip(expected) {
            assert_eq!(rule.apply_to_variant(variant), want, "{rule:?} on variant {variant}");
        }
    }
}

#[test]
fn deserialize_half_and_passed_over_keys() {
    let attrs: Vec<syn::Attribute> = vec![
        syn::parse_quote!(#[serde(rename_all(serialize = "UPPERCASE", deserialize = "camelCase"), bound = "T: X")]),
        syn::parse_quote!(#[serde(default, tag = "kind")]),
    ];
    let container = super::container(&attrs).expect("valid");
    assert_eq!(container.rename_all, Some(Camel));
    assert!(container.default);
    assert_eq!(container.tag.as_deref(), Some("kind"));
    let field: Vec<syn::Attribute> =
        vec![syn::parse_quote!(#[serde(rename(serialize = "x"), alias = "a", alias = "b", skip_serializing_if = "f")])];
    let member = super::member(&field, false).expect("valid");
    assert_eq!(member.rename, None);
    assert_eq!(member.aliases, ["a", "b"]);
}

#[test]
fn what_plain_decoding_reads_and_what_only_serde_follows() {
    let attrs: Vec<syn::Attribute> = vec![syn::parse_quote!(
        #[serde(default = "seven", with = "chrono::serde::ts_seconds", skip_serializing_if = "f")]
    )];
    let member = super::member(&attrs, true).expect("valid");
    assert!(member.has_default() && member.skipped().is_none() && !member.only_serde);
    let path = |p: &Option<syn::ExprPath>| p.as_ref().map(|p| quote::quote!(#p).to_string());
    assert_eq!(path(&member.default_path).as_deref(), Some("seven"));
    assert_eq!(path(&member.with).as_deref(), Some("chrono :: serde :: ts_seconds :: deserialize"));
    for only_serde in [
        syn::parse_quote!(#[serde(bound = "T: X")]),
        syn::parse_quote!(#[serde(borrow)]),
        syn::parse_quote!(#[serde(rename = "a", rename = "b")]),
    ] {
        assert!(super::member(&[only_serde], false).expect("valid").only_serde);
    }
    let skipped: syn::Attribute = syn::parse_quote!(#[serde(skip_deserializing)]);
    assert!(super::member(&[skipped], false).expect("valid").skipped().is_some());
}
