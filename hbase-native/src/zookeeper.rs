//! Just enough of ZooKeeper's protocol to read a znode: a session, one
//! `getData`, a close. HBase keeps where `hbase:meta` is
//! (`/hbase/meta-region-server`) and which master is active
//! (`/hbase/master`) there; its data is a `0xFF` magic byte, the 4-byte
//! length and id of whoever wrote it, `PBUF`, then a protobuf message.
//!
//! ZooKeeper's own encoding (jute) is big-endian: a request or reply is a
//! 4-byte length and then its fields; a buffer or string is a 4-byte
//! length (-1: none) and its bytes.

use crate::error::{Error, Result};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// `getData`'s op code.
const GET_DATA: i32 = 4;
/// `closeSession`'s op code.
const CLOSE: i32 = -11;
/// ZooKeeper's error code for a znode that does not exist.
const NO_NODE: i32 = -101;
/// The session timeout asked for: the session only lives for one read.
const SESSION_MS: i32 = 10_000;

/// Reads znode `path` from the first server of `quorum` that answers:
/// `Ok(None)` when it does not exist. `quorum` is what errors call it.
pub(crate) async fn read(
    quorum: &str,
    servers: &[String],
    path: &str,
    timeout: Duration,
) -> Result<Option<Vec<u8>>> {
    let mut why = Vec::new();
    let mut answered_wrong = false;
    for server in servers {
        match tokio::time::timeout(timeout, read_from(server, path)).await {
            Ok(Ok(data)) => return Ok(data),
            Ok(Err(Failure::Unreachable(e))) => why.push(format!("{server}: {e}")),
            Ok(Err(Failure::Wrong(e))) => {
                answered_wrong = true;
                why.push(format!("{server}: {e}"))
            }
            Err(_) => why.push(format!(
                "{server}: no answer within {:.1} s (is it a ZooKeeper server?)",
                timeout.as_secs_f64()
            )),
        }
    }
    let why = why.join("; ");
    if answered_wrong {
        return Err(Error::ZooKeeper {
            quorum: quorum.to_owned(),
            why,
        });
    }
    // No server of the quorum could be reached: a blip (a ZooKeeper
    // restarting, a leader election) as much as a wrong address, so a
    // connection failure, retried as one.
    Err(Error::Connection {
        server: quorum.to_owned(),
        why: format!("no ZooKeeper server could be reached: {why}"),
    })
}

/// Why one server gave no znode.
enum Failure {
    /// No connection, or it broke: the server may be back soon.
    Unreachable(String),
    /// It answered, but not as ZooKeeper does.
    Wrong(String),
}

impl From<&str> for Failure {
    fn from(why: &str) -> Failure {
        Failure::Wrong(why.to_owned())
    }
}

