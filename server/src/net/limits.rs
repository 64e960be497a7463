//! The server's guards against being filled by strangers: how many sessions, connections and
//! messages it takes, and how long it waits. Each refusal has its own code (`ErrorCode`):
//!
//! | limit | default | refusal |
//! |---|---|---|
//! | live sessions on the server | 1,000 | HTTP 503 `too_many_sessions` |
//! | session creations per client address | 30 a minute | HTTP 429 `rate_limited` |
//! | connections of one session | 128 | `error` `too_many_connections`, closed |
//! | connections of one token (seat) | 32 | `error` `too_many_connections`, closed |
//! | messages per connection | 500 a second, bursts of 2,000 | `error` `rate_limited`, message dropped; 16 in a row close the connection (`flood`) |
//! | connections that have not said `hello` | 256 | the TCP connection is closed at once |
//! | from TCP accept to `hello` | 10 s | the TCP connection is closed |
//! | bytes queued for one subscriber | 1 MiB | `error` `lagging`, closed |
//! | a finished session (seed revealed, nobody connected) stays served | 15 min | leaves memory and the listing; its log stays on disk |
//! | a session nobody is connected to keeps its world in memory | 60 s | hibernates: world and file let go, reopened from the log at the next connection |

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The limits in force (`fray-server --help` names the flags).
#[derive(Debug, Clone)]
pub struct Limits {
    /// Live sessions the registry holds at most.
    pub max_sessions: usize,
    /// Session creations per client address per minute.
    pub creations_per_minute: u32,
    /// Connections subscribed to one session at most.
    pub connections_per_session: usize,
    /// Connections of one token (one seat) at most.
    pub connections_per_token: usize,
    /// Messages a connection may send per second (sustained).
    pub messages_per_second: u32,
    /// Messages a connection may send in a burst.
    pub message_burst: u32,
    /// Connections that have not said `hello` yet, at most.
    pub max_unhello: usize,
    /// Time from TCP accept to `hello`.
    pub handshake_timeout: Duration,
    /// Bytes queued for one subscriber at most.
    pub subscriber_queue_bytes: usize,
    /// How long a finished session nobody watches stays in memory and in the listing.
    pub retention: Duration,
    /// How long a session nobody is connected to keeps its world in memory and its log file
    /// open before it hibernates.
    pub hibernate_after: Duration,
    /// Chat lines and free rolls a connection may send per minute (sustained); more are
    /// refused with `rate_limited`.
    pub talk_per_minute: u32,
    /// Chat lines and free rolls a connection may send in a burst.
    pub talk_burst: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_sessions: 1_000,
            creations_per_minute: 30,
            connections_per_session: 128,
            connections_per_token: 32,
            messages_per_second: 500,
            message_burst: 2_000,
            max_unhello: 256,
            handshake_timeout: Duration::from_secs(10),
            subscriber_queue_bytes: 1 << 20,
            retention: Duration::from_secs(15 * 60),
            hibernate_after: Duration::from_secs(60),
            talk_per_minute: 30,
            talk_burst: 10,
        }
    }
}

/// A token bucket: `burst` tokens, refilled at `per_second`.
#[derive(Debug, Clone)]
pub struct Bucket {
    tokens: f64,
    last: Instant,
    per_second: f64,
    burst: f64,
}

impl Bucket {
    /// A full bucket.
    pub fn new(per_second: f64, burst: u32) -> Bucket {
        let burst = f64::from(burst.max(1));
        Bucket {
            tokens: burst,
            last: Instant::now(),
            per_second,
            burst,
        }
    }

    /// Takes one token if there is one.
    pub fn take(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    fn is_full(&self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens + elapsed * self.per_second >= self.burst
    }
}

/// One bucket per client address (session creations). Full buckets are forgotten, so the map
/// holds only addresses that created sessions recently.
#[derive(Debug)]
pub struct PerAddress {
    per_minute: u32,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

/// Addresses remembered before full buckets are swept.
const SWEEP_AT: usize = 4096;

impl PerAddress {
    /// `per_minute` requests per address, all of them at once at most.
    pub fn new(per_minute: u32) -> PerAddress {
        PerAddress {
            per_minute,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `ip` may make one more request now (and counts it).
    pub fn allow(&self, ip: IpAddr) -> bool {
        let now = Instant::now();
        let Ok(mut buckets) = self.buckets.lock() else {
            return false;
        };
        if buckets.len() >= SWEEP_AT {
            buckets.retain(|_, b| !b.is_full(now));
        }
        let per_minute = self.per_minute;
        buckets
            .entry(ip)
            .or_insert_with(|| Bucket::new(f64::from(per_minute) / 60.0, per_minute))
            .take(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_refills_at_its_rate() {
        let mut b = Bucket::new(10.0, 3);
        let t0 = Instant::now();
        assert!(b.take(t0) && b.take(t0) && b.take(t0));
        assert!(!b.take(t0), "the burst is spent");
        assert!(
            b.take(t0 + Duration::from_millis(100)),
            "one token after 1/10 s"
        );
        assert!(!b.take(t0 + Duration::from_millis(100)));
        assert!(b.take(t0 + Duration::from_secs(60)));
    }

    #[test]
    fn creations_are_counted_per_address() {
        let limit = PerAddress::new(2);
        let a: IpAddr = [127, 0, 0, 1].into();
        let b: IpAddr = [127, 0, 0, 2].into();
        assert!(limit.allow(a) && limit.allow(a));
        assert!(
            !limit.allow(a),
            "a third creation in the same minute is refused"
        );
        assert!(limit.allow(b), "another address has its own allowance");
    }
}
