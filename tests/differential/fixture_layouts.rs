//! Every fixture layout (rowkey-fixtures' `layouts`, the IoT ones and the
//! scan tests' `GroupedSpend`): their seed rows, and adversarial values of
//! every field.

use crate::dates::{chrono_date, chrono_utc};
use crate::harness::check;
use crate::person::Person;
use crate::scalars::{decimals, priced, uuids};
use crate::values::{bytes, int, text, Noise};
use proptest::prelude::*;
use proptest::sample::select;
use rowkey::{IndexOf, RowKey};
use rowkey_fixtures::adversarial::GroupedSpend;
use rowkey_fixtures::layouts::*;

impl Person for Metric {
    fn person(&self) -> String {
        format!("{self:?}")
    }
}

/// `impl Case` for each fixture type, and a property test of adversarial
/// values of its fields.
macro_rules! fixture {
    ($($test:ident: $ty:ident { $($f:ident: $s:expr),+ $(,)? })+) => {
        $( case_impl!($ty { $($f),+ }); )+

        proptest! {
            #![proptest_config(crate::harness::config())]
            $(
                #[test]
                fn $test($($f in $s,)+ noise in crate::values::noise()) {
                    check(&$ty { $($f),+ }, &noise);
                }
            )+
        }
    };
}

/// `yyyy-MM` months, some outside the year (the ledger's group function
/// refuses them), and any text.
fn months() -> BoxedStrategy<String> {
    prop_oneof![
        (1990u32..2100, 0u32..=13).prop_map(|(y, m)| format!("{y}-{m:02}")),
        text(7),
    ]
    .boxed()
}

fn metric() -> impl Strategy<Value = Metric> {
    select(Metric::ALL.to_vec())
}

fixture! {
    order_status: OrderStatus { user_id: int::<u64>(11), ts: int::<i64>(19), order_id: int::<u32>(8) }
    hot_event: HotEvent { event_id: int::<u32>(6), date: int::<u32>(8), offset: int::<u64>(12) }
    seller_trade: SellerTrade { seller_id: int::<u32>(8), ts: int::<u64>(13), order_id: int::<u64>(10) }
    buyer_trade: BuyerTrade { buyer_id: int::<u32>(8), ts: int::<u64>(13), order_id: int::<u64>(10) }
    risk_profile: RiskProfile { uid: text(32) }
    id_card_profile: IdCardProfile { id_card: text(18) }
    phone_profile: PhoneProfile { phone: int::<u64>(11) }
    car_telemetry: CarTelemetry { car_id: text(17), ts: int::<u64>(13) }
    user_op: UserOp { uid: int::<u64>(20), at: int::<i64>(19), op: text(16) }
    site_page: SitePage { host: text(64), path: text(128) }
    call_record: CallRecord { tel: int::<u64>(11), time: int::<u64>(14) }
    ledger: Ledger { month: months(), user: text(10), rest: text(12) }
    reading: Reading { device: int::<u32>(10), metric: int::<u16>(5), at_ms: int::<i64>(19) }
    reading_by_metric: ReadingByMetric {
        metric: int::<u16>(5), at_ms: int::<i64>(19), device: int::<u32>(10)
    }
    reading_key: ReadingKey { device: text(32), metric: metric(), at: chrono_utc() }
    invoice: Invoice { day: chrono_date(), amount: prop_oneof![priced(), decimals()], id: uuids() }
    grouped_spend: GroupedSpend {
        month: int::<u8>(2), user: text(4), seq: int::<u16>(5), tail: bytes(3)
    }
}

/// The rows each fixture's generator makes (the seed data of the examples
/// and end-to-end tests), each with its key's neighbours.
#[test]
fn seed_rows() {
    const N: usize = 300;
    let quiet = Noise {
        edits: vec![],
        bytes: vec![],
    };
    fn all<T: crate::harness::Case>(rows: &[T], noise: &Noise) {
        assert!(!rows.is_empty());
        for r in rows {
            check(r, noise);
        }
    }
    all(&OrderStatus::rows(N), &quiet);
    all(&HotEvent::rows(N), &quiet);
    let trades = Trade::rows(N);
    all(
        &trades.iter().map(Trade::seller_key).collect::<Vec<_>>(),
        &quiet,
    );
    all(
        &trades.iter().map(BuyerTrade::index_key).collect::<Vec<_>>(),
        &quiet,
    );
    all(&RiskProfile::rows(N), &quiet);
    all(&IdCardProfile::rows(N), &quiet);
    all(&PhoneProfile::rows(N), &quiet);
    all(&CarTelemetry::rows(N), &quiet);
    all(&UserOp::rows(N), &quiet);
    all(&SitePage::rows(N), &quiet);
    all(&CallRecord::rows(N), &quiet);
    all(&Ledger::rows(N), &quiet);
    all(&ReadingKey::rows(N), &quiet);
    all(&Invoice::rows(N), &quiet);
}

/// The regression of the third disagreement the matrix found: with a
/// month outside the salt's groups and a user too long, the derived code
/// names the month (it checks the group where the field starts) and the
/// interpreter named the user (it checked the group after every field).
#[test]
fn a_value_outside_the_groups_is_named_before_later_fields() {
    let v = GroupedSpend {
        month: 5,
        user: "a😀".into(),
        seq: 0,
        tail: vec![],
    };
    let e = v.to_vec().unwrap_err();
    assert_eq!(
        (e.field(), e.kind()),
        ("month", rowkey::EncodeErrorKind::GroupOutOfRange)
    );
    let noise = Noise {
        edits: vec![],
        bytes: vec![],
    };
    check(&v, &noise);
}
