//! Fixtures shared by the benchmarks and the instruction-count harness: a representative
//! tool, and the hand-written code it is measured against.

use std::future::Future;

use serde::Deserialize;
use tool_core::{ToolArgs, tool};

/// A representative call: three properties, a length, a range and an enum.
pub const CALL: &str = r#"{"city": "San Francisco", "days": 5, "units": "fahrenheit"}"#;

/// Temperature units.
#[derive(Debug, Clone, Copy, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Units {
    Celsius,
    Fahrenheit,
}

/// The arguments of `get_weather`.
#[derive(Debug, ToolArgs)]
pub struct WeatherArgs {
    /// City name
    #[param(min_length = 1, max_length = 80)]
    pub city: String,
    #[param(minimum = 1, maximum = 10)]
    pub days: u8,
    pub units: Option<Units>,
}

/// The work both sides do once the arguments are decoded.
#[must_use]
pub fn forecast(city: &str, days: u8, units: Option<Units>) -> String {
    let mut out = String::with_capacity(city.len() + 24);
    out.push_str(city);
    out.push_str(if matches!(units, Some(Units::Fahrenheit)) { " F " } else { " C " });
    out.push(char::from(b'0' + days % 10));
    out
}

/// Get a weather forecast
#[tool(name = "weather_forecast")]
#[must_use]
pub fn get_weather(args: WeatherArgs) -> String {
    forecast(&args.city, args.days, args.units)
}

/// Get a weather forecast
///
/// # Arguments
/// * `city` - City name
#[tool(name = "weather_forecast_plain")]
#[must_use]
pub fn get_weather_plain(
    #[param(min_length = 1, max_length = 80)] city: String,
    #[param(minimum = 1, maximum = 10)] days: u8,
    units: Option<Units>,
) -> String {
    forecast(&city, days, units)
}

/// A server whose method is the same tool again, reading a setting through `&self`.
#[derive(Debug, Default)]
pub struct Forecaster {
    /// Added to every forecast's day count (0 here: the same work as the fn).
    pub offset: u8,
}

/// `WeatherArgs` again, for the method: with a type of its own, its decoding is inlined
/// or not as the fn's is, whatever the other forms do.
#[derive(Debug, ToolArgs)]
pub struct ForecastArgs {
    /// City name
    #[param(min_length = 1, max_length = 80)]
    pub city: String,
    #[param(minimum = 1, maximum = 10)]
    pub days: u8,
    pub units: Option<Units>,
}

#[tool_core::tools]
impl Forecaster {
    /// Get a weather forecast
    #[tool(name = "weather_forecast_method")]
    #[must_use]
    pub fn forecast(&self, args: ForecastArgs) -> String {
        forecast(&args.city, args.days + self.offset, args.units)
    }
}

/// The same arguments for serde alone.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HandArgs {
    city: String,
    days: u8,
    units: Option<Units>,
}

/// The baseline: serde with unknown fields denied, the same checks written out, the call.
///
/// # Errors
/// The first failed check.
pub fn hand_written(arguments: &str) -> Result<String, String> {
    let args: HandArgs = serde_json::from_str(arguments).map_err(|e| e.to_string())?;
    let length = args.city.chars().count();
    if !(1..=80).contains(&length) {
        return Err(format!("/city: length {length} is out of 1..=80"));
    }
    if !(1..=10).contains(&args.days) {
        return Err(format!("/days: {} is out of 1..=10", args.days));
    }
    Ok(forecast(&args.city, args.days, args.units))
}

/// A minimal executor for the tests: the crate imposes no runtime, so they bring the
/// smallest one (park the thread until woken).
pub fn block_on<F: Future>(future: F) -> F::Output {
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut context = Context::from_waker(&waker);
    let mut future = Box::pin(future);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
        std::thread::park();
    }
}
