//! Registration: every `#[tool]` in the binary, from any module, in a stable order; explicit
//! registries built from chosen tools, merged with a prefix, with one removed.

use serde_json::json;
use tool_core::{Registry, RegistryError, Tool, ToolError, tool};

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
fn registry_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Registry>();
}
