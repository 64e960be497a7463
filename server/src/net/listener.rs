//! The listening socket: every accepted TCP connection gets `TCP_NODELAY`, a deadline for its
//! handshake, and a place among the connections that have not said `hello`.
//!
//! Why no-delay matters: a client that waits for its `accepted` before sending the next command
//! (a GM at the table, a bot) meets Nagle's algorithm on the server and delayed ACKs on its own
//! side. With Nagle on, a small write that follows an unacknowledged one waits until the client
//! acknowledges — and the client delays that ACK by up to 40 ms. Fray answers every command with
//! small frames, so without no-delay each command cost ~44 ms (BENCHMARKS.md).
//! The connection writer coalesces what is queued into one flush, so no-delay does not multiply
//! the packets.
//!
//! The handshake guard: from TCP accept until the WebSocket `hello` is accepted (or, for plain
//! HTTP, for the whole life of the connection) reads and writes fail with `TimedOut` after
//! [`Limits::handshake_timeout`](super::limits::Limits), so sockets that never send a request
//! or never upgrade cannot pile up; and at most [`Limits::max_unhello`] such connections exist at
//! once — a connection beyond that is closed as soon as it is accepted.

use super::limits::Limits;
use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener};
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Sleep;

/// A connection's place among those that have not said `hello`; freed by
/// [`Handshake::greeted`] or when the connection goes.
#[derive(Debug)]
pub struct Handshake {
    open: Arc<AtomicUsize>,
    done: AtomicBool,
}

impl Handshake {
    /// The WebSocket said `hello`: lift the deadline and free the place.
    pub fn greeted(&self) {
        if !self.done.swap(true, Ordering::AcqRel) {
            self.open.fetch_sub(1, Ordering::AcqRel);
        }
    }

    fn is_done(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }
}

impl Drop for Handshake {
    fn drop(&mut self) {
        self.greeted();
    }
}

/// What the HTTP handlers learn of a connection (axum `ConnectInfo`).
#[derive(Debug, Clone)]
pub struct Peer {
    /// The client's address.
    pub addr: SocketAddr,
    /// Its handshake guard.
    pub handshake: Arc<Handshake>,
}

/// An accepted TCP stream under the handshake guard.
pub struct Guarded {
    tcp: TcpStream,
    handshake: Arc<Handshake>,
    deadline: Option<Pin<Box<Sleep>>>,
}

impl Guarded {
    /// The socket (tests check its options).
    pub fn tcp(&self) -> &TcpStream {
        &self.tcp
    }

    /// Fails once the deadline has passed while the handshake is not done.
    fn check_deadline(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
        if self.handshake.is_done() {
            self.deadline = None;
            return Ok(());
        }
        let expired = match self.deadline.as_mut() {
            Some(d) => d.as_mut().poll(cx).is_ready(),
            None => false,
        };
        if expired {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "no WebSocket hello before the handshake deadline",
            ));
        }
        Ok(())
    }
}

impl AsyncRead for Guarded {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.check_deadline(cx)?;
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.check_deadline(cx)?;
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.check_deadline(cx)?;
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}

/// A TCP listener whose accepted sockets have `TCP_NODELAY` set and a handshake guard.
pub struct FrayListener {
    inner: TcpListener,
    open: Arc<AtomicUsize>,
    max_unhello: usize,
    timeout: Duration,
}

impl FrayListener {
    /// Wraps a bound listener.
    pub fn new(inner: TcpListener, limits: &Limits) -> FrayListener {
        FrayListener {
            inner,
            open: Arc::new(AtomicUsize::new(0)),
            max_unhello: limits.max_unhello,
            timeout: limits.handshake_timeout,
        }
    }

    /// Connections accepted that have not said `hello` yet.
    pub fn unhello(&self) -> usize {
        self.open.load(Ordering::Acquire)
    }

