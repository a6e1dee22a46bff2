//! Expansion snapshots: what each macro generates for representative inputs, pretty-printed
//! (prettyplease) and stored beside this file (insta), so every change to generated code and
//! its size shows in review. Update with `INSTA_UPDATE=always cargo test -p tool-macros`
//! (or `cargo insta review`) and read the diff.

use proc_macro2::TokenStream;
use quote::quote;

fn pretty(tokens: TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens).expect("the expansion parses as a file");
    prettyplease::unparse(&file)
}

fn derive(input: TokenStream) -> String {
    pretty(crate::args::expand(syn::parse2(input).expect("a derive input")))
}

fn tool(attr: TokenStream, item: TokenStream) -> String {
    pretty(crate::tool::expand(attr, item))
}

#[test]
fn struct_with_keywords() {
    insta::assert_snapshot!(derive(quote! {
        /// Arguments.
        struct WeatherArgs {
            /// City name
            #[param(min_length = 1, pattern = "^[A-Za-z ]+$")]
            city: String,
            #[param(minimum = 1, maximum = 10)]
            days: u8,
            #[serde(default)]
            #[param(items(max_length = 8))]
            tags: Vec<String>,
        }
    }));
}

#[test]
fn unit_enum() {
    insta::assert_snapshot!(derive(quote! {
        #[serde(rename_all = "lowercase")]
        enum Units {
            /// Degrees Celsius.
            Celsius,
            Fahrenheit,
        }
    }));
}

#[test]
fn externally_tagged_enum() {
    insta::assert_snapshot!(derive(quote! {
        enum Shape {
            Empty,
            Circle { radius: f64 },
            At(Point),
        }
    }));
}

#[test]
fn internally_tagged_enum() {
    insta::assert_snapshot!(derive(quote! {
        #[serde(tag = "kind")]
        enum Shape {
            Circle { radius: f64 },
            At(Point),
        }
    }));
}

#[test]
fn adjacently_tagged_enum() {
    insta::assert_snapshot!(derive(quote! {
        #[serde(tag = "t", content = "c")]
        enum Shape {
            Empty,
            Circle { radius: f64 },
        }
    }));
}

#[test]
fn untagged_enum() {
    insta::assert_snapshot!(derive(quote! {
        #[serde(untagged)]
        enum Value {
            Number { n: f64 },
            Text { s: String },
        }
    }));
}

#[test]
fn newtype() {
    insta::assert_snapshot!(derive(quote! {
        /// A user id.
        struct UserId(#[param(min_length = 3)] String);
    }));
}

#[test]
fn sync_tool() {
    insta::assert_snapshot!(tool(
        quote!(name = "get_weather"),
        quote! {
            /// Get a weather forecast
            fn get_weather(args: WeatherArgs) -> String {
                args.city
            }
        }
    ));
}

#[test]
fn async_tool_with_context() {
    insta::assert_snapshot!(tool(
        quote!(read_only),
        quote! {
            /// Look something up
            async fn lookup(ctx: &ToolContext, args: LookupArgs) -> Result<String, Error> {
                Ok(args.key)
            }
        }
    ));
}

#[test]
fn plain_parameter_tool() {
    insta::assert_snapshot!(tool(
        TokenStream::new(),
        quote! {
            /// Adds two numbers.
            ///
            /// # Arguments
            ///
            /// * `a` - the first addend
            fn add(a: i32, #[param(minimum = 0)] b: u32, #[serde(default)] note: Option<String>) -> String {
                (a + b as i32).to_string()
            }
        }
    ));
}

#[test]
fn method_block() {
    insta::assert_snapshot!(pretty(crate::methods::expand(
        TokenStream::new(),
        quote! {
            impl Clock {
                /// The time now, in a zone.
                #[tool(read_only)]
                fn now(&self, zone: String) -> String {
                    self.format(&zone)
                }

                /// Waits, then answers.
                #[tool]
                async fn later(&self, ctx: &ToolContext, args: LaterArgs) -> Result<String, Error> {
                    Ok(args.text)
                }

                fn format(&self, zone: &str) -> String {
                    zone.to_owned()
                }
            }
        }
    )));
}