async fn read_from(server: &str, path: &str) -> std::result::Result<Option<Vec<u8>>, Failure> {
    let mut stream = TcpStream::connect(server)
        .await
        .map_err(|e| Failure::Unreachable(e.to_string()))?;
    let _ = stream.set_nodelay(true);
    // ConnectRequest: protocol version, last zxid seen, timeout, session
    // id, password (16 bytes), read-only.
    let mut connect = Vec::new();
    connect.extend_from_slice(&0i32.to_be_bytes());
    connect.extend_from_slice(&0i64.to_be_bytes());
    connect.extend_from_slice(&SESSION_MS.to_be_bytes());
    connect.extend_from_slice(&0i64.to_be_bytes());
    connect.extend_from_slice(&16i32.to_be_bytes());
    connect.extend_from_slice(&[0; 16]);
    connect.push(0);
    send(&mut stream, &connect).await?;
    let reply = receive(&mut stream).await?;
    // ConnectResponse: protocol version, timeout, session id, password.
    if reply.len() < 20 || i32::from_be_bytes(reply[4..8].try_into().unwrap()) <= 0 {
        return Err(Failure::Wrong(format!(
            "it did not answer as ZooKeeper does ({} bytes: {:02x?})",
            reply.len(),
            &reply[..reply.len().min(16)]
        )));
    }
    // GetDataRequest: header (xid, op), path, watch.
    let mut get = Vec::new();
    get.extend_from_slice(&1i32.to_be_bytes());
    get.extend_from_slice(&GET_DATA.to_be_bytes());
    get.extend_from_slice(&(path.len() as i32).to_be_bytes());
    get.extend_from_slice(path.as_bytes());
    get.push(0);
    send(&mut stream, &get).await?;
    let reply = loop {
        let reply = receive(&mut stream).await?;
        // Skip pings and notifications (xid < 0).
        if reply.len() >= 4 && i32::from_be_bytes(reply[..4].try_into().unwrap()) == 1 {
            break reply;
        }
    };
    // ReplyHeader: xid, zxid, err; then the data buffer and the stat.
    if reply.len() < 16 {
        return Err("a getData reply too short".into());
    }
    let err = i32::from_be_bytes(reply[12..16].try_into().unwrap());
    let data = match err {
        0 => {
            let len = reply
                .get(16..20)
                .map(|b| i32::from_be_bytes(b.try_into().unwrap()))
                .ok_or("a getData reply without data")?;
            let len = usize::try_from(len).unwrap_or(0);
            let data = reply
                .get(20..20 + len)
                .ok_or("a getData reply shorter than its data")?;
            Some(data.to_vec())
        }
        NO_NODE => None,
        code => {
            return Err(Failure::Wrong(format!(
                "getData {path} failed with ZooKeeper error {code}"
            )))
        }
    };
    let mut close = Vec::new();
    close.extend_from_slice(&2i32.to_be_bytes());
    close.extend_from_slice(&CLOSE.to_be_bytes());
    let _ = send(&mut stream, &close).await;
    Ok(data)
}

async fn send(stream: &mut TcpStream, body: &[u8]) -> std::result::Result<(), Failure> {
    let mut frame = (body.len() as i32).to_be_bytes().to_vec();
    frame.extend_from_slice(body);
    stream
        .write_all(&frame)
        .await
        .map_err(|e| Failure::Unreachable(e.to_string()))
}

async fn receive(stream: &mut TcpStream) -> std::result::Result<Vec<u8>, Failure> {
    let mut len = [0u8; 4];
    stream.read_exact(&mut len).await.map_err(|e| {
        Failure::Unreachable(if e.kind() == std::io::ErrorKind::UnexpectedEof {
            "it closed the connection (is it a ZooKeeper server?)".to_owned()
        } else {
            e.to_string()
        })
    })?;
    let len = i32::from_be_bytes(len);
    if !(0..=(16 << 20)).contains(&len) {
        return Err(Failure::Wrong(format!(
            "a reply of {len} bytes: it does not answer as ZooKeeper does"
        )));
    }
    // Grown as the bytes come: a length is only a claim.
    let mut body = Vec::new();
    crate::connection::read_frame(stream, len as usize, &mut body)
        .await
        .map_err(|e| Failure::Unreachable(e.to_string()))?;
    Ok(body)
}

/// The protobuf inside HBase's znode data (after the magic, the writer's
/// id and `PBUF`).
pub(crate) fn hbase_payload(data: &[u8]) -> std::result::Result<&[u8], String> {
    let rest = match data.split_first() {
        Some((0xff, rest)) => rest,
        _ => return Err("it does not start with HBase's magic byte 0xFF".into()),
    };
    let id_len = rest
        .get(..4)
        .map(|b| u32::from_be_bytes(b.try_into().unwrap()) as usize)
        .ok_or("it ends before its writer's id")?;
    let rest = rest
        .get(4 + id_len..)
        .ok_or("it ends inside its writer's id")?;
    rest.strip_prefix(b"PBUF".as_slice())
        .ok_or_else(|| "no PBUF magic after its writer's id".into())
}

#[cfg(test)]
mod tests {
    use super::hbase_payload;

    #[test]
    fn payloads_are_found_after_the_magic_and_the_id() {
        let mut data = vec![0xff, 0, 0, 0, 3, b'a', b'b', b'c'];
        data.extend_from_slice(b"PBUF\x0a\x01x");
        assert_eq!(hbase_payload(&data).unwrap(), b"\x0a\x01x");
        for n in 0..data.len() - 3 {
            assert!(hbase_payload(&data[..n]).is_err(), "{n}");
        }
        assert!(hbase_payload(b"\x00\x00\x00\x00\x00PBUF").is_err());
    }
}
