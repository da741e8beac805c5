//! Risk profile lookups: md5_hex(uid)[0..5] + uid; point gets.
//!
//! Run: `cargo run --example risk_profile`
use layouts::RiskProfile;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = RiskProfile::rows(10_000);
    rowkey_fixtures::show::layout(&rows, &RiskProfile::splits(), RiskProfile::queries(&rows))
}
