//! The subcommands: `new` (create a session over HTTP), `play` and `spectate` (WebSocket),
//! `log` (download a session's log over HTTP), and the offline ones on recorded logs, `replay`,
//! `verify` and `export`.

pub mod log;
pub mod monster;
pub mod new;
pub mod offline;
pub mod play;
pub mod spectate;

use crate::tracker::Output;

/// Prints what a tracker produced: narrated events on stdout (`  12  text` with `with_seq`),
/// sequence warnings on stderr.
pub fn print_outputs(outputs: &[Output], with_seq: bool) {
    for o in outputs {
        match o {
            Output::Line { seq, text } if with_seq => println!("{seq:>5}  {text}"),
            Output::Line { text, .. } => println!("  {text}"),
            Output::Warning(w) => eprintln!("warning: {w}"),
        }
    }
}
