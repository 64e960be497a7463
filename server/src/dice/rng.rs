//! The per-session random number generator.
//!
//! Every die a session rolls comes from one [`SessionRng`]: a PCG64 generator
//! (`rand_pcg::Pcg64`, i.e. `Lcg128Xsl64`, the PCG reference `pcg64`) plus a counter of
//! the 64-bit outputs drawn so far. Bounded values are drawn with Fray's own unbiased
//! sampler ([`SessionRng::below`]), never with `rand`'s distributions, so a dependency
//! upgrade cannot silently change a replay (the golden-vector tests below guard this).
//!
//! # Reproducing the generator without this code
//!
//! All integers are unsigned; arithmetic on 128-bit values wraps modulo 2^128.
//!
//! 1. **Seed to parts.** `digest = SHA-256("fray-rng-v1" ‖ seed_le)`, where `"fray-rng-v1"`
//!    is the 11 ASCII bytes of that string and `seed_le` is the 64-bit seed as 8 bytes
//!    little-endian. Then `state = u128_le(digest[0..16])` and
//!    `stream = u128_le(digest[16..32]) & (2^127 - 1)` (the top bit is cleared because
//!    PCG discards it anyway; clearing it keeps the recorded pair canonical).
//! 2. **Initialisation** (`pcg64_srandom_r(state, stream)`):
//!    `M = 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645`, `inc = (stream << 1) | 1`,
//!    `s = (state + inc) * M + inc`.
//! 3. **Each draw** (`next_u64`): `s = s * M + inc`, then output
//!    `rotr64(((s >> 64) as u64) ^ (s as u64), (s >> 122) as u32)`.
//! 4. **Bounded draws** (`below(n)`, `n ≥ 1`): draw `x`, let `m = x * n` as a 128-bit
//!    product and `lo = m mod 2^64`; while `lo < (2^64 - n) mod n` draw again; the result
//!    is `m >> 64`. A die with `sides` faces is `below(sides) + 1`.
//!
//! The log header records the generator id ([`GENERATOR_ID`]) and the initial
//! `(state, stream)`; a position inside the stream is the number of draws, so a session
//! can be resumed from `(state, stream, draws)` by jumping ahead ([`SessionRng::resume`]).
//!
//! # The secret stream
//!
//! Rolls the referee makes in secret (OSE's searching, listening, wandering monsters, losing
//! direction: `GameEvent::SecretRolled`) come from a second generator per session, the *secret
//! stream*, so that revealing the main seed reveals nothing about them. It is the same generator
//! and sampler seeded from its own 64-bit *secret seed* through its own domain: step 1 above with
//! [`SECRET_SEED_DOMAIN`] (`"fray-secret-rng-v1"`, 18 ASCII bytes) in place of `"fray-rng-v1"`
//! ([`SessionRng::derive_secret_parts`]). Its position is counted like the main one's (the log
//! records both per tick), and its seed is committed to separately (`secret_commitment`) and never
//! published: only the genesis record of the server's log (the GM's) holds it.

use std::fmt;

use rand_core::Rng;
use rand_pcg::Pcg64;
use sha2::{Digest, Sha256};

/// Identifier of the generator and derivation, recorded in log headers.
pub const GENERATOR_ID: &str = "pcg64/fray-rng-v1";

/// Domain-separation prefix hashed in front of the seed by [`SessionRng::derive_parts`].
pub const SEED_DOMAIN: &[u8] = b"fray-rng-v1";

/// Domain-separation prefix of the secret stream ([`SessionRng::derive_secret_parts`]).
pub const SECRET_SEED_DOMAIN: &[u8] = b"fray-secret-rng-v1";

/// Mask applied to the stream parameter: PCG only uses its low 127 bits.
const STREAM_MASK: u128 = u128::MAX >> 1;

/// A session's deterministic random number generator; counts every 64-bit draw.
///
/// `Debug` shows only the draw count: the state is secret until the seed is revealed.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionRng {
    pcg: Pcg64,
    state: u128,
    stream: u128,
    draws: u64,
}

impl fmt::Debug for SessionRng {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SessionRng")
            .field("draws", &self.draws)
            .finish_non_exhaustive()
    }
}

impl SessionRng {
    /// Derives the initial `(state, stream)` from a 64-bit seed (see the module docs).
    pub fn derive_parts(seed: u64) -> (u128, u128) {
        derive(SEED_DOMAIN, seed)
    }

    /// Derives the secret stream's initial `(state, stream)` from its secret seed (see the
    /// module docs, "The secret stream").
    pub fn derive_secret_parts(secret_seed: u64) -> (u128, u128) {
        derive(SECRET_SEED_DOMAIN, secret_seed)
    }

    /// Creates the secret stream for a secret seed.
    pub fn from_secret_seed(secret_seed: u64) -> Self {
        let (state, stream) = Self::derive_secret_parts(secret_seed);
        Self::from_parts(state, stream)
    }

