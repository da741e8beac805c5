//! Every integer width, signed and unsigned: binary (big-endian, the sign
//! bit flipped), `#[desc]`, `#[text]` at the type's full width and at a
//! narrower `#[text(width)]`, reversed digits, descending digits; and
//! `#[desc_ts]` on `i64` and `u64`, as 8 bytes and as 19 digits.

use crate::values::int;

matrix! {
    u8_binary: u8 = int::<u8>(3);
    u8_desc: u8 [#[desc]] = int::<u8>(3);
    u8_text: u8 [#[text]] = int::<u8>(3);
    u8_text_width: u8 [#[text(width = 2)]] = int::<u8>(2);
    u8_text_reverse: u8 [#[text(width = 2)] #[reverse]] = int::<u8>(2);
    u8_text_desc: u8 [#[desc] #[text(width = 2)]] = int::<u8>(2);
    u16_binary: u16 = int::<u16>(5);
    u16_desc: u16 [#[desc]] = int::<u16>(5);
    u16_text: u16 [#[text]] = int::<u16>(5);
    u16_text_width: u16 [#[text(width = 4)]] = int::<u16>(4);
    u16_text_reverse: u16 [#[text(width = 4)] #[reverse]] = int::<u16>(4);
    u16_text_desc: u16 [#[desc] #[text(width = 4)]] = int::<u16>(4);
    u32_binary: u32 = int::<u32>(10);
    u32_desc: u32 [#[desc]] = int::<u32>(10);
    u32_text: u32 [#[text]] = int::<u32>(10);
    u32_text_width: u32 [#[text(width = 6)]] = int::<u32>(6);
    u32_text_reverse: u32 [#[text(width = 6)] #[reverse]] = int::<u32>(6);
    u32_text_desc: u32 [#[desc] #[text(width = 6)]] = int::<u32>(6);
    u64_binary: u64 = int::<u64>(20);
    u64_desc: u64 [#[desc]] = int::<u64>(20);
    u64_text: u64 [#[text]] = int::<u64>(20);
    u64_text_width: u64 [#[text(width = 11)]] = int::<u64>(11);
    u64_text_reverse: u64 [#[text(width = 11)] #[reverse]] = int::<u64>(11);
    u64_text_desc: u64 [#[desc] #[text(width = 11)]] = int::<u64>(11);
    u128_binary: u128 = int::<u128>(39);
    u128_desc: u128 [#[desc]] = int::<u128>(39);
    u128_text: u128 [#[text]] = int::<u128>(39);
    u128_text_width: u128 [#[text(width = 20)]] = int::<u128>(20);
    u128_text_reverse: u128 [#[text(width = 20)] #[reverse]] = int::<u128>(20);
    u128_text_desc: u128 [#[desc] #[text(width = 20)]] = int::<u128>(20);
    i8_binary: i8 = int::<i8>(3);
    i8_desc: i8 [#[desc]] = int::<i8>(3);
    i8_text: i8 [#[text]] = int::<i8>(3);
    i8_text_width: i8 [#[text(width = 2)]] = int::<i8>(2);
    i8_text_reverse: i8 [#[text(width = 2)] #[reverse]] = int::<i8>(2);
    i8_text_desc: i8 [#[desc] #[text(width = 2)]] = int::<i8>(2);
    i16_binary: i16 = int::<i16>(5);
    i16_desc: i16 [#[desc]] = int::<i16>(5);
    i16_text: i16 [#[text]] = int::<i16>(5);
    i16_text_width: i16 [#[text(width = 4)]] = int::<i16>(4);
    i16_text_reverse: i16 [#[text(width = 4)] #[reverse]] = int::<i16>(4);
    i16_text_desc: i16 [#[desc] #[text(width = 4)]] = int::<i16>(4);
    i32_binary: i32 = int::<i32>(10);
    i32_desc: i32 [#[desc]] = int::<i32>(10);
    i32_text: i32 [#[text]] = int::<i32>(10);
    i32_text_width: i32 [#[text(width = 6)]] = int::<i32>(6);
    i32_text_reverse: i32 [#[text(width = 6)] #[reverse]] = int::<i32>(6);
    i32_text_desc: i32 [#[desc] #[text(width = 6)]] = int::<i32>(6);
    i64_binary: i64 = int::<i64>(19);
    i64_desc: i64 [#[desc]] = int::<i64>(19);
    i64_text: i64 [#[text]] = int::<i64>(19);
    i64_text_width: i64 [#[text(width = 13)]] = int::<i64>(13);
    i64_text_reverse: i64 [#[text(width = 13)] #[reverse]] = int::<i64>(13);
    i64_text_desc: i64 [#[desc] #[text(width = 13)]] = int::<i64>(13);
    i128_binary: i128 = int::<i128>(39);
    i128_desc: i128 [#[desc]] = int::<i128>(39);
    i128_text: i128 [#[text]] = int::<i128>(39);
    i128_text_width: i128 [#[text(width = 25)]] = int::<i128>(25);
    i128_text_reverse: i128 [#[text(width = 25)] #[reverse]] = int::<i128>(25);
    i128_text_desc: i128 [#[desc] #[text(width = 25)]] = int::<i128>(25);
    i64_desc_ts: i64 [#[desc_ts]] = int::<i64>(19);
    u64_desc_ts: u64 [#[desc_ts]] = int::<u64>(19);
    i64_desc_ts_text: i64 [#[desc_ts] #[text]] = int::<i64>(19);
    u64_desc_ts_text: u64 [#[desc_ts] #[text(width = 19)]] = int::<u64>(19);
}
