//! Finding things: `hbase:meta` and the active master (from ZooKeeper or
//! the masters' registry), and a table's regions (from `hbase:meta`).

use crate::address::Registry;
use crate::error::{Error, Result};
use crate::proto;
use crate::regions::{Region, TableRegions};
use crate::scanner::RegionScanner;
use crate::servers::{Servers, META_SERVICE};
use crate::zookeeper;
use prost::Message;

/// `hbase:meta`'s one region.
pub(crate) const META_REGION: &[u8] = b"hbase:meta,,1";

/// `host:port` of a server name.
fn server(name: &proto::ServerName) -> String {
    format!("{}:{}", name.host_name, name.port.unwrap_or(16020))
}

/// Reads an HBase znode's message under the registry's parent; an error
/// if it does not exist.
async fn znode<M: Message + Default>(cluster: &Servers, node: &str) -> Result<M> {
    match znode_if_any(cluster, node).await? {
        Some(message) => Ok(message),
        None => {
            let (quorum, parent) = parent_of(cluster);
            Err(Error::ZooKeeper {
                quorum,
                why: format!(
                    "{parent}/{node} does not exist: no HBase keeps its state under {parent} \
                     there (is the znode parent right? HBase's default is /hbase; \
                     zookeeper.znode.parent says otherwise)"
                ),
            })
        }
    }
}

/// The quorum as given, and the znode parent.
fn parent_of(cluster: &Servers) -> (String, &str) {
    let Registry::ZooKeeper { parent, .. } = &cluster.registry else {
        unreachable!("only read with a ZooKeeper registry");
    };
    (cluster.registry.to_string(), parent)
}

/// Reads an HBase znode's message under the registry's parent, if it
/// exists.
async fn znode_if_any<M: Message + Default>(cluster: &Servers, node: &str) -> Result<Option<M>> {
    let Registry::ZooKeeper { servers, .. } = &cluster.registry else {
        unreachable!("only read with a ZooKeeper registry");
    };
    let (quorum, parent) = parent_of(cluster);
    let path = format!("{parent}/{node}");
    let wrong = |why: String| Error::ZooKeeper {
        quorum: quorum.clone(),
        why,
    };
    let Some(data) =
        zookeeper::read(&quorum, servers, &path, cluster.options.connect_timeout).await?
    else {
        return Ok(None);
    };
    let payload = zookeeper::hbase_payload(&data)
        .map_err(|why| wrong(format!("{path} is not HBase's: {why}")))?;
    M::decode(payload)
        .map(Some)
        .map_err(|e| wrong(format!("{path} is not HBase's: {e}")))
}

/// Where `hbase:meta` is open.
pub(crate) async fn find_meta(cluster: &Servers) -> Result<String> {
    match &cluster.registry {
        Registry::ZooKeeper { .. } => {
            let meta: proto::MetaRegionServer = znode(cluster, "meta-region-server").await?;
            Ok(server(&meta.server))
        }
        Registry::Masters { servers } => {
            let mut last = None;
            for master in servers {
                let answer = cluster
                    .call::<proto::GetMetaRegionLocationsResponse>(
                        master,
                        META_SERVICE,
                        "GetMetaRegionLocations",
                        &proto::GetMetaRegionLocationsRequest {},
                        cluster.options.call_timeout,
                    )
                    .await;
                match answer {
                    Ok((locations, _)) => {
                        let primary = locations
                            .meta_locations
                            .iter()
                            .find(|l| l.region_info.replica_id.unwrap_or(0) == 0)
                            .and_then(|l| l.server_name.as_ref());
                        match primary {
                            Some(name) => return Ok(server(name)),
                            None => {
                                last = Some(Error::RegionsInTransition {
                                    table: "hbase:meta".into(),
                                    why: format!("{master} knows no server of hbase:meta yet"),
                                })
                            }
                        }
                    }
                    Err(e) => last = Some(e),
                }
            }
            Err(last.expect("a registry has a master"))
        }
    }
}

