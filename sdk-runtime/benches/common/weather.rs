//! The tool the invoke benches call: `weather` as a `#[tool]`, and what the hand-written and
//! rmcp baselines call instead (included with `#[path]` by each bench that needs it).

use toolhook::tool;

/// The argument text every invoke bench starts from.
pub(crate) const ARGS: &str = r#"{"city":"Paris","days":3}"#;

/// The work of the tool, shared by every form of the call.
pub(crate) fn forecast(city: &str, days: u32) -> String {
    format!("{city}: sunny for {days} days")
}

/// Look up the weather forecast of a city.
#[tool(core_tool = true)]
async fn weather(
    /// The city's name.
    city: String,
    /// How many days to forecast.
    days: u32,
) -> String {
    forecast(&city, days)
}

/// The arguments, as a hand-written caller decodes them.
#[derive(serde::Deserialize)]
pub(crate) struct Args {
    pub(crate) city: String,
    pub(crate) days: u32,
}

/// A current-thread runtime: every figure includes one `block_on` of it.
pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime")
}

/// The baseline every invoke bench compares with: the call written by hand, in the same
/// `block_on` (parse the arguments into a struct, call the fn, turn its output into a value).
pub(crate) fn hand_written(b: divan::Bencher<'_, '_>) {
    let rt = runtime();
    b.bench_local(|| {
        rt.block_on(async {
            let args: Args = serde_json::from_str(divan::black_box(ARGS)).expect("valid arguments");
            serde_json::to_value(forecast(&args.city, args.days)).expect("a value")
        })
    });
}
