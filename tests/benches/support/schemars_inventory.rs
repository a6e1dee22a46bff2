/// The schemars side registers itself too, so both sides build the same list.
mod inventory_of_schemars {
    pub use tool_core::__private::inventory::submit;
    pub struct Entry {
        pub name: &'static str,
        pub schema: fn() -> schemars::Schema,
    }
    tool_core::__private::inventory::collect!(Entry);
}

/// One generated tool named `$n` taking the `Args` in scope, and its schemars entry.
macro_rules! tool_and_schema {
    ($n:literal, $doc:literal) => {
        #[doc = $doc]
        #[tool(name = $n)]
        fn generated(args: Args) -> String {
            args.name
        }

        inventory_of_schemars::submit! {
            inventory_of_schemars::Entry { name: $n, schema: || schemars::schema_for!(Args) }
        }
    };
}
