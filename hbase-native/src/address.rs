//! Where a client finds HBase: a ZooKeeper quorum and znode parent
//! (`zk://HOST:PORT[,HOST:PORT...][/PARENT]`), or the masters themselves
//! (`hbase://HOST:PORT[,HOST:PORT...]`, HBase 2.5+'s RPC connection
//! registry).

use crate::error::{Error, Result};
use std::fmt;

/// ZooKeeper's default client port.
const ZK_PORT: u16 = 2181;
/// HBase's default master RPC port.
const MASTER_PORT: u16 = 16000;

/// Where to find a cluster.
///
/// ```
/// use hbase_native::Registry;
/// let r: Registry = "zk://zk1:2181,zk2/hbase-unsecure".parse().unwrap();
/// assert_eq!(r, Registry::ZooKeeper {
///     servers: vec!["zk1:2181".into(), "zk2:2181".into()],
///     parent: "/hbase-unsecure".into(),
/// });
/// let r: Registry = "hbase://m1:16000".parse().unwrap();
/// assert_eq!(r, Registry::Masters { servers: vec!["m1:16000".into()] });
/// assert!("127.0.0.1:9090".parse::<Registry>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Registry {
    /// A ZooKeeper quorum (`hbase.zookeeper.quorum`) and the cluster's
    /// znode parent (`zookeeper.znode.parent`, `/hbase` by default).
    ZooKeeper {
        /// `host:port` each.
        servers: Vec<String>,
        /// Starts with `/`, no `/` at its end.
        parent: String,
    },
    /// The masters' RPC addresses (`hbase.masters`).
    Masters {
        /// `host:port` each.
        servers: Vec<String>,
    },
}

impl Registry {
    /// Whether `address` names a registry this client reads (`zk://` or
    /// `hbase://`), rather than a Thrift gateway's `host:port`.
    pub fn is_native(address: &str) -> bool {
        address.starts_with("zk://") || address.starts_with("hbase://")
    }
}

impl fmt::Display for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Registry::ZooKeeper { servers, parent } => {
                write!(f, "zk://{}{}", servers.join(","), parent)
            }
            Registry::Masters { servers } => write!(f, "hbase://{}", servers.join(",")),
        }
    }
}

impl std::str::FromStr for Registry {
    type Err = Error;

    fn from_str(address: &str) -> Result<Self> {
        let invalid = |why: String| Error::InvalidAddress {
            address: address.to_owned(),
            why,
        };
        if let Some(rest) = address.strip_prefix("zk://") {
            let (hosts, parent) = match rest.find('/') {
                Some(i) => (&rest[..i], &rest[i..]),
                None => (rest, "/hbase"),
            };
            let parent = parent.trim_end_matches('/');
            if parent.is_empty() {
                return Err(invalid(
                    "the znode parent is `/`: HBase's is `/hbase` unless \
                     zookeeper.znode.parent says otherwise"
                        .into(),
                ));
            }
            Ok(Registry::ZooKeeper {
                servers: servers(hosts, ZK_PORT).map_err(invalid)?,
                parent: parent.to_owned(),
            })
        } else if let Some(rest) = address.strip_prefix("hbase://") {
            if rest.contains('/') {
                return Err(invalid("hbase:// takes masters' host:port, no path".into()));
            }
            Ok(Registry::Masters {
                servers: servers(rest, MASTER_PORT).map_err(invalid)?,
            })
        } else {
            Err(invalid(
                "expected zk://HOST:PORT[,HOST:PORT...][/ZNODE_PARENT] (a ZooKeeper quorum) \
                 or hbase://HOST:PORT[,...] (the masters)"
                    .into(),
            ))
        }
    }
}

/// `host[:port]` each, comma-separated, with `default` for a missing port.
fn servers(list: &str, default: u16) -> std::result::Result<Vec<String>, String> {
    let mut out = Vec::new();
    for server in list.split(',') {
        let server = server.trim();
        if server.is_empty() {
            return Err(format!("an empty host in {list:?}"));
        }
        let port_of = |port: &str| {
            port.parse::<u16>()
                .ok()
                .filter(|p| *p > 0)
                .ok_or_else(|| format!("{port:?} is not a port, in {server:?}"))
        };
        // `[v6]` or `[v6]:port`; else `host` or `host:port`.
        let (host, port) = if server.starts_with('[') {
            match server.split_once(']') {
                Some((v6, "")) => (&server[..v6.len() + 1], default),
                Some((v6, rest)) => match rest.strip_prefix(':') {
                    Some(port) => (&server[..v6.len() + 1], port_of(port)?),
                    None => return Err(format!("{rest:?} after the address in {server:?}")),
                },
                None => return Err(format!("no ']' closes the address in {server:?}")),
            }
        } else {
            match server.rsplit_once(':') {
                Some((host, _)) if host.contains(':') => {
                    return Err(format!(
                        "an IPv6 address goes in brackets: [{server}] (or [{server}]:PORT)"
                    ))
                }
                Some((host, port)) => (host, port_of(port)?),
                None => (server, default),
            }
        };
        if host.is_empty() || host == "[]" {
            return Err(format!("no host in {server:?}"));
        }
        out.push(format!("{host}:{port}"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_read_as_users_write_them() {
        let zk = |s: &str| s.parse::<Registry>();
        assert_eq!(
            zk("zk://a").unwrap(),
            Registry::ZooKeeper {
                servers: vec!["a:2181".into()],
                parent: "/hbase".into()
            }
        );
        assert_eq!(
            zk("zk://a:1,b:2/x/y/").unwrap(),
            Registry::ZooKeeper {
                servers: vec!["a:1".into(), "b:2".into()],
                parent: "/x/y".into()
            }
        );
        assert_eq!(
            zk("zk://[::1]").unwrap(),
            Registry::ZooKeeper {
                servers: vec!["[::1]:2181".into()],
                parent: "/hbase".into()
            }
        );
        assert_eq!(
            zk("hbase://[::1]:7,[fe80::2]").unwrap(),
            Registry::Masters {
                servers: vec!["[::1]:7".into(), "[fe80::2]:16000".into()],
            }
        );
        for bad in [
            "zk://[::1",
            "zk://::1",
            "zk://[::1]x",
            "zk://[::1]:",
            "zk://[]",
            "zk://",
            "zk://a:0",
            "zk://a:x",
            "zk://,a",
            "zk://a/",
            "hbase://a/x",
            "a:1",
            "",
        ] {
            let e = zk(bad).unwrap_err();
            assert!(matches!(e, Error::InvalidAddress { .. }), "{bad}: {e}");
        }
        assert_eq!(zk("zk://a:1/p").unwrap().to_string(), "zk://a:1/p");
    }
}