    /// Creates the generator for a session seed.
    pub fn from_seed(seed: u64) -> Self {
        let (state, stream) = Self::derive_parts(seed);
        Self::from_parts(state, stream)
    }

    /// Creates a generator from an explicit `(state, stream)`; the top bit of `stream`
    /// is ignored (and cleared in [`Self::initial_parts`]).
    pub fn from_parts(state: u128, stream: u128) -> Self {
        let stream = stream & STREAM_MASK;
        Self {
            pcg: Pcg64::new(state, stream),
            state,
            stream,
            draws: 0,
        }
    }

    /// Recreates a generator that has already made `draws` draws from `(state, stream)`.
    pub fn resume(state: u128, stream: u128, draws: u64) -> Self {
        let mut rng = Self::from_parts(state, stream);
        rng.pcg.advance(u128::from(draws));
        rng.draws = draws;
        rng
    }

    /// The `(state, stream)` this generator started from, as recorded in the log header.
    pub fn initial_parts(&self) -> (u128, u128) {
        (self.state, self.stream)
    }

    /// Number of 64-bit outputs drawn so far.
    pub fn draws(&self) -> u64 {
        self.draws
    }

    /// Draws the next raw 64-bit output. Every other draw goes through here.
    pub fn next_u64(&mut self) -> u64 {
        self.draws = self.draws.wrapping_add(1);
        self.pcg.next_u64()
    }

    /// A uniform value in `[0, n)` (Lemire's multiply-shift with rejection over 64-bit
    /// outputs). `below(0)` returns 0 without drawing.
    pub fn below(&mut self, n: u32) -> u32 {
        lemire(n, || self.next_u64())
    }

    /// A die roll in `1..=sides`. `die(0)` returns 0 without drawing.
    pub fn die(&mut self, sides: u32) -> u32 {
        if sides == 0 {
            return 0;
        }
        self.below(sides) + 1
    }
}

/// `SHA-256(domain ‖ seed_le)` split into `(state, stream)` (module docs, step 1).
fn derive(domain: &[u8], seed: u64) -> (u128, u128) {
    let mut hasher = Sha256::new();
    hasher.update(domain);
    hasher.update(seed.to_le_bytes());
    let digest: [u8; 32] = hasher.finalize().into();
    let mut state = [0u8; 16];
    let mut stream = [0u8; 16];
    let (lo, hi) = digest.split_at(16);
    state.copy_from_slice(lo);
    stream.copy_from_slice(hi);
    (
        u128::from_le_bytes(state),
        u128::from_le_bytes(stream) & STREAM_MASK,
    )
}