    /// Accepts one connection and configures it; `Ok(None)` when it was closed at once because
    /// too many connections are waiting for their `hello`.
    pub async fn accept_one(&mut self) -> io::Result<Option<(Guarded, SocketAddr)>> {
        let (tcp, addr) = self.inner.accept().await?;
        if self.open.load(Ordering::Acquire) >= self.max_unhello {
            tracing::debug!(%addr, "too many connections without hello; closed");
            drop(tcp);
            return Ok(None);
        }
        if let Err(e) = tcp.set_nodelay(true) {
            // The connection still works, only slower: say so and carry on.
            tracing::warn!(%addr, error = %e, "cannot set TCP_NODELAY");
        }
        self.open.fetch_add(1, Ordering::AcqRel);
        let handshake = Arc::new(Handshake {
            open: self.open.clone(),
            done: AtomicBool::new(false),
        });
        let guarded = Guarded {
            tcp,
            handshake,
            deadline: Some(Box::pin(tokio::time::sleep(self.timeout))),
        };
        Ok(Some((guarded, addr)))
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
    type Io = Guarded;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            match self.accept_one().await {
                Ok(Some(conn)) => return conn,
                Ok(None) => {}
                Err(e) if is_connection_error(&e) => {}
                Err(e) => {
                    tracing::error!(error = %e, "accept failed; retrying in 100 ms");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.inner.local_addr()
    }
}

impl Connected<IncomingStream<'_, FrayListener>> for Peer {
    fn connect_info(stream: IncomingStream<'_, FrayListener>) -> Self {
        Peer {
            addr: *stream.remote_addr(),
            handshake: stream.io().handshake.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    fn limits(max_unhello: usize, timeout: Duration) -> Limits {
        Limits {
            max_unhello,
            handshake_timeout: timeout,
            ..Limits::default()
        }
    }

    #[tokio::test]
    async fn every_accepted_socket_has_no_delay_set() -> io::Result<()> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let mut listener = FrayListener::new(listener, &Limits::default());
        let addr = Listener::local_addr(&listener)?;
        for _ in 0..3 {
            let client = TcpStream::connect(addr).await?;
            let (server_side, peer) = Listener::accept(&mut listener).await;
            assert_eq!(peer, client.local_addr()?);
            assert!(
                server_side.tcp().nodelay()?,
                "TCP_NODELAY must be set on {peer}"
            );
        }
        Ok(())
    }

    #[tokio::test]
    async fn a_connection_that_never_says_hello_fails_at_the_deadline() -> io::Result<()> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let mut listener = FrayListener::new(listener, &limits(8, Duration::from_millis(100)));
        let addr = Listener::local_addr(&listener)?;
        let _client = TcpStream::connect(addr).await?;
        let (mut server_side, _) = Listener::accept(&mut listener).await;
        assert_eq!(listener.unhello(), 1);
        let mut buf = [0u8; 16];
        let err = server_side.read(&mut buf).await.err();
        assert_eq!(err.map(|e| e.kind()), Some(io::ErrorKind::TimedOut));
        drop(server_side);
        assert_eq!(
            listener.unhello(),
            0,
            "the place is freed with the connection"
        );
        Ok(())
    }

    #[tokio::test]
    async fn a_greeted_connection_has_no_deadline_and_frees_its_place() -> io::Result<()> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let mut listener = FrayListener::new(listener, &limits(8, Duration::from_millis(1)));
        let addr = Listener::local_addr(&listener)?;
        let mut client = TcpStream::connect(addr).await?;
        let (mut server_side, _) = Listener::accept(&mut listener).await;
        server_side.handshake.greeted();
        assert_eq!(listener.unhello(), 0);
        tokio::time::sleep(Duration::from_millis(20)).await;
        tokio::io::AsyncWriteExt::write_all(&mut client, b"x").await?;
        let mut buf = [0u8; 1];
        server_side.read_exact(&mut buf).await?;
        assert_eq!(&buf, b"x");
        Ok(())
    }

    #[tokio::test]
    async fn connections_beyond_the_cap_without_hello_are_closed_at_once() -> io::Result<()> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let mut listener = FrayListener::new(listener, &limits(2, Duration::from_secs(60)));
        let addr = Listener::local_addr(&listener)?;
        let _a = TcpStream::connect(addr).await?;
        let _b = TcpStream::connect(addr).await?;
        let mut c = TcpStream::connect(addr).await?;
        let first = listener.accept_one().await?;
        let second = listener.accept_one().await?;
        assert!(first.is_some() && second.is_some());
        assert!(
            listener.accept_one().await?.is_none(),
            "the third is closed"
        );
        let mut buf = [0u8; 1];
        assert_eq!(c.read(&mut buf).await?, 0, "the client sees the close");
        Ok(())
    }
}
