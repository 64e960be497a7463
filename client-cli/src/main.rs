//! `fray`: the Fray command-line client.
//!
//! This file is only the command line (clap), the dispatch to `commands/` and the exit codes:
//! 0 success, 1 failure (server refusal, verification mismatch, connection trouble, a bad
//! `--ca-cert`), 2 an unreadable or corrupt log, 3 (`verify`) a log recorded under another
//! version of its rules: read and its integrity checked, but not re-decided; 141 the reader of
//! its output left. Everything else
//! lives in the modules below.

mod address;
mod commands;
mod connection;
mod endpoints;
mod grid_input;
mod help;
mod input;
mod line_editor;
mod narrate;
mod table;
mod talk;
mod tls;
mod tracker;

use clap::{Args, Parser, Subcommand, ValueEnum};
use fray_protocol::codec::Encoding;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The default server address (HTTP and WebSocket share it).
pub const DEFAULT_SERVER: &str = "127.0.0.1:7878";

/// What `fray --help` says of the exit codes (also in the README).
const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  a failure: a verification mismatch, a refused or failed request, a connection problem
     (an untrusted certificate, an unreadable or invalid --ca-cert file), an unwritable output
  2  an unreadable or corrupt log (or one written by a later Fray build)
  3  `verify`: the log was recorded under another version of its rules than this build
     implements (its CRCs, seed commitment and state hashes were checked, its commands not
     re-decided)
  141  the reader of fray's output left (`fray spectate | head`), as a shell reports a program
     that SIGPIPE ended";

/// Command-line client for Fray, the authoritative tabletop RPG combat server.
#[derive(Debug, Parser)]
#[command(name = "fray", version, about, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
    /// A PEM file of certificates to trust over TLS (`https://`, `wss://`) besides the web's
    /// root certificates: e.g. the self-signed certificate of the proxy in front of the server.
    #[arg(long, global = true, env = "FRAY_CA_CERT", value_name = "PATH")]
    ca_cert: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Cmd {
    /// Create a session from an encounter file and print its tokens.
    New {
        /// The encounter file (TOML).
        encounter: PathBuf,
        /// Fix the session seed (for reproducible fights); the server picks one otherwise.
        #[arg(long)]
        seed: Option<u64>,
        /// The server's operator key [default: read from DATA_DIR/admin-token].
        #[arg(long, env = "FRAY_ADMIN_TOKEN", hide_env_values = true)]
        admin_token: Option<String>,
        /// The server's data directory, where it keeps its operator key.
        #[arg(long, env = "FRAY_DATA_DIR", default_value = "fray-data")]
        data_dir: PathBuf,
        #[command(flatten)]
        server: ServerArg,
    },
    /// Watch a session live, narrating every event; follows demo sessions when no token is given.
    Spectate {
        /// A spectator (or any) token; without one the newest demo session is watched.
        #[arg(long)]
        token: Option<String>,
        /// Start with the events after this sequence number instead of the live state.
        #[arg(long)]
        resume_from: Option<u64>,
        /// Exit when the battle ends instead of following the next demo session.
        #[arg(long)]
        once: bool,
        #[command(flatten)]
        net: NetArgs,
    },
    /// Join a session as GM or player and play interactively (reads commands from stdin).
    Play {
        /// A GM or player token from `fray new`.
        #[arg(long)]
        token: String,
        #[command(flatten)]
        net: NetArgs,
    },
    /// Narrate a recorded fight from its log, with the final state and its hash.
    Replay {
        /// A session log (directory or segment file).
        file: PathBuf,
        /// One event at a time: the next after each Enter (`q` quits); a grid ruleset's map is
        /// drawn at every turn start.
        #[arg(long)]
        step: bool,
        /// Start at round N (its first start).
        #[arg(long, value_name = "N")]
        round: Option<u32>,
        /// Stop after event SEQ and show the state and its hash there.
        #[arg(long, value_name = "SEQ")]
        to: Option<u64>,
    },
    /// Re-run a recorded fight from its seed and check every event and state hash.
    ///
    /// Exit codes: 0 verified; 1 a mismatch; 2 an unreadable or corrupt log; 3 recorded under
    /// another version of its rules than this build implements (its CRCs, seed commitment and
    /// state hashes were checked, its commands not re-decided).
    Verify {
        /// A session log: a directory, a segment file, or a JSON-lines log (`fray export`,
        /// `GET /sessions/{id}/log`).
        file: PathBuf,
    },
    /// Orcus monster builder: a stat block's numbers from level, role and rank.
    Monster {
        /// Level, 1 to 35.
        #[arg(long)]
        level: i32,
        /// archer, blocker, skulker, spoiler, striker or wrecker.
        #[arg(long)]
        role: String,
        /// mook, standard, elite or boss.
        #[arg(long, default_value = "standard")]
        rank: String,
        /// The Leader rider (no numeric effect in the rules; noted on the block).
        #[arg(long)]
        leader: bool,
    },
    /// Orcus hero XP/level table (Table – Levels and Their Benefits), or the level for `--xp`.
    OrcusLevels {
        /// A hero's total XP: print the level reached instead of the table.
        #[arg(long)]
        xp: Option<i32>,
    },
    /// Download a session's log from the server (public for a player's or spectator's token,
    /// the full log for the GM's), as JSON lines that `fray verify` checks.
    Log {
        /// The session id (`s-…`, printed by `fray new` and in `welcome`).
        session: String,
        /// A token of the session.
        #[arg(long)]
        token: String,
        /// Write to this file instead of stdout.
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        #[command(flatten)]
        server: ServerArg,
    },
    /// Export a recorded fight's public log (redacted, no secrets; JSON lines, as the server
    /// serves it at GET /sessions/{id}/log), which `fray verify` checks once the seed is revealed.
    Export {
        /// A session log (directory or segment file).
        file: PathBuf,
        /// JSON lines (the format; accepted for older scripts).
        #[arg(long)]
        json: bool,
        /// Write to this file instead of stdout.
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
    },
    /// Print a shell completion script for `fray` (e.g. `fray completions bash >
    /// ~/.local/share/bash-completion/completions/fray`).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// Where the server is.
#[derive(Debug, Clone, Args)]
struct ServerArg {
    /// Server address (`host:port`; an `http://` or `ws://` prefix is accepted, `https://` or
    /// `wss://` for a server behind a TLS proxy).
    #[arg(long, env = "FRAY_SERVER", default_value = DEFAULT_SERVER)]
    server: String,
}

/// Options of the WebSocket commands.
#[derive(Debug, Clone, Args)]
struct NetArgs {
    #[command(flatten)]
    server: ServerArg,
    /// Wire encoding (WebSocket subprotocol `fray.v1.json` or `fray.v1.bincode`).
    #[arg(long, value_enum, default_value_t = EncodingArg::Json)]
    encoding: EncodingArg,
}

/// `--encoding` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum EncodingArg {
    /// JSON text frames.
    Json,
    /// bincode binary frames.
    Bincode,
}

