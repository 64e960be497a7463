//! The listening socket: every accepted TCP connection gets `TCP_NODELAY`.
//!
//! Why no-delay matters: a client that waits for its `accepted` before sending the next command
//! (a GM at the table, a bot) meets Nagle's algorithm on the server and delayed ACKs on its own
//! side. With Nagle on, a small write that follows an unacknowledged one waits until the client
//! acknowledges — and the client delays that ACK by up to 40 ms. Fray answers every command with
//! small frames, so without no-delay each command cost ~44 ms (BENCHMARKS.md, "Closed loop").
//! The connection writer already coalesces what is queued into one flush, so no-delay does not
//! multiply the packets.

use axum::serve::Listener;
use std::io;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};

/// A TCP listener whose accepted sockets have `TCP_NODELAY` set.
pub struct FrayListener {
    inner: TcpListener,
}

impl FrayListener {
    /// Wraps a bound listener.
    pub fn new(inner: TcpListener) -> FrayListener {
        FrayListener { inner }
    }

    /// Accepts one connection and configures it; errors are the accept's own.
    pub async fn accept_one(&mut self) -> io::Result<(TcpStream, SocketAddr)> {
        let (stream, addr) = self.inner.accept().await?;
        if let Err(e) = stream.set_nodelay(true) {
            // The connection still works, only slower: say so and carry on.
            tracing::warn!(%addr, error = %e, "cannot set TCP_NODELAY");
        }
        Ok((stream, addr))
    }
}

/// Whether an accept error concerns one connection only (retry at once) or the process (back
/// off, e.g. out of file descriptors, so that the loop does not spin).
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

impl Listener for FrayListener {
    type Io = TcpStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            match self.accept_one().await {
                Ok(conn) => return conn,
                Err(e) if is_connection_error(&e) => {}
                Err(e) => {
                    tracing::error!(error = %e, "accept failed; retrying in 1 s");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.inner.local_addr()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn every_accepted_socket_has_no_delay_set() -> io::Result<()> {
        let mut listener = FrayListener::new(TcpListener::bind("127.0.0.1:0").await?);
        let addr = Listener::local_addr(&listener)?;
        for _ in 0..3 {
            let client = TcpStream::connect(addr).await?;
            let (server_side, peer) = Listener::accept(&mut listener).await;
            assert_eq!(peer, client.local_addr()?);
            assert!(server_side.nodelay()?, "TCP_NODELAY must be set on {peer}");
        }
        Ok(())
    }
}
