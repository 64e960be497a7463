//! Commit–reveal for session seeds.
//!
//! When a session is created the server publishes
//! `commitment = SHA-256(seed_le ‖ salt)`, where `seed_le` is the 64-bit seed as 8 bytes
//! little-endian and `salt` is 16 secret random bytes (40 bytes hashed in total). When the
//! session ends, or the GM reveals it, the server publishes `seed` and `salt`; anyone can
//! recompute the hash with [`verify_commitment`] and then replay the log from the seed.
//! Hex helpers ([`encode_hex`], [`decode_hex`]) use lowercase output and accept either case.

use sha2::{Digest, Sha256};

/// Length in bytes of the secret salt.
pub const SALT_LEN: usize = 16;

/// The published commitment to `seed`: SHA-256 of the seed (8 bytes little-endian)
/// followed by the salt.
pub fn commitment(seed: u64, salt: &[u8; SALT_LEN]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(seed.to_le_bytes());
    hasher.update(salt);
    hasher.finalize().into()
}

/// Whether `seed` and `salt` open the published `commitment`.
pub fn verify_commitment(commitment_bytes: &[u8; 32], seed: u64, salt: &[u8; SALT_LEN]) -> bool {
    commitment(seed, salt) == *commitment_bytes
}

/// Lowercase hexadecimal encoding of `bytes`.
pub fn encode_hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(hex_digit(b >> 4));
        out.push(hex_digit(b & 0x0f));
    }
    out
}

/// Lowercase hex digit for the low four bits of `n`.
fn hex_digit(n: u8) -> char {
    let n = n & 0x0f;
    char::from(if n < 10 { b'0' + n } else { b'a' + (n - 10) })
}

/// Decodes exactly `N` bytes from `2 * N` hex digits (either case); `None` if the text
/// has the wrong length or a non-hex character.
pub fn decode_hex<const N: usize>(text: &str) -> Option<[u8; N]> {
    let digits = text.as_bytes();
    if digits.len() != N.checked_mul(2)? {
        return None;
    }
    let mut out = [0u8; N];
    for (slot, pair) in out.iter_mut().zip(digits.chunks_exact(2)) {
        let (hi, lo) = match pair {
            [hi, lo] => (nibble(*hi)?, nibble(*lo)?),
            _ => return None,
        };
        *slot = (hi << 4) | lo;
    }
    Some(out)
}

/// Value of one hex digit.
fn nibble(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SALT: [u8; 16] = *b"fray-test-salt!!";

    #[test]
    fn fixed_vector() {
        // Cross-checked with Python: hashlib.sha256(struct.pack('<Q', 42) + SALT).
        let c = commitment(42, &SALT);
        assert_eq!(encode_hex(&c), GOLDEN);
        assert_eq!(decode_hex::<32>(GOLDEN), Some(c));
    }

    const GOLDEN: &str = "01b61136591345bbcb81f844910ad205cb87181602f5f19a273f9dc985e06f09";

    #[test]
    fn verify_accepts_and_rejects() {
        let c = commitment(42, &SALT);
        assert!(verify_commitment(&c, 42, &SALT));
        assert!(!verify_commitment(&c, 43, &SALT));
        let mut other = SALT;
        other[0] ^= 1;
        assert!(!verify_commitment(&c, 42, &other));
    }

    #[test]
    fn hex_round_trip_and_errors() {
        let c = commitment(7, &SALT);
        assert_eq!(decode_hex::<32>(&encode_hex(&c)), Some(c));
        assert_eq!(decode_hex::<2>("ABcd"), Some([0xab, 0xcd]));
        assert_eq!(decode_hex::<2>("abc"), None);
        assert_eq!(decode_hex::<2>("abcde0"), None);
        assert_eq!(decode_hex::<2>("zzzz"), None);
        assert_eq!(decode_hex::<2>("éa"), None);
        assert_eq!(decode_hex::<0>(""), Some([]));
    }
}
