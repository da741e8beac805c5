use rowkey::RowKey;
use rust_decimal::Decimal;

// #[desc] inverts a fixed-width part: each of these takes several widths,
// and each is an error at its attribute, not in const evaluation.
#[derive(RowKey)]
struct Prices {
    #[desc]
    amount: Option<Decimal>,
    #[desc]
    level: Option<Option<u8>>,
    #[desc]
    total: Decimal,
    #[desc]
    fine: Option<u8>,
}

fn main() {}
