//! The travel tools the examples serve: a weather forecast, a trip estimate, and a booking
//! that reports progress, logs, and asks the user to confirm.

// A tool's doc comment is its description for the model: it gets no `# Errors` section.
#![allow(clippy::missing_errors_doc, clippy::must_use_candidate)]

use std::time::Duration;

use serde::{Deserialize, Serialize};
use tool_core::{Registry, ToolArgs, ToolContext, context::Elicitation, context::LogLevel, tool};

/// Temperature units.
#[derive(Debug, Clone, Copy, Deserialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Units {
    Celsius,
    Fahrenheit,
}

#[derive(Debug, Deserialize, ToolArgs)]
pub struct WeatherArgs {
    /// City name
    #[param(min_length = 1)]
    pub city: String,
    /// How many days to forecast
    #[param(minimum = 1, maximum = 10)]
    pub days: u8,
    pub units: Option<Units>,
}

/// Get a weather forecast
#[tool(name = "get_weather")]
pub fn get_weather(args: WeatherArgs) -> String {
    let units = args.units.unwrap_or(Units::Celsius);
    format!("{}: sunny for the next {} days ({units:?})", args.city, args.days)
}

/// One leg of a trip.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Stop {
    #[param(min_length = 1, max_length = 60)]
    pub city: String,
    #[param(minimum = 1, maximum = 30)]
    pub nights: u16,
}

#[derive(Debug, Deserialize, ToolArgs)]
pub struct TripArgs {
    #[param(min_items = 1, max_items = 8)]
    pub stops: Vec<Stop>,
    /// ISO 4217 currency code
    #[param(pattern = "^[A-Z]{3}$")]
    pub currency: String,
}

/// Estimate the cost of a trip.
#[tool]
pub fn estimate_trip(ctx: &ToolContext, args: TripArgs) -> Result<String, String> {
    let rate = *ctx.state::<f64>()?;
    let nights: u16 = args.stops.iter().map(|s| s.nights).sum();
    let route: Vec<&str> = args.stops.iter().map(|s| s.city.as_str()).collect();
    Ok(format!("{}: {nights} nights, {:.2} {}", route.join(" → "), f64::from(nights) * rate, args.currency))
}

/// What the traveller confirms before a booking.
#[derive(Debug, Serialize, Deserialize, ToolArgs)]
pub struct Confirmation {
    /// Book it?
    pub confirm: bool,
    /// Where to send the tickets
    #[param(format = "email")]
    pub email: String,
}

#[derive(Debug, Deserialize, ToolArgs)]
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
    let mut registry = Registry::new().with_state(rate);
    registry
        .add(GetWeatherTool)
        .and_then(|r| r.add(EstimateTripTool))
        .and_then(|r| r.add(BookTripTool))
        .expect("the travel tools have distinct names");
    registry
}
