//! The hotspot picture as a person sees it: its SVG rasterised to PNG by
//! resvg, with the machine's fonts, so that labels are laid out and cut
//! as a viewer lays them out.

use resvg::{tiny_skia, usvg};
use std::path::Path;

/// Rasterises the SVG at `svg` to a PNG at `png`; the PNG's size.
pub fn svg_to_png(svg: &Path, png: &Path) -> (u32, u32) {
    let data = std::fs::read(svg).unwrap();
    let mut options = usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_system_fonts();
    // fontdb maps `sans-serif` to Arial, which a Linux machine seldom has;
    // a viewer there draws DejaVu Sans (or the first face it has).
    let sans = ["DejaVu Sans", "Liberation Sans", "Noto Sans"]
        .into_iter()
        .map(String::from)
        .chain(
            fonts
                .faces()
                .flat_map(|f| f.families.first().map(|n| n.0.clone())),
        )
        .find(|name| {
            fonts
                .faces()
                .any(|f| f.families.iter().any(|n| &n.0 == name))
        });
    if let Some(name) = sans {
        fonts.set_sans_serif_family(name);
    }
    let tree = usvg::Tree::from_data(&data, &options).expect("the picture is SVG");
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.save_png(png).unwrap();
    // Read back: a PNG, of the SVG's size.
    let back = tiny_skia::Pixmap::load_png(png).expect("a valid PNG");
    (back.width(), back.height())
}

/// Where a test keeps a copy of a picture to look at:
/// `$ROWKEY_HOTSPOT_PNG-<name>.png` when that is set.
pub fn keep(png: &Path, name: &str) {
    if let Ok(prefix) = std::env::var("ROWKEY_HOTSPOT_PNG") {
        std::fs::copy(png, format!("{prefix}-{name}.png")).unwrap();
    }
}
