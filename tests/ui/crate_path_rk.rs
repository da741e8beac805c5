// A crate path cannot start with `__rk`: inside the derive's expansion that
// name is rowkey's private module, so the path would name one `Step` in the
// scan state structs and another in their `ScanField` impls, which core
// casts between.
#[allow(unused_imports)]
mod __rk {
    pub use rowkey::__private;
    pub mod scan {
        pub use rowkey::scan::*;
    }
}

#[derive(rowkey::RowKey)]
#[rowkey(crate = "__rk")]
struct Key {
    id: u64,
}

fn main() {}
