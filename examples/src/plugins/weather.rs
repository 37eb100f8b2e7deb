//! A tool with an enum parameter and defaults.

use toolhook::{command, tool};

/// Look up the weather forecast for a city.
///
/// Forecasts more than five days ahead are unreliable.
#[tool(core_tool = true)]
#[command(alias = ["天气"], pattern = "weather <city:text> [days:integer] [unit:text]", examples = ["weather Paris", "天气 北京 2"])]
pub async fn weather(
    /// City name, e.g. "Paris".
    city: String,
    /// Temperature unit.
    #[param(enum = ["celsius", "fahrenheit"], default = "celsius")]
    unit: String,
    /// Days ahead, 0 for today.
    #[param(default = 0)]
    days: u8,
) -> String {
    let celsius = 18 + (city.len() as i32 % 7) - i32::from(days.min(9));
    let (value, symbol) = if unit == "fahrenheit" { (celsius * 9 / 5 + 32, "°F") } else { (celsius, "°C") };
    let when = match days {
        0 => "today".to_owned(),
        1 => "tomorrow".to_owned(),
        n => format!("in {n} days"),
    };
    format!("{city}: partly cloudy, {value}{symbol} {when}")
}
