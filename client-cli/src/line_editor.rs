//! The line editor of `fray play` at a terminal (rustyline): history with Up and Down, kept
//! across runs in a history file, and Tab completion of the session's verbs, combatant ids and
//! attacks. The words to complete come from the game (`Words`), which refreshes them with every
//! view; the editor runs on its own thread and hands each line to the game like piped input.

use rustyline::completion::Completer;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// The words Tab completes, shared by the game (which sets them) and the editor.
#[derive(Debug, Clone, Default)]
pub struct Words(Arc<Mutex<Vec<String>>>);

impl Words {
    /// Replaces the words (sorted, without repeats).
    pub fn set(&self, mut words: Vec<String>) {
        words.sort_unstable();
        words.dedup();
        if let Ok(mut w) = self.0.lock() {
            *w = words;
        }
    }

    /// The words starting with `prefix` (case-insensitive).
    fn starting_with(&self, prefix: &str) -> Vec<String> {
        let prefix = prefix.to_lowercase();
        self.0
            .lock()
            .map(|w| {
                w.iter()
                    .filter(|x| x.to_lowercase().starts_with(&prefix))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// Completion of the word under the cursor (words are separated by spaces and commas).
struct Completion(Words);

impl Completer for Completion {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let before = line.get(..pos).unwrap_or(line);
        let start = before
            .rfind(|c: char| c.is_whitespace() || c == ',')
            .map_or(0, |i| i + 1);
        let prefix = &before[start..];
        if prefix.is_empty() {
            return Ok((start, Vec::new()));
        }
        Ok((start, self.0.starting_with(prefix)))
    }
}

impl Hinter for Completion {
    type Hint = String;
}
impl Highlighter for Completion {}
impl Validator for Completion {}
impl Helper for Completion {}

/// Where the history is kept: `FRAY_HISTORY`, else `$XDG_STATE_HOME/fray/history`, else
/// `~/.local/state/fray/history`.
pub fn history_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("FRAY_HISTORY") {
        return Some(PathBuf::from(p));
    }
    let state = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
    Some(state.join("fray").join("history"))
}

/// Reads lines with the editor on a plain thread; the channel closes at Ctrl-D. Ctrl-C clears
/// the line. Without a usable terminal it answers `None` (the caller reads stdin plainly).
pub fn spawn(words: Words) -> Option<mpsc::Receiver<String>> {
    let mut editor: Editor<Completion, DefaultHistory> = Editor::new().ok()?;
    editor.set_helper(Some(Completion(words)));
    let history = history_path();
    if let Some(path) = &history {
        // A first run has no history yet.
        let _ = editor.load_history(path);
    }
    let (tx, rx) = mpsc::channel(64);
    std::thread::spawn(move || {
        loop {
            match editor.readline("> ") {
                Ok(line) => {
                    if !line.trim().is_empty() {
                        let _ = editor.add_history_entry(line.as_str());
                        if let Some(path) = &history {
                            save(&mut editor, path);
                        }
                    }
                    if tx.blocking_send(line).is_err() {
                        break;
                    }
                }
                Err(rustyline::error::ReadlineError::Interrupted) => {}
                Err(rustyline::error::ReadlineError::Eof) => break,
                Err(e) => {
                    eprintln!("(the line editor stopped: {e})");
                    break;
                }
            }
        }
    });
    Some(rx)
}

/// Appends the newest entry to the history file (creating its folder), or says why not once.
fn save(editor: &mut Editor<Completion, DefaultHistory>, path: &std::path::Path) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Err(e) = editor.append_history(path) {
        eprintln!("(history not saved to {}: {e})", path.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_completes_the_word_under_the_cursor_from_the_game_words() {
        let words = Words::default();
        words.set(vec![
            "brakka".into(),
            "goblin-archer-1".into(),
            "goblin-archer-2".into(),
            "attack".into(),
            "brakka".into(),
        ]);
        let c = Completion(words);
        let history = DefaultHistory::new();
        let ctx = Context::new(&history);
        assert_eq!(
            c.complete("sethp bra", 9, &ctx).expect("completes"),
            (6, vec!["brakka".to_owned()])
        );
        assert_eq!(
            c.complete("a 1 goblin-a", 12, &ctx).expect("completes").1,
            vec!["goblin-archer-1".to_owned(), "goblin-archer-2".to_owned()]
        );
        assert_eq!(
            c.complete("att", 3, &ctx).expect("completes").1,
            vec!["attack"]
        );
        assert!(
            c.complete("sethp ", 6, &ctx)
                .expect("completes")
                .1
                .is_empty()
        );
        assert_eq!(
            c.complete("melee goblin-archer-1,BRA", 25, &ctx)
                .expect("completes"),
            (22, vec!["brakka".to_owned()])
        );
    }
}
