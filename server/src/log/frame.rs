//! Frame byte layout: one opaque record of the log.
//!
//! ```text
//! offset  size  field
//! 0       4     len      u32 LE   payload length, ≤ MAX_PAYLOAD_LEN (16 MiB)
//! 4       4     crc      u32 LE   crc32c(seq bytes ‖ payload)
//! 8       8     seq      u64 LE   gapless sequence number
//! 16      len   payload
//! ```
//!
//! A `len` above [`MAX_PAYLOAD_LEN`] read from a file is corruption (it is checked before the
//! payload is looked at, so a flipped high bit cannot make a reader wait for gigabytes).
//! Decoding never panics: every problem is a [`FrameError`].

use std::ops::ControlFlow;

/// Offset of `len`.
pub const LEN_OFFSET: usize = 0;
/// Offset of `crc`.
pub const CRC_OFFSET: usize = 4;
/// Offset of `seq`.
pub const SEQ_OFFSET: usize = 8;
/// Bytes before the payload.
pub const FRAME_HEADER_LEN: usize = 16;
/// Largest payload of one frame (16 MiB).
pub const MAX_PAYLOAD_LEN: u32 = 16 * 1024 * 1024;

/// Why bytes are not a valid frame at some position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    /// The bytes end inside the frame.
    #[error("truncated frame: needs {needed} bytes, {available} available")]
    Truncated {
        /// Bytes the frame needs from its start.
        needed: u64,
        /// Bytes present from its start.
        available: u64,
    },
    /// `len` is above [`MAX_PAYLOAD_LEN`].
    #[error("frame length {len} exceeds the maximum payload of {max} bytes")]
    Oversize {
        /// Declared length.
        len: u64,
        /// The limit.
        max: u32,
    },
    /// The checksum does not match.
    #[error("frame checksum mismatch: stored {stored:#010x}, computed {computed:#010x}")]
    BadCrc {
        /// Stored crc.
        stored: u32,
        /// Crc of the bytes present.
        computed: u32,
    },
    /// A well-formed frame whose seq is not the previous seq + 1.
    #[error("frame seq {found} out of order: expected {expected}")]
    SeqOutOfOrder {
        /// Seq expected.
        expected: u64,
        /// Seq stored.
        found: u64,
    },
}

/// A decoded frame borrowing its payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame<'a> {
    /// Sequence number.
    pub seq: u64,
    /// Payload bytes.
    pub payload: &'a [u8],
}

/// The frame checksum: crc32c over the little-endian seq followed by the payload.
pub fn frame_crc(seq: u64, payload: &[u8]) -> u32 {
    crc32c::crc32c_append(crc32c::crc32c(&seq.to_le_bytes()), payload)
}

/// Bytes one frame with a payload of `payload_len` bytes takes.
pub const fn encoded_len(payload_len: usize) -> usize {
    FRAME_HEADER_LEN + payload_len
}

/// Appends one encoded frame to `out`.
pub fn encode_frame(out: &mut Vec<u8>, seq: u64, payload: &[u8]) -> Result<(), FrameError> {
    let len = u32::try_from(payload.len())
        .ok()
        .filter(|len| *len <= MAX_PAYLOAD_LEN)
        .ok_or(FrameError::Oversize {
            len: payload.len() as u64,
            max: MAX_PAYLOAD_LEN,
        })?;
    out.reserve(encoded_len(payload.len()));
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&frame_crc(seq, payload).to_le_bytes());
    out.extend_from_slice(&seq.to_le_bytes());
    out.extend_from_slice(payload);
    Ok(())
}

fn le_u32(buf: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(buf.get(at..at + 4)?.try_into().ok()?))
}

fn le_u64(buf: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(buf.get(at..at + 8)?.try_into().ok()?))
}

