//! What `fray` trusts over TLS (`https://`, `wss://`): the web's root certificates, and with
//! `--ca-cert PATH` (or `FRAY_CA_CERT`) the certificates of that PEM file as well — a proxy's
//! self-signed certificate, or a private authority's. Both the HTTP client
//! (`fray_server::demo::client::request_trusting`) and the WebSocket connector trust the same
//! set: Mozilla's roots as certificates (`webpki-root-certs`) plus the file's.

use anyhow::{Result, anyhow, bail};
use fray_server::demo::client::TlsRoots;
use rustls::RootCertStore;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use std::path::Path;
use std::sync::Arc;
use tokio_tungstenite::Connector;

/// The roots of a `--ca-cert` file added to the web's, ready for both clients.
#[derive(Debug, Clone)]
pub struct Trust {
    /// Every trusted root (DER): the web's, then the file's.
    http: TlsRoots,
    /// The WebSocket's TLS configuration over the same roots.
    ws: Arc<rustls::ClientConfig>,
}

impl Trust {
    /// Reads a PEM file of one or more certificates to trust besides the web's roots. An
    /// unreadable file, one without a certificate, and a certificate that cannot serve as a
    /// root are errors naming the file.
    pub fn from_pem_file(path: &Path) -> Result<Trust> {
        let shown = path.display();
        let bytes = std::fs::read(path)
            .map_err(|e| anyhow!("cannot read the CA certificate file {shown}: {e}"))?;
        Trust::from_pem(&bytes).map_err(|e| anyhow!("the CA certificate file {shown}: {e}"))
    }

    /// [`Trust::from_pem_file`] on the file's bytes.
    fn from_pem(pem: &[u8]) -> Result<Trust> {
        let extra = CertificateDer::pem_slice_iter(pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| anyhow!("not a valid PEM file ({e})"))?;
        if extra.is_empty() {
            bail!("no certificate in it (expected PEM: -----BEGIN CERTIFICATE-----)");
        }
        let mut store = RootCertStore::empty();
        store.add_parsable_certificates(webpki_root_certs::TLS_SERVER_ROOT_CERTS.iter().cloned());
        for (n, cert) in extra.iter().enumerate() {
            store
                .add(cert.clone())
                .map_err(|e| anyhow!("certificate {} is not usable as a root: {e}", n + 1))?;
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let ws = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| anyhow!("cannot set up TLS: {e}"))?
            .with_root_certificates(store)
            .with_no_client_auth();
        let der = webpki_root_certs::TLS_SERVER_ROOT_CERTS
            .iter()
            .chain(&extra)
            .map(|c| c.as_ref().to_vec())
            .collect();
        Ok(Trust {
            http: TlsRoots::only(der),
            ws: Arc::new(ws),
        })
    }

    /// The roots for the HTTP client.
    pub fn http_roots(&self) -> TlsRoots {
        self.http.clone()
    }

    /// The WebSocket's TLS connector.
    pub fn ws_connector(&self) -> Connector {
        Connector::Rustls(Arc::clone(&self.ws))
    }
}

/// Adds a hint to an error of a TLS handshake that refused the server's certificate (rustls
/// says "invalid peer certificate"): how to trust a proxy's own certificate.
pub fn explain(error: anyhow::Error) -> anyhow::Error {
    if format!("{error:#}").contains("invalid peer certificate") {
        error.context(
            "the server's TLS certificate is not signed by a trusted authority (a self-signed \
             proxy certificate?): pass --ca-cert PATH (or set FRAY_CA_CERT) with its PEM file \
             to trust it",
        )
    } else {
        error
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ca_file_that_is_missing_empty_or_not_pem_is_refused_with_its_name() {
        let dir = tempfile::tempdir().expect("tempdir");
        let missing = dir.path().join("nowhere.pem");
        let err = Trust::from_pem_file(&missing)
            .expect_err("missing")
            .to_string();
        assert!(
            err.contains("cannot read the CA certificate file") && err.contains("nowhere.pem"),
            "{err}"
        );
        let text = dir.path().join("notes.txt");
        std::fs::write(&text, "just some words\n").expect("write");
        let err = Trust::from_pem_file(&text).expect_err("no PEM").to_string();
        assert!(
            err.contains("notes.txt") && err.contains("no certificate"),
            "{err}"
        );
        let broken = dir.path().join("broken.pem");
        std::fs::write(
            &broken,
            "-----BEGIN CERTIFICATE-----\n!!!! not base64 !!!!\n-----END CERTIFICATE-----\n",
        )
        .expect("write");
        let err = Trust::from_pem_file(&broken)
            .expect_err("bad base64")
            .to_string();
        assert!(
            err.contains("broken.pem") && err.contains("not a valid PEM file"),
            "{err}"
        );
        let garbage = dir.path().join("garbage.pem");
        std::fs::write(
            &garbage,
            "-----BEGIN CERTIFICATE-----\naGVsbG8gd29ybGQ=\n-----END CERTIFICATE-----\n",
        )
        .expect("write");
        let err = Trust::from_pem_file(&garbage)
            .expect_err("not X.509")
            .to_string();
        assert!(
            err.contains("garbage.pem") && err.contains("certificate 1 is not usable as a root"),
            "{err}"
        );
    }

    #[test]
    fn a_ca_file_adds_its_certificates_to_the_web_roots() {
        let own = rcgen::generate_simple_self_signed(vec!["fray.test".to_owned()])
            .expect("a certificate");
        let trust = Trust::from_pem(own.cert.pem().as_bytes()).expect("a PEM certificate");
        let mut expected: Vec<Vec<u8>> = webpki_root_certs::TLS_SERVER_ROOT_CERTS
            .iter()
            .map(|c| c.as_ref().to_vec())
            .collect();
        assert!(expected.len() > 100, "the web's roots are there");
        expected.push(own.cert.der().as_ref().to_vec());
        assert_eq!(trust.http_roots(), TlsRoots::only(expected));
    }
}
