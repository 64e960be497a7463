//! A small typed WebSocket client of the Fray protocol, used by the demo bots (and by the
//! end-to-end tests). It speaks the real protocol over a real socket, in either encoding.

use fray_protocol::codec::{Encoding, Frame, decode_server, encode};
use fray_protocol::{ClientMessage, PROTOCOL_VERSION, ServerMessage};
use futures_util::{SinkExt, StreamExt};
use thiserror::Error;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Client errors.
#[derive(Debug, Error)]
pub enum ClientError {
    /// WebSocket failure.
    #[error("websocket: {0}")]
    Ws(#[from] tokio_tungstenite::tungstenite::Error),
    /// Codec failure.
    #[error("codec: {0}")]
    Codec(#[from] fray_protocol::codec::CodecError),
    /// The server closed the connection.
    #[error("connection closed")]
    Closed,
}

/// A connected client.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The negotiated encoding.
    pub encoding: Encoding,
}

impl Client {
    /// Connects to `ws://addr/ws` offering the encoding's subprotocol.
    pub async fn connect(url: &str, encoding: Encoding) -> Result<Client, ClientError> {
        let mut req = url.into_client_request()?;
        req.headers_mut().insert(
            "Sec-WebSocket-Protocol",
            HeaderValue::from_static(encoding.subprotocol()),
        );
        let (ws, _) = tokio_tungstenite::connect_async(req).await?;
        Ok(Client { ws, encoding })
    }

    /// Sends a message.
    pub async fn send(&mut self, msg: &ClientMessage) -> Result<(), ClientError> {
        let m = match encode(msg, self.encoding)? {
            Frame::Text(s) => Message::Text(s.into()),
            Frame::Binary(b) => Message::Binary(b.into()),
        };
        self.ws.send(m).await?;
        Ok(())
    }

    /// Sends raw bytes as a frame (tests of bad input).
    pub async fn send_raw(&mut self, msg: Message) -> Result<(), ClientError> {
        self.ws.send(msg).await?;
        Ok(())
    }

    /// Sends `hello`.
    pub async fn hello(&mut self, token: &str, resume_from: Option<u64>) -> Result<(), ClientError> {
        self.send(&ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            token: token.to_owned(),
            resume_from,
        })
        .await
    }

    /// Receives the next server message (skipping pings).
    pub async fn recv(&mut self) -> Result<ServerMessage, ClientError> {
        loop {
            let Some(m) = self.ws.next().await else {
                return Err(ClientError::Closed);
            };
            let bytes: Vec<u8> = match m? {
                Message::Text(t) => t.as_bytes().to_vec(),
                Message::Binary(b) => b.to_vec(),
                Message::Close(_) => return Err(ClientError::Closed),
                _ => continue,
            };
            return Ok(decode_server(&bytes, self.encoding)?);
        }
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}
