//! Latest user operations and URLs by site.
#![allow(dead_code)]

use super::*;

// 7. Latest user operations: uid + (MAX - ts).

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct UserOp {
    pub uid: u64,
    #[desc_ts]
    pub at: i64,
    #[max_len(16)]
    pub op: String,
}

impl UserOp {
    pub fn rows(n: usize) -> Vec<Self> {
        let mut r = Rng(7);
        let ops = ["login", "view", "buy", "logout"];
        (0..n)
            .map(|i| UserOp {
                uid: r.below(200),
                at: (T0 + r.below(DAY)) as i64,
                op: format!("{}-{i}", ops[i % 4]),
            })
            .collect()
    }
    /// Eight regions over the 200 generated uids.
    pub fn splits() -> SplitKeys {
        SplitKeys::new((1..8u64).map(|i| (i * 25).to_be_bytes().to_vec()))
    }
    pub fn queries(rows: &[Self]) -> Vec<Query<Self, { UserOp::MAX_LEN + 1 }>> {
        let u = rows[0].uid;
        let (t1, t2) = ((T0 + 6 * HOUR) as i64, (T0 + 12 * HOUR) as i64);
        vec![
            Query::new(
                format!("latest 10 operations of user {u}"),
                UserOp::scan().uid(u).plan().unwrap().with_limit(10),
                move |r: &Self| r.uid == u,
            ),
            Query::new(
                format!("user {u}, 06:00 to 12:00"),
                UserOp::scan().uid(u).at_between(t1, t2).unwrap(),
                move |r: &Self| r.uid == u && (t1..t2).contains(&r.at),
            ),
        ]
    }
}

// 8. URLs by site: reversed dot segments + path.

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct SitePage {
    #[max_len(64)]
    #[reverse(segments = ".")]
    pub host: String,
    #[max_len(128)]
    pub path: String,
}

impl SitePage {
    pub fn rows(n: usize) -> Vec<Self> {
        let mut r = Rng(8);
        let hosts = [
            "www.iteblog.com",
            "blog.iteblog.com",
            "www.example.org",
            "example.org",
            "a.b.example.org",
        ];
        (0..n)
            .map(|i| SitePage {
                host: hosts[r.below(5) as usize].to_string(),
                path: format!("/archives/{i}"),
            })
            .collect()
    }
    /// Top-level domains apart: `com.` sites, then `org.` sites.
    pub fn splits() -> SplitKeys {
        SplitKeys::new([b"net".to_vec()])
    }
    pub fn queries(rows: &[Self]) -> Vec<Query<Self, { SitePage::MAX_LEN + 1 }>> {
        let h = rows[0].host.clone();
        let host = h.clone();
        vec![Query::new(
            format!("every page of {h}"),
            SitePage::scan().host(&h).plan().unwrap(),
            move |r: &Self| r.host == host,
        )]
    }
}
