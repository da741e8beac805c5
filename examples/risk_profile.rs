//! Risk profile lookups: md5_hex(uid)[0..5] + uid; point gets.
//!
//! Run: `cargo run --example risk_profile`
mod layouts;
mod show;
use layouts::RiskProfile;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = RiskProfile::rows(10_000);
    show::layout(&rows, &RiskProfile::splits(), RiskProfile::queries(&rows))
}
