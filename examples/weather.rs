//! The main example: the travel tools (defined with `#[tool]` in `travel.rs`), their
//! compile-time schemas, and model-style calls dispatched by name, some of them bad, showing
//! the errors the model gets.
#![allow(clippy::print_stdout)] // an example prints what it shows

use tool_core::dispatch::DecodeOptions;

fn main() {
    let registry = tool_examples::registry(120.0);

    println!("== Tool definitions (from their compile-time schemas)");
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
    let lenient = registry.with_options(DecodeOptions::default().lenient(true));
    let output = lenient.call("get_weather", r#"{"city": "Oslo", "days": "3"}"#).expect("coerced");
    println!("<- ok: {}", output.to_text());
}