/// Decodes the frame at the start of `buf`; returns it and the bytes it takes.
pub fn decode_frame(buf: &[u8]) -> Result<(Frame<'_>, usize), FrameError> {
    let truncated = |needed: usize| FrameError::Truncated {
        needed: needed as u64,
        available: buf.len() as u64,
    };
    let (Some(len), Some(stored), Some(seq)) = (
        le_u32(buf, LEN_OFFSET),
        le_u32(buf, CRC_OFFSET),
        le_u64(buf, SEQ_OFFSET),
    ) else {
        return Err(truncated(FRAME_HEADER_LEN));
    };
    if len > MAX_PAYLOAD_LEN {
        return Err(FrameError::Oversize {
            len: u64::from(len),
            max: MAX_PAYLOAD_LEN,
        });
    }
    let total = encoded_len(len as usize);
    let payload = buf
        .get(FRAME_HEADER_LEN..total)
        .ok_or_else(|| truncated(total))?;
    let computed = frame_crc(seq, payload);
    if computed != stored {
        return Err(FrameError::BadCrc { stored, computed });
    }
    Ok((Frame { seq, payload }, total))
}

/// Bytes [`valid_frame_after`] may checksum per byte it searches (at least 1 MiB in all).
const SEARCH_CRC_BYTES_PER_BYTE: usize = 16;

/// Whether a valid frame (checksum good) with a seq of at least `min_seq` starts anywhere in
/// `buf` after offset `from`: what tells a damaged frame in the middle of a log from a torn
/// tail. Only offsets whose `seq` field is plausible (from `min_seq` up to one more than the
/// frames that could fit) and whose payload fits are checksummed, so random or zeroed bytes
/// cost one look each.
///
/// Hostile bytes can make every 16th offset a plausible frame with a payload of megabytes;
/// checksumming them all is quadratic (a crafted 8 MiB segment took over a minute). So the
/// search checksums at most [`SEARCH_CRC_BYTES_PER_BYTE`] bytes per byte searched, and past
/// that budget it gives up and answers the candidate's offset: the cautious answer, a
/// corruption to report rather than a torn tail to cut.
pub(super) fn valid_frame_after(buf: &[u8], from: usize, min_seq: u64) -> Option<usize> {
    let max_frames = (buf.len() / FRAME_HEADER_LEN) as u64 + 1;
    let max_seq = min_seq.saturating_add(max_frames);
    let mut budget = buf
        .len()
        .saturating_sub(from)
        .saturating_mul(SEARCH_CRC_BYTES_PER_BYTE)
        .max(1 << 20);
    (from.saturating_add(1)..buf.len()).find(|&at| {
        let rest = buf.get(at..).unwrap_or_default();
        let plausible =
            le_u64(rest, SEQ_OFFSET).is_some_and(|seq| (min_seq..=max_seq).contains(&seq));
        let Some(len) = le_u32(rest, LEN_OFFSET).map(|len| len as usize) else {
            return false;
        };
        if !plausible || len > MAX_PAYLOAD_LEN as usize || encoded_len(len) > rest.len() {
            return false;
        }
        let Some(left) = budget.checked_sub(len) else {
            return true;
        };
        budget = left;
        decode_frame(rest).is_ok()
    })
}

/// Where a [`scan_frames`] stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ScanEnd {
    /// Offset just after the last accepted frame (= offset of the bad frame, if any).
    pub end: usize,
    /// Seq the next frame would need.
    pub next_seq: u64,
    /// Why the scan stopped before the end of `buf`, unless the visitor asked to stop.
    pub corruption: Option<FrameError>,
}

