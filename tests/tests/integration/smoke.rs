use serde::Deserialize;
use tool_core::{ToolArgs, tool};

#[derive(Debug, Deserialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
enum Units {
    Celsius,
    Fahrenheit,
}

/// Weather request.
#[derive(Debug, Deserialize, ToolArgs)]
struct WeatherArgs {
    /// City name
    #[param(min_length = 1)]
    city: String,
    #[param(minimum = 1, maximum = 10)]
    days: u8,
    units: Option<Units>,
}

/// Get a weather forecast
#[tool(name = "get_weather")]
fn get_weather(args: WeatherArgs) -> String {
    format!("{} for {} days in {:?}", args.city, args.days, args.units)
}

#[test]
fn smoke() {
    let registry = tool_core::Registry::collect().unwrap();
    let entry = registry.get("get_weather").unwrap();
    println!("{}", entry.definition_json());
    println!("{:?}", registry.call("get_weather", r#"{"city":"Paris","days":3}"#));
    println!("{}", registry.call("get_weather", r#"{"city":"","days":30, "units":"kelvin", "x": 1}"#).unwrap_err());
}
