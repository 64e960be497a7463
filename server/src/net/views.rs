//! What the session task keeps for its watching connections (`watch`): the last view of each
//! audience somebody watches, so that a batch of events costs one state read and one diff per
//! audience, whatever the number of watchers; and each watcher's last legal actions, so that
//! they are sent only when they change.

use crate::session::Session;
use fray_protocol::{JsonPatch, SessionState};
use serde_json::Value;

/// A view as last sent: its `seq` and its JSON.
struct Kept {
    seq: u64,
    json: Value,
}

/// The GM's and the public view, each kept while somebody of that audience watches.
#[derive(Default)]
pub struct Views {
    gm: Option<Kept>,
    public: Option<Kept>,
}

/// A patch for one audience after a batch.
pub struct Patch {
    /// The seq of the view it applies to.
    pub from_seq: u64,
    /// The seq of the view it makes.
    pub seq: u64,
    /// The operations.
    pub patch: JsonPatch,
}

/// The state an audience may see.
pub fn view_of(session: &Session, gm: bool) -> SessionState {
    if gm {
        session.state()
    } else {
        session.state().redacted()
    }
}

impl Views {
    fn slot(&mut self, gm: bool) -> &mut Option<Kept> {
        if gm { &mut self.gm } else { &mut self.public }
    }

    /// The full view for a new watcher of an audience, which is kept from now on.
    pub fn start(&mut self, session: &Session, gm: bool) -> (u64, SessionState) {
        let seq = session.last_seq();
        let state = view_of(session, gm);
        let slot = self.slot(gm);
        if slot.as_ref().is_none_or(|k| k.seq != seq) {
            *slot = Some(Kept {
                seq,
                json: to_json(&state),
            });
        }
        (seq, state)
    }

    /// Stops keeping an audience's view (its last watcher left).
    pub fn forget(&mut self, gm: bool) {
        *self.slot(gm) = None;
    }

    /// After a batch: the patch from the kept view to the session's state now, for an audience
    /// that is kept, and keeps the new view. `None` when the audience is not kept or nothing
    /// was appended since.
    pub fn advance(&mut self, session: &Session, gm: bool) -> Option<Patch> {
        let seq = session.last_seq();
        let kept = self.slot(gm).as_ref().filter(|k| k.seq != seq)?;
        let json = to_json(&view_of(session, gm));
        let patch = JsonPatch::diff(&kept.json, &json);
        let from_seq = kept.seq;
        *self.slot(gm) = Some(Kept { seq, json });
        Some(Patch {
            from_seq,
            seq,
            patch,
        })
    }
}

fn to_json(state: &SessionState) -> Value {
    serde_json::to_value(state).unwrap_or_else(|e| {
        // SessionState has only string keys and plain values: this cannot fail; say so if it does.
        tracing::error!(error = %e, "a view does not convert to JSON");
        Value::Null
    })
}
