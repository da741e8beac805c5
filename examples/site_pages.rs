//! URLs by site: reversed dot segments + path; every page of one site.
//!
//! Run: `cargo run --example site_pages`
use layouts::SitePage;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = SitePage::rows(10_000);
    rowkey_fixtures::show::layout(&rows, &SitePage::splits(), SitePage::queries(&rows))
}