/// Walks the frames of `buf` from `start`, requiring seqs `expected`, `expected + 1`, …, and
/// hands each (seq, payload, offset) to `visit`. Stops at the end of `buf`, at the first bad
/// frame (reported in [`ScanEnd::corruption`]), or when `visit` breaks.
pub(super) fn scan_frames(
    buf: &[u8],
    start: usize,
    mut expected: u64,
    mut visit: impl FnMut(u64, &[u8], usize) -> ControlFlow<()>,
) -> ScanEnd {
    let mut offset = start;
    loop {
        let rest = match buf.get(offset..) {
            Some(rest) if !rest.is_empty() => rest,
            _ => {
                return ScanEnd {
                    end: offset,
                    next_seq: expected,
                    corruption: None,
                };
            }
        };
        let stop = |reason| ScanEnd {
            end: offset,
            next_seq: expected,
            corruption: Some(reason),
        };
        let (frame, used) = match decode_frame(rest) {
            Ok(decoded) => decoded,
            Err(reason) => return stop(reason),
        };
        if frame.seq != expected {
            return stop(FrameError::SeqOutOfOrder {
                expected,
                found: frame.seq,
            });
        }
        let flow = visit(frame.seq, frame.payload, offset);
        offset += used;
        expected = expected.wrapping_add(1);
        if flow.is_break() {
            return ScanEnd {
                end: offset,
                next_seq: expected,
                corruption: None,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type TestResult = Result<(), Box<dyn std::error::Error>>;

    fn encode(frames: &[(u64, &[u8])]) -> Result<Vec<u8>, FrameError> {
        let mut out = Vec::new();
        for (seq, payload) in frames {
            encode_frame(&mut out, *seq, payload)?;
        }
        Ok(out)
    }

    #[test]
    fn round_trip() -> TestResult {
        let buf = encode(&[(7, b"hello"), (8, b""), (9, &[0xff; 300])])?;
        let (f, used) = decode_frame(&buf)?;
        assert_eq!((f.seq, f.payload, used), (7, &b"hello"[..], 21));
        let mut seen = Vec::new();
        let end = scan_frames(&buf, 0, 7, |seq, payload, offset| {
            seen.push((seq, payload.len(), offset));
            ControlFlow::Continue(())
        });
        assert_eq!(seen, vec![(7, 5, 0), (8, 0, 21), (9, 300, 37)]);
        assert_eq!(end.end, buf.len());
        assert_eq!(end.next_seq, 10);
        assert_eq!(end.corruption, None);
        Ok(())
    }

    #[test]
    fn exact_byte_layout() -> TestResult {
        let buf = encode(&[(0x0102_0304_0506_0708, b"ab")])?;
        assert_eq!(&buf[0..4], &2u32.to_le_bytes());
        let crc = frame_crc(0x0102_0304_0506_0708, b"ab");
        assert_eq!(&buf[4..8], &crc.to_le_bytes());
        assert_eq!(&buf[8..16], &[8, 7, 6, 5, 4, 3, 2, 1]);
        assert_eq!(&buf[16..], b"ab");
        let mut manual = 0x0102_0304_0506_0708u64.to_le_bytes().to_vec();
        manual.extend_from_slice(b"ab");
        assert_eq!(crc, crc32c::crc32c(&manual));
        Ok(())
    }

    #[test]
    fn decode_errors() -> TestResult {
        let buf = encode(&[(1, b"payload")])?;
        for cut in 0..buf.len() {
            assert!(matches!(
                decode_frame(&buf[..cut]),
                Err(FrameError::Truncated { .. })
            ));
        }
        let mut flipped = buf.clone();
        flipped[20] ^= 0x10;
        assert!(matches!(
            decode_frame(&flipped),
            Err(FrameError::BadCrc { .. })
        ));
        let mut seq_flipped = buf.clone();
        seq_flipped[9] ^= 1;
        assert!(matches!(
            decode_frame(&seq_flipped),
            Err(FrameError::BadCrc { .. })
        ));
        let mut huge = buf.clone();
        huge[0..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            decode_frame(&huge),
            Err(FrameError::Oversize { .. })
        ));
        let mut out = Vec::new();
        let too_big = vec![0u8; MAX_PAYLOAD_LEN as usize + 1];
        assert!(matches!(
            encode_frame(&mut out, 0, &too_big),
            Err(FrameError::Oversize { .. })
        ));
        assert!(out.is_empty());
        Ok(())
    }

    #[test]
    fn scan_stops_at_out_of_order_seq_and_on_break() -> TestResult {
        let buf = encode(&[(0, b"a"), (1, b"b"), (5, b"c")])?;
        let end = scan_frames(&buf, 0, 0, |_, _, _| ControlFlow::Continue(()));
        assert_eq!(end.end, 34);
        assert_eq!(
            end.corruption,
            Some(FrameError::SeqOutOfOrder {
                expected: 2,
                found: 5
            })
        );
        let end = scan_frames(&buf, 0, 0, |_, _, _| ControlFlow::Break(()));
        assert_eq!((end.end, end.next_seq, end.corruption), (17, 1, None));
        Ok(())
    }
}
