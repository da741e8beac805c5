use rowkey::RowKey;
use rust_decimal::Decimal;

#[derive(RowKey)]
struct Price {
    #[text(width = 3, scale = 2)]
    amount: Decimal,
}

fn main() {}
