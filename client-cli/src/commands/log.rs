//! `fray log SESSION --token TOKEN [-o FILE]`: download a session's log from the server — the
//! public log for a player's or spectator's token, the full log for the GM's — as JSON lines
//! that `fray verify` checks once the seed is revealed.

use crate::address::Server;
use crate::endpoints;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;

/// Runs `fray log`.
pub async fn run(server: &Server, session: &str, token: &str, output: Option<&Path>) -> Result<()> {
    let body = endpoints::session_log(server, session, token).await?;
    match output {
        Some(path) => {
            std::fs::write(path, &body)
                .with_context(|| format!("cannot write {}", path.display()))?;
            let lines = body.iter().filter(|b| **b == b'\n').count();
            eprintln!("wrote {} ({lines} lines)", path.display());
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(&body).and_then(|()| out.flush())?;
        }
    }
    Ok(())
}