/// The active master.
pub(crate) async fn find_master(cluster: &Servers) -> Result<String> {
    match &cluster.registry {
        Registry::ZooKeeper { .. } => match znode_if_any::<proto::Master>(cluster, "master").await?
        {
            Some(master) => Ok(server(&master.master)),
            None => {
                // The parent is HBase's (meta is found there): the master
                // is down or starting, which a retry may outlast.
                znode::<proto::MetaRegionServer>(cluster, "meta-region-server").await?;
                let (quorum, parent) = parent_of(cluster);
                Err(Error::Connection {
                    server: "the active master".into(),
                    why: format!(
                        "no master is active: {parent}/master does not exist in {quorum}, \
                         though {parent}/meta-region-server does (the master is down or still \
                         starting; a backup master takes over if there is one)"
                    ),
                })
            }
        },
        Registry::Masters { servers } => {
            let mut last = None;
            for master in servers {
                let answer = cluster
                    .call::<proto::GetActiveMasterResponse>(
                        master,
                        META_SERVICE,
                        "GetActiveMaster",
                        &proto::GetActiveMasterRequest {},
                        cluster.options.call_timeout,
                    )
                    .await;
                match answer {
                    Ok((active, _)) => match active.server_name {
                        Some(name) => return Ok(server(&name)),
                        None => last = Some(Error::protocol(master, "no active master named")),
                    },
                    Err(e) => last = Some(e),
                }
            }
            Err(last.expect("a registry has a master"))
        }
    }
}

/// The name `hbase:meta` keys a table by: `ns:table`, or `table` in the
/// default namespace.
pub(crate) fn meta_name(table: &str) -> &str {
    table.strip_prefix("default:").unwrap_or(table)
}

/// A table's regions, read from `hbase:meta`: its rows from `TABLE,,` up
/// to `TABLE ,,` (meta orders keys by table name first, so a space sorts
/// after every row of `TABLE`).
pub(crate) async fn table_regions(
    cluster: &Servers,
    meta: &str,
    table: &str,
) -> Result<std::sync::Arc<TableRegions>> {
    let name = meta_name(table);
    let scan = proto::Scan {
        start_row: Some([name.as_bytes(), b",,"].concat()),
        stop_row: Some([name.as_bytes(), b" ,,"].concat()),
        column: vec![proto::Column {
            family: b"info".to_vec(),
            qualifier: vec![],
        }],
        caching: Some(1000),
        ..Default::default()
    };
    let (mut scanner, mut page) = RegionScanner::open(
        cluster,
        cluster.options.call_timeout,
        meta,
        META_REGION,
        scan,
        1000,
    )
    .await?;
    let mut regions = Vec::new();
    loop {
        for row in page.rows.drain(..) {
            if let Some(region) = region_of(name, &row, meta)? {
                regions.push(region);
            }
        }
        if !page.open {
            break;
        }
        page = scanner.next(1000).await?;
    }
    scanner.close().await;
    TableRegions::new(table, regions).map(std::sync::Arc::new)
}

/// The region a row of `hbase:meta` describes, if it is an open primary
/// region of `table`; an error if it is in transition (no server).
fn region_of(table: &str, row: &crate::types::RowResult, meta: &str) -> Result<Option<Region>> {
    let value = |qualifier: &[u8]| {
        row.cells
            .iter()
            .find(|c| c.family == b"info" && c.qualifier == qualifier)
            .map(|c| c.value.as_slice())
    };
    let Some(info) = value(b"regioninfo") else {
        return Ok(None);
    };
    let info = info
        .strip_prefix(b"PBUF".as_slice())
        .ok_or_else(|| Error::protocol(meta, "info:regioninfo without its PBUF magic"))
        .and_then(|pb| {
            proto::RegionInfo::decode(pb)
                .map_err(|e| Error::protocol(meta, format!("info:regioninfo: {e}")))
        })?;
    let info_table = if info.table_name.namespace == b"default" {
        info.table_name.qualifier.clone()
    } else {
        [
            &info.table_name.namespace[..],
            b":",
            &info.table_name.qualifier[..],
        ]
        .concat()
    };
    if info_table != table.as_bytes()
        || info.offline.unwrap_or(false)
        || info.split.unwrap_or(false)
        || info.replica_id.unwrap_or(0) != 0
    {
        return Ok(None);
    }
    let Some(server) = value(b"server").and_then(|s| std::str::from_utf8(s).ok()) else {
        return Err(Error::RegionsInTransition {
            table: table.to_owned(),
            why: format!(
                "region {} is not open on any server yet",
                crate::regions::binary(&row.row)
            ),
        });
    };
    Ok(Some(Region {
        name: row.row.clone(),
        start: info.start_key.unwrap_or_default(),
        end: info.end_key.unwrap_or_default(),
        server: server.to_owned(),
        server_start: value(b"serverstartcode")
            .and_then(|v| <[u8; 8]>::try_from(v).ok())
            .map_or(0, u64::from_be_bytes),
    }))
}