impl From<EncodingArg> for Encoding {
    fn from(e: EncodingArg) -> Self {
        match e {
            EncodingArg::Json => Encoding::Json,
            EncodingArg::Bincode => Encoding::Bincode,
        }
    }
}

/// The exit code when the reader of `fray`'s output left (`fray spectate | head`): 128 + 13,
/// what a shell reports for a program that SIGPIPE ended.
const READER_LEFT: i32 = 141;

/// Rust ignores SIGPIPE, so `println!` into a pipe whose reader left panics ("failed printing
/// to stdout"). `fray` ends quietly instead, with [`READER_LEFT`], as `cat` would. (The signal
/// itself stays ignored: a socket write to a peer that closed must stay an error, not a kill.)
fn quiet_when_the_reader_leaves() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(READER_LEFT);
        }
        default(info);
    }));
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    quiet_when_the_reader_leaves();
    let ca_cert = cli.ca_cert.as_deref();
    match cli.command {
        Cmd::New {
            encounter,
            seed,
            admin_token,
            data_dir,
            server,
        } => {
            let admin = commands::new::admin_key(admin_token.as_deref(), &data_dir);
            network(|| async {
                let server = remote(&server.server, ca_cert)?;
                commands::new::run(&server, &admin?, &encounter, seed).await
            })
        }
        Cmd::Spectate {
            token,
            resume_from,
            once,
            net,
        } => network(|| async {
            commands::spectate::run(commands::spectate::Options {
                server: remote(&net.server.server, ca_cert)?,
                encoding: net.encoding.into(),
                token,
                resume_from,
                once,
            })
            .await
        }),
        Cmd::Play { token, net } => network(|| async {
            let server = remote(&net.server.server, ca_cert)?;
            commands::play::run(&server, net.encoding.into(), &token).await
        }),
        Cmd::Replay {
            file,
            step,
            round,
            to,
        } => commands::offline::replay(&file, commands::offline::Window { step, round, to }),
        Cmd::Monster {
            level,
            role,
            rank,
            leader,
        } => match commands::monster::render(level, &role, &rank, leader) {
            Ok(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e:#}");
                ExitCode::FAILURE
            }
        },
        Cmd::OrcusLevels { xp } => match commands::monster::hero_levels(xp) {
            Ok(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e:#}");
                ExitCode::FAILURE
            }
        },
        Cmd::Log {
            session,
            token,
            output,
            server,
        } => network(|| async {
            let server = remote(&server.server, ca_cert)?;
            commands::log::run(&server, &session, &token, output.as_deref()).await
        }),
        Cmd::Verify { file } => commands::offline::verify(&file),
        Cmd::Export {
            file,
            json: _,
            output,
        } => commands::offline::export(&file, output.as_deref()),
        Cmd::Completions { shell } => {
            use clap::CommandFactory;
            clap_complete::generate(shell, &mut Cli::command(), "fray", &mut std::io::stdout());
            ExitCode::SUCCESS
        }
    }
}

