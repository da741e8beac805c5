//! Connected car telemetry: md5_hex(car_id)[0..6] + car_id + ts; one car's hour.
//!
//! Run: `cargo run --example car_telemetry`
mod layouts;
mod show;
use layouts::CarTelemetry;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = CarTelemetry::rows(10_000);
    show::layout(&rows, &CarTelemetry::splits(), CarTelemetry::queries(&rows))
}
