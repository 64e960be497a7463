//! The server's address as the user gives it (`--server`): `host:port`, plain or behind a
//! TLS-terminating proxy (`https://`, `wss://`), the URLs of its HTTP paths and WebSocket, and
//! the certificates trusted over TLS (`--ca-cert`).

use crate::tls::Trust;
use anyhow::{Result, anyhow, bail};
use fray_server::demo::client::TlsRoots;
use tokio_tungstenite::Connector;

/// A server address, normalised to `host:port`, whether it is reached over TLS, and what TLS
/// trusts besides the web's roots.
#[derive(Debug, Clone)]
pub struct Server {
    authority: String,
    tls: bool,
    trust: Option<Trust>,
}

impl Server {
    /// Parses `host:port`, `host` (port 7878; 443 over TLS), or either with an `http://`,
    /// `ws://`, `https://` or `wss://` prefix and a trailing path (ignored). `https://` and
    /// `wss://` reach the server over TLS (a proxy in front of it; README, "Running it for
    /// others").
    pub fn parse(text: &str) -> Result<Server> {
        let mut rest = text.trim();
        let mut tls = false;
        for (scheme, secure) in [
            ("http://", false),
            ("ws://", false),
            ("https://", true),
            ("wss://", true),
        ] {
            if let Some(stripped) = rest.strip_prefix(scheme) {
                rest = stripped;
                tls = secure;
            }
        }
        let authority = rest.split('/').next().unwrap_or_default();
        if authority.is_empty() {
            bail!("`{text}` is not a server address (expected host:port, e.g. 127.0.0.1:7878)");
        }
        let has_port = if let Some(v6) = authority.strip_prefix('[') {
            v6.split_once(']')
                .map(|(_, after)| after.starts_with(':'))
                .ok_or_else(|| anyhow!("`{text}`: unterminated IPv6 address"))?
        } else {
            authority.contains(':')
        };
        let authority = if has_port {
            let port = authority.rsplit(':').next().unwrap_or_default();
            port.parse::<u16>()
                .map_err(|_| anyhow!("`{text}`: `{port}` is not a port number"))?;
            authority.to_owned()
        } else if tls {
            format!("{authority}:443")
        } else {
            format!("{authority}:7878")
        };
        Ok(Server {
            authority,
            tls,
            trust: None,
        })
    }

    /// The same address, trusting `trust`'s certificates over TLS as well as the web's roots.
    pub fn trusting(self, trust: Option<Trust>) -> Server {
        Server { trust, ..self }
    }

    /// Whether two addresses name the same server the same way (scheme, host and port).
    pub fn same_address(&self, other: &Server) -> bool {
        (self.tls, &self.authority) == (other.tls, &other.authority)
    }

    /// The address as `--server` takes it back: `host:port`, `https://host:port` over TLS.
    pub fn as_argument(&self) -> String {
        if self.tls {
            format!("https://{}", self.authority)
        } else {
            self.authority.clone()
        }
    }

    /// `host:port`.
    pub fn authority(&self) -> &str {
        &self.authority
    }

    /// The WebSocket endpoint (`wss://` over TLS).
    pub fn ws_url(&self) -> String {
        let scheme = if self.tls { "wss" } else { "ws" };
        format!("{scheme}://{}/ws", self.authority)
    }

    /// The roots the HTTP client trusts.
    pub fn http_roots(&self) -> TlsRoots {
        self.trust
            .as_ref()
            .map_or_else(TlsRoots::web, Trust::http_roots)
    }

    /// The WebSocket's TLS connector: `None` is tungstenite's own (the web's roots).
    pub fn ws_connector(&self) -> Option<Connector> {
        self.trust.as_ref().map(Trust::ws_connector)
    }

    /// The URL of an HTTP path (`https://` over TLS).
    pub fn url(&self, path: &str) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        format!("{scheme}://{}{path}", self.authority)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_addresses_normalise() {
        let p = |s: &str| Server::parse(s).map(|s| s.authority().to_owned());
        assert_eq!(p("127.0.0.1:7878").ok().as_deref(), Some("127.0.0.1:7878"));
        assert_eq!(p("localhost").ok().as_deref(), Some("localhost:7878"));
        assert_eq!(p("http://h:80/").ok().as_deref(), Some("h:80"));
        assert_eq!(p("ws://h:9/ws").ok().as_deref(), Some("h:9"));
        assert_eq!(p("[::1]:7000").ok().as_deref(), Some("[::1]:7000"));
        assert_eq!(p("[::1]").ok().as_deref(), Some("[::1]:7878"));
        assert!(p("h:notaport").is_err());
        assert_eq!(p("https://h").ok().as_deref(), Some("h:443"));
        assert_eq!(p("wss://h:8443/ws").ok().as_deref(), Some("h:8443"));
        let tls = Server::parse("https://fray.example").expect("parses");
        assert!(tls.tls);
        assert_eq!(tls.ws_url(), "wss://fray.example:443/ws");
        assert_eq!(tls.url("/sessions"), "https://fray.example:443/sessions");
        let plain = Server::parse("h:9").expect("parses");
        assert_eq!(
            (plain.ws_url(), plain.url("/x")),
            ("ws://h:9/ws".to_owned(), "http://h:9/x".to_owned())
        );
        assert!(p("").is_err());
        assert_eq!(tls.as_argument(), "https://fray.example:443");
        assert_eq!(plain.as_argument(), "h:9");
        assert!(tls.same_address(&Server::parse("wss://fray.example/ws").expect("parses")));
        assert!(!tls.same_address(&Server::parse("fray.example:443").expect("parses")));
    }
}