/// The server at `address`, trusting over TLS the certificates of `ca_cert` besides the web's
/// roots. Read only by the commands that reach a server, so a bad `FRAY_CA_CERT` does not stop
/// `verify` or `replay`.
fn remote(address: &str, ca_cert: Option<&Path>) -> anyhow::Result<address::Server> {
    let trust = ca_cert.map(tls::Trust::from_pem_file).transpose()?;
    Ok(address::Server::parse(address)?.trusting(trust))
}

/// Runs a network command on a tokio runtime; an error is printed and exits 1.
fn network<F, Fut>(f: F) -> ExitCode
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<()>>,
{
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(f()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn parses_network_defaults() {
        let cli = Cli::try_parse_from(["fray", "play", "--token", "abc"]).expect("parses");
        let Cmd::Play { token, net } = cli.command else {
            panic!("play expected");
        };
        assert_eq!(token, "abc");
        assert_eq!(net.encoding, EncodingArg::Json);
    }

    #[test]
    fn help_lists_the_exit_codes_and_completions_cover_every_subcommand() {
        let help = Cli::command().render_long_help().to_string();
        assert!(help.contains("Exit codes:"), "{help}");
        assert!(help.contains("3  `verify`"), "{help}");
        let mut script = Vec::new();
        clap_complete::generate(
            clap_complete::Shell::Bash,
            &mut Cli::command(),
            "fray",
            &mut script,
        );
        let script = String::from_utf8(script).expect("utf-8");
        for sub in ["play", "spectate", "verify", "export", "completions"] {
            assert!(script.contains(sub), "bash completion lacks {sub}");
        }
    }

    #[test]
    fn ca_cert_is_taken_before_or_after_the_subcommand() {
        for args in [
            &["fray", "--ca-cert", "proxy.pem", "play", "--token", "t"][..],
            &["fray", "play", "--token", "t", "--ca-cert", "proxy.pem"],
        ] {
            let cli = Cli::try_parse_from(args).expect("parses");
            assert_eq!(cli.ca_cert.as_deref(), Some(Path::new("proxy.pem")));
        }
    }

    #[test]
    fn export_needs_no_format_flag_and_still_takes_json() {
        assert!(Cli::try_parse_from(["fray", "export", "log"]).is_ok());
        assert!(Cli::try_parse_from(["fray", "export", "log", "--json", "-o", "x.json"]).is_ok());
    }

    #[test]
    fn log_takes_a_session_and_a_token() {
        let cli = Cli::try_parse_from(["fray", "log", "s-1", "--token", "t", "-o", "f.jsonl"])
            .expect("parses");
        let Cmd::Log { session, token, .. } = cli.command else {
            panic!("log expected");
        };
        assert_eq!((session.as_str(), token.as_str()), ("s-1", "t"));
        assert!(
            Cli::try_parse_from(["fray", "log", "s-1"]).is_err(),
            "a token is needed"
        );
    }
}
