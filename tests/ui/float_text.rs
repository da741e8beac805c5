use rowkey::RowKey;

// Floats are binary key parts (total order); they have no digit form.
#[derive(RowKey)]
struct Reading {
    sensor: u32,
    #[text(width = 8)]
    celsius: f64,
}

fn main() {}
