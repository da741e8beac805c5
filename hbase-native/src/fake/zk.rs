//! The fake ZooKeeper: it answers the client's session request and its
//! one `getData` of `/hbase/meta-region-server` (as `zookeeper.rs`
//! sends them), honestly or as a [`Zk`] says.

use crate::proto;
use prost::Message;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// How the fake ZooKeeper answers.
#[derive(Clone, Copy, Debug)]
pub(super) enum Zk {
    /// The meta server's name, as HBase writes it.
    Honest,
    /// An HTTP error instead of a `ConnectResponse`.
    Garbage,
    /// A reply length of `claim`, `sent` bytes of it, then silence.
    Claim { claim: i32, sent: usize },
    /// Closes as soon as the session request is read.
    Closes,
    /// A session of timeout 0: no session.
    Refused,
    /// Pings, and never the `getData` reply.
    Pings,
    /// No such znode.
    NoNode,
    /// A znode that is not HBase's (no magic byte).
    NotHBase,
    /// HBase's magic, an id and `PBUF`, then no protobuf.
    BadPayload,
    /// A `getData` reply whose data claims more bytes than it holds.
    ShortData,
    /// The meta server's name, and no `/hbase/master`: a master down.
    NoMaster,
}

/// Serves ZooKeeper sessions on `listener`; the znode names the meta
/// server at 127.0.0.1:`meta_port`.
pub(super) async fn serve(listener: TcpListener, mode: Zk, meta_port: u16) {
    while let Ok((stream, _)) = listener.accept().await {
        tokio::spawn(async move {
            // A client that goes away mid-session is no failure of the fake.
            let _ = session(stream, mode, meta_port).await;
        });
    }
}

async fn session(mut stream: TcpStream, mode: Zk, meta_port: u16) -> std::io::Result<()> {
    receive(&mut stream).await?;
    match mode {
        Zk::Closes => return Ok(()),
        Zk::Garbage => {
            stream
                .write_all(b"HTTP/1.1 400 Bad Request\r\n\r\n")
                .await?;
            return hold(stream).await;
        }
        Zk::Claim { claim, sent } => {
            stream.write_all(&claim.to_be_bytes()).await?;
            stream.write_all(&vec![0x42; sent]).await?;
            return hold(stream).await;
        }
        _ => {}
    }
    // ConnectResponse: protocol version, timeout, session id, password.
    let timeout: i32 = if matches!(mode, Zk::Refused) {
        0
    } else {
        10_000
    };
    let mut reply = 0i32.to_be_bytes().to_vec();
    reply.extend_from_slice(&timeout.to_be_bytes());
    reply.extend_from_slice(&0x1234i64.to_be_bytes());
    reply.extend_from_slice(&16i32.to_be_bytes());
    reply.extend_from_slice(&[0; 16]);
    send(&mut stream, &reply).await?;
    let get = receive(&mut stream).await?;
    let xid = get.get(..4).map_or([0; 4], |b| b.try_into().unwrap());
    if matches!(mode, Zk::Pings) {
        // Ping replies (xid -2) until the client gives up.
        let mut ping = (-2i32).to_be_bytes().to_vec();
        ping.extend_from_slice(&[0; 12]);
        loop {
            send(&mut stream, &ping).await?;
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }
    // ReplyHeader (xid, zxid, err), then the data and a stat.
    let mut reply = xid.to_vec();
    reply.extend_from_slice(&0i64.to_be_bytes());
    // GetDataRequest: xid, op, the path's length and the path, watch.
    let path = get
        .get(8..12)
        .map(|n| u32::from_be_bytes(n.try_into().unwrap()) as usize)
        .and_then(|n| get.get(12..12 + n))
        .unwrap_or_default();
    let data = match mode {
        Zk::NoNode => None,
        Zk::NoMaster if path.ends_with(b"/master") => None,
        Zk::NotHBase => Some(b"not hbase".to_vec()),
        Zk::BadPayload => Some(hbase_data(b"\xff\xff\xff")),
        _ => Some(hbase_data(
            &proto::MetaRegionServer {
                server: proto::ServerName {
                    host_name: "127.0.0.1".into(),
                    port: Some(meta_port.into()),
                    start_code: Some(1),
                },
                rpc_version: None,
            }
            .encode_to_vec(),
        )),
    };
    match data {
        None => reply.extend_from_slice(&(-101i32).to_be_bytes()),
        Some(data) => {
            reply.extend_from_slice(&0i32.to_be_bytes());
            let claimed = if matches!(mode, Zk::ShortData) {
                data.len() + 1000
            } else {
                data.len()
            };
            reply.extend_from_slice(&(claimed as i32).to_be_bytes());
            reply.extend_from_slice(&data);
            if !matches!(mode, Zk::ShortData) {
                reply.extend_from_slice(&[0; 68]); // Stat
            }
        }
    }
    send(&mut stream, &reply).await?;
    // The closeSession, if it comes.
    let _ = receive(&mut stream).await;
    Ok(())
}

/// A znode's data as HBase writes it: the magic byte, the writer's id,
/// `PBUF`, the message.
fn hbase_data(message: &[u8]) -> Vec<u8> {
    let id = b"fake-master";
    let mut data = vec![0xff];
    data.extend_from_slice(&(id.len() as u32).to_be_bytes());
    data.extend_from_slice(id);
    data.extend_from_slice(b"PBUF");
    data.extend_from_slice(message);
    data
}

async fn send(stream: &mut TcpStream, body: &[u8]) -> std::io::Result<()> {
    let mut frame = (body.len() as i32).to_be_bytes().to_vec();
    frame.extend_from_slice(body);
    stream.write_all(&frame).await
}

async fn receive(stream: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let len = stream.read_u32().await? as usize;
    let mut body = vec![0; len.min(1 << 20)];
    stream.read_exact(&mut body).await?;
    Ok(body)
}

/// Keeps the connection open, saying nothing, until the client closes it.
async fn hold(mut stream: TcpStream) -> std::io::Result<()> {
    tokio::io::copy(&mut stream, &mut tokio::io::sink()).await?;
    Ok(())
}
