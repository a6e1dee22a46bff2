//! The travel tools the examples serve: a weather forecast, a trip estimate, and a booking
//! that reports progress, logs, and asks the user to confirm.

// A tool's doc comment is its description for the model: it gets no `# Errors` section.
#![allow(clippy::missing_errors_doc, clippy::must_use_candidate)]

use std::time::Duration;

use serde::Serialize;
use tool_core::{Registry, ToolArgs, ToolContext, context::Elicitation, context::LogLevel, tool, tools};

/// Temperature units.
#[derive(Debug, Clone, Copy, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Units {
    Celsius,
    Fahrenheit,
}

/// Get a weather forecast
///
/// # Arguments
/// * `city` - City name
/// * `days` - How many days to forecast
#[tool(name = "get_weather")]
pub fn get_weather(
    #[param(min_length = 1)] city: String,
    #[param(minimum = 1, maximum = 10)] days: u8,
    units: Option<Units>,
) -> String {
    let units = units.unwrap_or(Units::Celsius);
    format!("{city}: sunny for the next {days} days ({units:?})")
}

/// One leg of a trip.
#[derive(Debug, ToolArgs)]
pub struct Stop {
    #[param(min_length = 1, max_length = 60)]
    pub city: String,
    #[param(minimum = 1, maximum = 30)]
    pub nights: u16,
}

#[derive(Debug, ToolArgs)]
pub struct TripArgs {
    #[param(min_items = 1, max_items = 8)]
    pub stops: Vec<Stop>,
    /// ISO 4217 currency code
    #[param(pattern = "^[A-Z]{3}$")]
    pub currency: String,
}

/// The travel agency's settings, shared by its tools through `&self`.
#[derive(Debug)]
pub struct Agency {
    /// The price of a night, in any currency.
    pub nightly_rate: f64,
}

#[tools]
impl Agency {
    /// Estimate the cost of a trip.
    #[tool]
    pub fn estimate_trip(&self, args: TripArgs) -> String {
        let nights: u16 = args.stops.iter().map(|s| s.nights).sum();
        let route: Vec<&str> = args.stops.iter().map(|s| s.city.as_str()).collect();
        let cost = f64::from(nights) * self.nightly_rate;
        format!("{}: {nights} nights, {cost:.2} {}", route.join(" → "), args.currency)
    }
}

/// What the traveller confirms before a booking.
#[derive(Debug, Serialize, ToolArgs)]
pub struct Confirmation {
    /// Book it?
    pub confirm: bool,
    /// Where to send the tickets
    #[param(format = "email")]
    pub email: String,
}

#[derive(Debug, ToolArgs)]
pub struct BookingArgs {
    /// The trip to book
    pub trip: TripArgs,
}

/// Book a trip, after the traveller confirms it.
#[tool(destructive, open_world = false)]
pub async fn book_trip(ctx: &ToolContext, args: BookingArgs) -> Result<String, String> {
    let legs = u32::try_from(args.trip.stops.len()).unwrap_or(u32::MAX);
    ctx.log(LogLevel::Info, format!("booking {legs} legs"));
    let confirmation = match ctx.elicit::<Confirmation>(format!("Book {legs} legs in {}?", args.trip.currency)).await? {
        Elicitation::Accepted(confirmation) if confirmation.confirm => confirmation,
        Elicitation::Accepted(_) | Elicitation::Declined | Elicitation::Cancelled => {
            return Ok("Not booked: the traveller said no.".to_owned());
        }
    };
    for (done, stop) in (0..).zip(&args.trip.stops) {
        if ctx.is_cancelled() {
            return Err(format!("cancelled after {done} of {legs} legs"));
        }
        ctx.report_progress(f64::from(done), Some(f64::from(legs)), Some(&format!("booking {}", stop.city)));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    ctx.report_progress(f64::from(legs), Some(f64::from(legs)), Some("done"));
    Ok(format!("Booked {legs} legs; tickets go to {}.", confirmation.email))
}

/// The travel tools, with a nightly rate of `rate` for estimates.
///
/// # Panics
/// Never: the three tools have distinct names.
#[must_use]
pub fn registry(rate: f64) -> Registry {
    let mut registry = Registry::new();
    registry
        .add(GetWeatherTool)
        .and_then(|r| r.add(BookTripTool))
        .and_then(|r| r.add_all(Agency { nightly_rate: rate }))
        .expect("the travel tools have distinct names");
    registry
}
