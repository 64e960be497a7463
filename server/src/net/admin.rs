//! The operator key: what `POST /sessions` (and the full `GET /sessions` listing) require, sent
//! as `Authorization: Bearer <key>`.
//!
//! Where the key comes from, first match wins: `--admin-token` / `FRAY_ADMIN_TOKEN`; the file
//! `<data dir>/admin-token`; otherwise a new random key (32 hex digits) written to that file
//! (mode 0600 on Unix) at first start, whose path the server prints. The `fray` CLI and the demo
//! find it the same way.

use std::io;
use std::path::{Path, PathBuf};

/// Name of the key file inside the data directory.
pub const KEY_FILE: &str = "admin-token";

/// Shortest key accepted from the command line or the environment.
pub const MIN_KEY_LEN: usize = 16;

/// Where the key in force came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySource {
    /// `--admin-token` or `FRAY_ADMIN_TOKEN`.
    Given,
    /// Read from this file.
    File(PathBuf),
    /// Generated now and written to this file.
    Generated(PathBuf),
}

/// The operator key.
#[derive(Clone)]
pub struct AdminKey {
    key: String,
}

impl std::fmt::Debug for AdminKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AdminKey(…)")
    }
}

/// The credential of an `Authorization: Bearer <credential>` header value, trimmed.
pub fn bearer(authorization: Option<&str>) -> Option<&str> {
    authorization
        .and_then(|h| h.strip_prefix("Bearer "))
        .map(str::trim)
}

/// Path of the key file of a data directory.
pub fn key_file(data_dir: &Path) -> PathBuf {
    data_dir.join(KEY_FILE)
}

/// Reads the key file of a data directory, if there is one (trimmed; empty counts as none).
pub fn read_key_file(data_dir: &Path) -> io::Result<Option<String>> {
    match std::fs::read_to_string(key_file(data_dir)) {
        Ok(s) if !s.trim().is_empty() => Ok(Some(s.trim().to_owned())),
        Ok(_) => Ok(None),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

fn write_key_file(path: &Path, key: &str) -> io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    io::Write::write_all(&mut file, format!("{key}\n").as_bytes())?;
    file.sync_all()
}

impl AdminKey {
    /// A key given as is (tests, `--admin-token`).
    pub fn new(key: impl Into<String>) -> AdminKey {
        AdminKey { key: key.into() }
    }

    /// The key in force for a server: `given` if any, else the data directory's key file,
    /// else a new key written there.
    pub fn resolve(given: Option<&str>, data_dir: &Path) -> io::Result<(AdminKey, KeySource)> {
        if let Some(k) = given.map(str::trim).filter(|k| !k.is_empty()) {
            if k.len() < MIN_KEY_LEN {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("the admin token must be at least {MIN_KEY_LEN} characters"),
                ));
            }
            return Ok((AdminKey::new(k), KeySource::Given));
        }
        let path = key_file(data_dir);
        if let Some(k) = read_key_file(data_dir)? {
            return Ok((AdminKey::new(k), KeySource::File(path)));
        }
        let key = crate::session::new_token().map_err(|e| io::Error::other(e.to_string()))?;
        write_key_file(&path, &key)?;
        Ok((AdminKey::new(key), KeySource::Generated(path)))
    }

    /// Whether an `Authorization` header value carries this key (`Bearer <key>`). The
    /// comparison takes the same time wherever the first difference is.
    pub fn admits(&self, authorization: Option<&str>) -> bool {
        let Some(given) = bearer(authorization) else {
            return false;
        };
        let (a, b) = (given.as_bytes(), self.key.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }

    /// The key itself (for the in-process clients that create sessions).
    pub fn expose(&self) -> &str {
        &self.key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_exact_bearer_key_is_admitted() {
        let k = AdminKey::new("0123456789abcdef0123");
        assert!(k.admits(Some("Bearer 0123456789abcdef0123")));
        assert!(!k.admits(Some("Bearer 0123456789abcdef012")));
        assert!(!k.admits(Some("Bearer 0123456789abcdef01234")));
        assert!(!k.admits(Some("Bearer 1123456789abcdef0123")));
        assert!(!k.admits(Some("0123456789abcdef0123")));
        assert!(!k.admits(Some("Basic 0123456789abcdef0123")));
        assert!(!k.admits(None));
    }

    #[test]
    fn a_key_is_generated_once_and_then_read_back_from_the_data_directory()
    -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let (first, source) = AdminKey::resolve(None, dir.path())?;
        assert_eq!(source, KeySource::Generated(key_file(dir.path())));
        assert_eq!(first.expose().len(), 32);
        let (again, source) = AdminKey::resolve(None, dir.path())?;
        assert_eq!(source, KeySource::File(key_file(dir.path())));
        assert_eq!(again.expose(), first.expose());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(key_file(dir.path()))?
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "only the owner may read the key file");
        }
        Ok(())
    }

    #[test]
    fn a_given_key_wins_over_the_file_and_a_short_one_is_refused()
    -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        AdminKey::resolve(None, dir.path())?;
        let (k, source) = AdminKey::resolve(Some("a-key-given-on-the-line"), dir.path())?;
        assert_eq!(source, KeySource::Given);
        assert_eq!(k.expose(), "a-key-given-on-the-line");
        assert!(AdminKey::resolve(Some("short"), dir.path()).is_err());
        Ok(())
    }
}
