//! `fray new ENCOUNTER.toml [--seed N]`: create a session from an encounter file and print its
//! id, its seed commitment, every token and ready-to-paste `fray play` / `fray spectate` lines.

use crate::DEFAULT_SERVER;
use crate::address::Server;
use crate::endpoints::{self, Created};
use anyhow::{Context, Result, anyhow};
use std::path::Path;

/// The operator key: `--admin-token` / `FRAY_ADMIN_TOKEN`, else the server's key file in
/// `data_dir` (`fray-data/admin-token` when the server runs from the same directory).
pub fn admin_key(given: Option<&str>, data_dir: &Path) -> Result<String> {
    if let Some(k) = given.map(str::trim).filter(|k| !k.is_empty()) {
        return Ok(k.to_owned());
    }
    let file = fray_server::net::admin::key_file(data_dir);
    fray_server::net::admin::read_key_file(data_dir)
        .with_context(|| format!("cannot read the operator key from {}", file.display()))?
        .ok_or_else(|| {
            anyhow!(
                "creating a session needs the server's operator key: pass --admin-token KEY, set \
                 FRAY_ADMIN_TOKEN, or give --data-dir of the server (no key in {})",
                file.display()
            )
        })
}

/// Runs `fray new`.
pub async fn run(server: &Server, admin: &str, encounter: &Path, seed: Option<u64>) -> Result<()> {
    let text = std::fs::read_to_string(encounter)
        .with_context(|| format!("cannot read {}", encounter.display()))?;
    let created = endpoints::create_session(server, admin, &text, seed).await?;
    print!("{}", report(&created, server));
    Ok(())
}

/// The text printed for a new session. `--server` is repeated in the pasted lines unless it is
/// the default (or comes from `FRAY_SERVER`, which the pasting shell is likely to share).
fn report(c: &Created, server: &Server) -> String {
    let implied = std::env::var("FRAY_SERVER")
        .ok()
        .into_iter()
        .chain([DEFAULT_SERVER.to_owned()])
        .filter_map(|s| Server::parse(&s).ok());
    let server_flag = if implied.into_iter().any(|s| s.same_address(server)) {
        String::new()
    } else {
        format!(" --server {}", server.as_argument())
    };
    let mut out = String::new();
    out.push_str(&format!(
        "Created session {} — \"{}\" (ruleset {})\n",
        c.session, c.title, c.ruleset
    ));
    out.push_str(&format!(
        "Seed commitment: {}\n  (SHA-256 of seed and salt; both are revealed when the battle ends)\n",
        c.commitment
    ));
    out.push_str(&format!("WebSocket: {}\n\nTokens:\n", c.ws_url));
    out.push_str(&format!("  GM:        {}\n", c.tokens.gm));
    out.push_str(&format!("  spectator: {}\n", c.tokens.spectator));
    for p in &c.tokens.players {
        out.push_str(&format!(
            "  player {} (controls {}): {}\n",
            p.name,
            p.controls.join(", "),
            p.token
        ));
    }
    out.push_str("\nReady to paste:\n");
    out.push_str(&format!(
        "  fray play --token {}{server_flag}    # GM\n",
        c.tokens.gm
    ));
    for p in &c.tokens.players {
        out.push_str(&format!(
            "  fray play --token {}{server_flag}    # {}: {}\n",
            p.token,
            p.name,
            p.controls.join(", ")
        ));
    }
    out.push_str(&format!(
        "  fray spectate --token {}{server_flag}\n",
        c.tokens.spectator
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_lists_every_token_and_paste_line() {
        let created: Created = serde_json::from_str(
            r#"{"session":"s-1","ruleset":"13th-age","title":"Goblin ambush",
                "commitment":"ab12","ws_url":"ws://10.0.0.5:9000/ws",
                "tokens":{"gm":"G","spectator":"S",
                  "players":[{"name":"alice","controls":["brakka"],"token":"A"}]}}"#,
        )
        .expect("decodes");
        let server = Server::parse("10.0.0.5:9000").expect("address");
        let text = report(&created, &server);
        assert!(text.contains("Created session s-1"), "{text}");
        assert!(text.contains("Seed commitment: ab12"), "{text}");
        assert!(
            text.contains("fray play --token G --server 10.0.0.5:9000    # GM"),
            "{text}"
        );
        assert!(
            text.contains("fray play --token A --server 10.0.0.5:9000    # alice: brakka"),
            "{text}"
        );
        assert!(
            text.contains("fray spectate --token S --server 10.0.0.5:9000"),
            "{text}"
        );
        // Behind a TLS proxy the pasted lines keep the scheme, or they would speak plain text.
        let proxied = Server::parse("https://fray.example").expect("address");
        let text = report(&created, &proxied);
        assert!(
            text.contains("fray play --token G --server https://fray.example:443    # GM"),
            "{text}"
        );
    }
}
