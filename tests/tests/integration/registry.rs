//! Registration: every `#[tool]` in the binary, from any module, in a stable order; explicit
//! registries built from chosen tools, merged with a prefix, with one removed.

use serde_json::json;
use tool_core::{DynamicTool, Registry, RegistryError, Tool, ToolContext, ToolError, ToolOutput, tool};

mod nested {
    pub mod deeper {
        /// Registered from a nested module.
        #[tool_core::tool]
        pub fn deep_tool() -> String {
            "deep".to_owned()
        }
    }
}

/// Echoes its input.
#[tool(name = "echo-text")]
fn echo(args: super::dispatch::DivideArgs) -> String {
    format!("{} {}", args.a, args.b)
}

#[test]
fn every_tool_in_the_binary_is_registered_sorted_by_name() {
    let registry = Registry::collect().expect("names are unique");
    let names = registry.names();
    for name in ["deep_tool", "echo-text", "plan_trip", "divide", "forecast"] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
    assert_eq!(registry.iter().map(tool_core::Entry::name).collect::<Vec<_>>(), names);
    assert_eq!(
        registry.get("deep_tool").expect("present").def().expect("a #[tool] fn").rust_path(),
        "integration::registry::nested::deeper::deep_tool"
    );
}

#[test]
fn explicit_registry_from_chosen_tools() {
    let mut registry = Registry::new();
    registry.add(EchoTool).expect("new").add(nested::deeper::DeepToolTool).expect("new");
    assert_eq!(registry.names(), ["deep_tool", "echo-text"]);
    assert_eq!(registry.call("echo-text", json!({"a": 1, "b": 2})).expect("runs").to_text(), "1 2");
    assert!(matches!(registry.call("divide", "{}"), Err(ToolError::UnknownTool { .. })));
    let definitions: serde_json::Value = serde_json::from_str(&registry.definitions_json()).expect("JSON");
    assert_eq!(definitions[0]["name"], "deep_tool");
    assert_eq!(definitions[1]["name"], "echo-text");
}

#[test]
fn adding_a_name_twice_is_an_error_naming_both() {
    let mut registry = Registry::new();
    registry.add(EchoTool).expect("new");
    let error = registry.add(EchoTool.def()).expect_err("duplicate");
    assert_eq!(
        error,
        RegistryError::DuplicateName {
            name: "echo-text".to_owned(),
            first: "integration::registry::echo",
            second: "integration::registry::echo",
        }
    );
    assert!(error.to_string().contains("two tools are named \"echo-text\""));
}

#[test]
fn merge_with_prefix_and_remove() {
    let mut weather = Registry::new();
    weather.add(EchoTool).expect("new").add(nested::deeper::DeepToolTool).expect("new");
    let mut all = Registry::new();
    all.add(EchoTool).expect("new");
    all.merge_prefixed("mcp_weather_", &weather).expect("valid names");
    assert_eq!(all.names(), ["echo-text", "mcp_weather_deep_tool", "mcp_weather_echo-text"]);
    assert_eq!(all.call("mcp_weather_echo-text", json!({"a": 3, "b": 4})).expect("runs").to_text(), "3 4");
    let entry = all.get("mcp_weather_deep_tool").expect("merged");
    let definition: serde_json::Value = serde_json::from_str(entry.definition_json()).expect("JSON");
    assert_eq!(definition["name"], "mcp_weather_deep_tool");
    assert_eq!(definition["parameters"], json!({"type": "object", "properties": {}, "additionalProperties": false}));
    // Merging again collides; nothing is added then.
    assert!(matches!(all.merge_prefixed("mcp_weather_", &weather), Err(RegistryError::DuplicateName { .. })));
    assert_eq!(all.len(), 3);
    // A prefix that makes a name invalid is refused.
    let long = "x".repeat(60);
    assert!(matches!(all.merge_prefixed(&long, &weather), Err(RegistryError::InvalidName { .. })));
    assert!(all.remove("mcp_weather_echo-text").is_some());
    assert!(all.remove("mcp_weather_echo-text").is_none());
    assert_eq!(all.names(), ["echo-text", "mcp_weather_deep_tool"]);
    assert!(matches!(all.call("mcp_weather_echo-text", "{}"), Err(ToolError::UnknownTool { .. })));
}