/// Lemire's nearly-divisionless bounded sampler over a source of 64-bit words.
fn lemire(n: u32, mut next: impl FnMut() -> u64) -> u32 {
    if n == 0 {
        return 0;
    }
    let n = u64::from(n);
    let mut m = u128::from(next()) * u128::from(n);
    // Low half of the product; truncation is the point.
    let mut lo = m as u64;
    if lo < n {
        // 2^64 mod n: the number of low values that would bias the result.
        let threshold = n.wrapping_neg() % n;
        while lo < threshold {
            m = u128::from(next()) * u128::from(n);
            lo = m as u64;
        }
    }
    // m < 2^64 * n, so the high half is < n ≤ u32::MAX.
    (m >> 64) as u32
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    /// Independent implementation of the documented algorithm, to prove the docs right.
    struct Reference {
        s: u128,
        inc: u128,
    }

    const M: u128 = 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645;

    impl Reference {
        fn new(state: u128, stream: u128) -> Self {
            let inc = (stream << 1) | 1;
            let s = state.wrapping_add(inc).wrapping_mul(M).wrapping_add(inc);
            Self { s, inc }
        }
        fn next(&mut self) -> u64 {
            self.s = self.s.wrapping_mul(M).wrapping_add(self.inc);
            let x = ((self.s >> 64) as u64) ^ (self.s as u64);
            x.rotate_right((self.s >> 122) as u32)
        }
    }

    #[test]
    fn golden_raw_outputs_seed_42() {
        let mut rng = SessionRng::from_seed(42);
        let got: Vec<u64> = (0..8).map(|_| rng.next_u64()).collect();
        assert_eq!(got, GOLDEN_U64_SEED_42);
        assert_eq!(rng.draws(), 8);
    }

    #[test]
    fn golden_parts_seed_42() {
        assert_eq!(SessionRng::derive_parts(42), GOLDEN_PARTS_SEED_42);
    }

    /// The secret stream's derivation (module docs, "The secret stream"), cross-checked with
    /// Python: `hashlib.sha256(b"fray-secret-rng-v1" + struct.pack('<Q', 42))`.
    #[test]
    fn golden_secret_parts_seed_42() {
        assert_eq!(
            SessionRng::derive_secret_parts(42),
            (
                0x1027_a573_a715_7d89_5a61_1e3f_2b99_debe,
                0x0834_99c5_9aac_3b4a_7a59_ebc7_9bc9_11ea,
            )
        );
        assert_ne!(
            SessionRng::derive_secret_parts(42),
            SessionRng::derive_parts(42),
            "the domains separate the two streams"
        );
        let (state, stream) = SessionRng::derive_secret_parts(42);
        assert_eq!(
            SessionRng::from_secret_seed(42),
            SessionRng::from_parts(state, stream)
        );
    }

    #[test]
    fn golden_d20_seed_42() {
        let mut rng = SessionRng::from_seed(42);
        let got: Vec<u32> = (0..20).map(|_| rng.die(20)).collect();
        assert_eq!(got, GOLDEN_D20_SEED_42);
    }

    // Computed once, and cross-checked against an independent Python implementation of
    // the module-doc formulas. A change here means old replays no longer verify.
    const GOLDEN_PARTS_SEED_42: (u128, u128) = (
        0xb19c_0e1c_1a21_f8d4_080d_f561_21f2_4c10,
        0x4325_8069_2eee_a41f_eb1b_f9c5_e543_2745,
    );
    const GOLDEN_U64_SEED_42: [u64; 8] = [
        0xbf73_0384_f08e_e856,
        0xa33c_0cf3_6cc1_e5d6,
        0x315f_db0d_75bd_71f8,
        0x89f9_3cb1_1d89_7ccc,
        0x4854_8559_44ec_cc70,
        0xc830_22f1_e629_8f67,
        0x8ce7_a292_e1db_d7ac,
        0x5260_8d2a_13b1_0ea6,
    ];
    const GOLDEN_D20_SEED_42: [u32; 20] = [
        15, 13, 4, 11, 6, 16, 12, 7, 16, 18, 20, 6, 11, 6, 14, 17, 11, 10, 7, 5,
    ];

    #[test]
    fn matches_documented_reference() {
        for seed in [0u64, 1, 42, u64::MAX] {
            let (state, stream) = SessionRng::derive_parts(seed);
            let mut ours = SessionRng::from_seed(seed);
            let mut reference = Reference::new(state, stream);
            for _ in 0..64 {
                assert_eq!(ours.next_u64(), reference.next());
            }
        }
    }

    #[test]
    fn debug_does_not_leak_state() {
        let rng = SessionRng::from_seed(42);
        assert_eq!(format!("{rng:?}"), "SessionRng { draws: 0, .. }");
    }

    #[test]
    fn stream_top_bit_is_canonicalised() {
        let a = SessionRng::from_parts(7, u128::MAX);
        let b = SessionRng::from_parts(7, u128::MAX >> 1);
        assert_eq!(a, b);
        assert_eq!(a.initial_parts(), (7, u128::MAX >> 1));
    }

    #[test]
    fn resume_continues_identically() {
        let mut original = SessionRng::from_seed(42);
        for _ in 0..37 {
            original.die(6);
        }
        // Rejection sampling may draw more than once per die; resume uses the draw count.
        let n = original.draws();
        let (state, stream) = original.initial_parts();
        let mut resumed = SessionRng::resume(state, stream, n);
        assert_eq!(resumed.draws(), n);
        assert_eq!(resumed, original);
        for _ in 0..100 {
            assert_eq!(resumed.next_u64(), original.next_u64());
            assert_eq!(resumed.die(20), original.die(20));
        }
    }

    #[test]
    fn below_zero_and_one_do_not_panic() {
        let mut rng = SessionRng::from_seed(1);
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.die(0), 0);
        assert_eq!(rng.draws(), 0);
        assert_eq!(rng.below(1), 0);
        assert_eq!(rng.die(1), 1);
    }

    #[test]
    fn below_stays_in_range_and_covers_faces() {
        let mut rng = SessionRng::from_seed(9);
        for n in [2u32, 3, 6, 7, 20, 100, u32::MAX] {
            for _ in 0..500 {
                assert!(rng.below(n) < n);
            }
        }
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[(rng.die(6) - 1) as usize] += 1;
        }
        // Very loose sanity bound: each face between 800 and 1200 of 6000.
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
    }

    #[test]
    fn lemire_rejects_biased_low_words() {
        // n = 3: 2^64 mod 3 = 1, so a word whose product has low half 0 is rejected.
        let words = [0u64, u64::MAX];
        let mut i = 0;
        let v = lemire(3, || {
            let w = words[i];
            i += 1;
            w
        });
        assert_eq!(i, 2, "the first word must be rejected");
        assert_eq!(v, 2);
        // A word that is accepted: the top of the range maps to n - 1.
        assert_eq!(lemire(6, || u64::MAX), 5);
        assert_eq!(lemire(6, || 0x8000_0000_0000_0001), 3);
        assert_eq!(lemire(0, || unreachable!()), 0);
    }
}
