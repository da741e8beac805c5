use rowkey::RowKey;
use uuid::Uuid;

#[derive(RowKey)]
struct Session {
    #[text(width = 32)]
    id: Uuid,
}

fn main() {}