#[test]
fn a_colliding_merge_names_the_tool_already_there_first() {
    let handler = |_: ToolContext, _| async { Ok(ToolOutput::text("")) };
    let dynamic = || DynamicTool::new("echo-text", "", r#"{"type":"object"}"#, handler).expect("valid");
    let mut with_static = Registry::new();
    with_static.add(EchoTool).expect("new");
    let mut with_dynamic = Registry::new();
    with_dynamic.add_dynamic(dynamic()).expect("new");
    let duplicate = |first, second| RegistryError::DuplicateName { name: "echo-text".to_owned(), first, second };
    assert_eq!(
        with_dynamic.clone().merge_prefixed("", &with_static).expect_err("collides"),
        duplicate("a tool made at run time", "integration::registry::echo")
    );
    assert_eq!(
        with_static.clone().merge_prefixed("", &with_dynamic).expect_err("collides"),
        duplicate("integration::registry::echo", "a tool made at run time")
    );
    assert_eq!(with_static.len(), 1);
}

#[test]
fn registry_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Registry>();
}

mod grouped {
    /// A tool of this crate in the `admin` group, beside the fixture crate's.
    #[tool_core::tool(group = "admin")]
    pub fn local_admin() -> String {
        "local".to_owned()
    }
}

#[test]
fn a_crate_names_its_tools_and_the_binary_collects_exactly_those() {
    let registry = Registry::collect_crates(&[&tool_fixture_tools::TOOLS]).expect("linked");
    assert_eq!(registry.names(), ["fixture_clock", "fixture_restart", "shout"]);
    assert_eq!(tool_fixture_tools::TOOLS.name(), "tool_fixture_tools");
    assert_eq!(registry.call("shout", r#"{"text": "hi"}"#).expect("valid").to_text(), "HI");
    // Everything is still there for `collect`, this crate's tools and the fixture's.
    let all = Registry::collect().expect("unique");
    assert!(all.get("shout").is_some() && all.get("deep_tool").is_some());
}

#[test]
fn a_group_collects_its_tools_from_every_crate() {
    let admin = Registry::collect_group("admin").expect("linked");
    assert_eq!(admin.names(), ["fixture_restart", "local_admin"]);
    let public = Registry::collect_group("public").expect("linked");
    assert_eq!(public.names(), ["fixture_clock", "shout"]);
    assert_eq!(
        admin.get("local_admin").and_then(tool_core::Entry::def).and_then(tool_core::ToolDef::group),
        Some("admin")
    );
}

#[test]
fn a_module_collects_the_tools_inside_it() {
    assert_eq!(Registry::collect_module("tool_fixture_tools::admin").expect("linked").names(), ["fixture_restart"]);
    let nested = Registry::collect_module("integration::registry::nested").expect("linked");
    assert_eq!(nested.names(), ["deep_tool"]);
    // A prefix of a module's name is not the module.
    assert!(Registry::collect_module("integration::registry::nest").is_err());
}

#[test]
fn a_selection_that_finds_nothing_is_a_loud_error() {
    let error = Registry::collect_group("admins").expect_err("misspelt");
    assert_eq!(error, RegistryError::NoneCollected { selection: "group \"admins\"".to_owned() });
    let message = error.to_string();
    assert!(message.contains("tool_crate!()") && message.contains("collect_crates"), "{message}");
    assert!(matches!(
        Registry::collect_module("no_such_crate"),
        Err(RegistryError::NoneCollected { selection }) if selection == "module no_such_crate"
    ));
}
