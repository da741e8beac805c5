//! URLs by site: reversed dot segments + path; every page of one site.
//!
//! Run: `cargo run --example site_pages`
mod layouts;
mod show;
use layouts::SitePage;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = SitePage::rows(10_000);
    show::layout(&rows, &SitePage::splits(), SitePage::queries(&rows))
}
