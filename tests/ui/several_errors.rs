use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(separator = "_")]
struct Messy {
    #[text(width = 30)]
    tel: u64,
    name: String,
    #[pad(widht = 4)]
    city: String,
    ratio: f32,
    #[desc_ts]
    at: u32,
}

fn main() {}
