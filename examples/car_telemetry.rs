//! Connected car telemetry: md5_hex(car_id)[0..6] + car_id + ts; one car's hour.
//!
//! Run: `cargo run --example car_telemetry`
use layouts::CarTelemetry;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = CarTelemetry::rows(10_000);
    rowkey_fixtures::show::layout(&rows, &CarTelemetry::splits(), CarTelemetry::queries(&rows))
}
