//! The rules' unit tests: a field's attributes built with `parse_quote!`, its errors counted and read.

use darling::FromField;

fn errors(field: syn::Field) -> Vec<String> {
    let field = crate::attr::ParamField::from_field(&field).expect("darling accepts it");
    match super::field(&field) {
        Ok(()) => Vec::new(),
        Err(error) => error.into_iter().map(|e| e.to_string()).collect(),
    }
}

#[test]
fn every_independent_rule_reports() {
    let field: syn::Field = syn::parse_quote! {
        #[param(minimum = 5, maximum = 1, min_length = 3, max_length = 2, pattern = "(", format = "emial", multiple_of = -1)]
        x: u8
    };
    let found = errors(field);
    assert_eq!(found.len(), 5, "{found:#?}");
    assert!(found.iter().any(|e| e.contains("`minimum` (5) is greater than `maximum` (1)")));
    assert!(found.iter().any(|e| e.contains("`min_length` (3) is greater than `max_length` (2)")));
    assert!(found.iter().any(|e| e.contains("not a valid regular expression")));
    assert!(found.iter().any(|e| e.contains("Did you mean `email`?")));
    assert!(found.iter().any(|e| e.contains("`multiple_of` must be greater than 0")));
}

#[test]
fn defaults_are_checked_against_every_constraint() {
    let field: syn::Field = syn::parse_quote! {
        #[param(min_length = 2, pattern = "^[a-z]+$", enum = ["ab", "cd"], default = "Z")]
        x: String
    };
    let found = errors(field);
    assert_eq!(found.len(), 3, "{found:#?}");
    for rule in ["min_length", "pattern", "enum"] {
        assert!(found.iter().any(|e| e.contains(&format!("breaks `{rule}`"))), "{rule}: {found:#?}");
    }
    let fine: syn::Field = syn::parse_quote!(#[param(minimum = 1, maximum = 10, multiple_of = 2, default = 4)] x: u8);
    assert!(errors(fine).is_empty());
}

#[test]
fn exclusive_bounds_that_touch_admit_nothing() {
    let field: syn::Field = syn::parse_quote!(#[param(exclusive_minimum = 1, maximum = 1)] x: f64);
    assert_eq!(errors(field), ["`exclusive_minimum` (1) is equal to `maximum` (1): no value satisfies both"]);
}

#[test]
fn primitive_integer_ranges_are_read_from_the_syntax() {
    use super::primitive_integer_range as range;
    assert_eq!(range(&syn::parse_quote!(u8)), Some((0, 255)));
    assert_eq!(range(&syn::parse_quote!(Option<i16>)), Some((-32_768, 32_767)));
    // Anything else is left to the const check against the type's schema.
    for ty in [syn::parse_quote!(usize), syn::parse_quote!(Percent), syn::parse_quote!(std::num::NonZeroU8)] {
        assert_eq!(range(&ty), None);
    }
}
