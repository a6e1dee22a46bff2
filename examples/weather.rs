//! The main example: tools defined with `#[tool]`, their compile-time schemas, and
//! model-style calls dispatched by name, one of them bad, showing the error the model gets.
#![allow(clippy::print_stdout)] // an example prints what it shows

use serde::Deserialize;
use tool_core::{DecodeOptions, Registry, ToolArgs, ToolContext, tool};

/// Temperature units.
#[derive(Debug, Clone, Copy, Deserialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
enum Units {
    Celsius,
    Fahrenheit,
}

#[derive(Debug, Deserialize, ToolArgs)]
struct WeatherArgs {
    /// City name
    #[param(min_length = 1)]
    city: String,
    /// How many days to forecast
    #[param(minimum = 1, maximum = 10)]
    days: u8,
    units: Option<Units>,
}

/// Get a weather forecast
#[tool(name = "get_weather")]
fn get_weather(args: WeatherArgs) -> String {
    let units = args.units.unwrap_or(Units::Celsius);
    format!("{}: sunny for the next {} days ({units:?})", args.city, args.days)
}

/// One leg of a trip.
#[derive(Debug, Deserialize, ToolArgs)]
struct Stop {
    #[param(min_length = 1, max_length = 60)]
    city: String,
    #[param(minimum = 1, maximum = 30)]
    nights: u16,
}

#[derive(Debug, Deserialize, ToolArgs)]
struct TripArgs {
    #[param(min_items = 1, max_items = 8)]
    stops: Vec<Stop>,
    /// ISO 4217 currency code
    #[param(pattern = "^[A-Z]{3}$")]
    currency: String,
}

/// Estimate the cost of a trip.
#[tool]
fn estimate_trip(ctx: &ToolContext, args: TripArgs) -> Result<String, String> {
    let rate = *ctx.state::<f64>()?;
    let nights: u16 = args.stops.iter().map(|s| s.nights).sum();
    let route: Vec<&str> = args.stops.iter().map(|s| s.city.as_str()).collect();
    Ok(format!("{}: {nights} nights, {:.2} {}", route.join(" → "), f64::from(nights) * rate, args.currency))
}

fn main() {
    let registry = Registry::collect().expect("tool names are unique").with_state(120.0_f64);

    println!("== Tool definitions (rendered at compile time)");
    for entry in registry.iter() {
        println!("{}\n", entry.definition_json());
    }

    let calls = [
        ("get_weather", r#"{"city": "Paris", "days": 3, "units": "celsius"}"#),
        ("get_weather", r#"{"city": "", "days": 12, "units": "kelvin", "country": "FR"}"#),
        (
            "estimate_trip",
            r#"{"stops": [{"city": "Rome", "nights": 2}, {"city": "Florence", "nights": 3}], "currency": "EUR"}"#,
        ),
        ("estimate_trip", r#"{"stops": [{"city": "Rome", "nights": 0}, {"nights": 2}], "currency": "euro"}"#),
        ("get_weather", r#"{"city": "Paris", "days": 3"#),
        ("get_forecast", "{}"),
    ];
    println!("== Calls as a model makes them");
    for (name, arguments) in calls {
        println!("-> {name}({arguments})");
        match registry.call(name, arguments) {
            Ok(output) => println!("<- ok: {}\n", output.to_text()),
            Err(error) => println!("<- error for the model:\n{error}\n"),
        }
    }

    println!("== Lenient decoding: \"3\" for 3 is fixed when asked for");
    let lenient = registry.with_options(DecodeOptions { lenient: true, ..DecodeOptions::default() });
    let output = lenient.call("get_weather", r#"{"city": "Oslo", "days": "3"}"#).expect("coerced");
    println!("<- ok: {}", output.to_text());
}
