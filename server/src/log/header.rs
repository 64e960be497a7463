//! Segment header byte layout: what every segment file starts with.
//!
//! ```text
//! offset  size  field
//! 0       8     magic             b"FRAYLOG\0"
//! 8       2     format_version    u16 LE (FORMAT_VERSION = 1)
//! 10      1     codec             u8 (CODEC_BINCODE = 1) — how payloads are encoded
//! 11      4     protocol_version  u32 LE
//! 15      1     ruleset_id_len    u8, ≤ MAX_ID_LEN (64)
//! 16      r     ruleset_id        UTF-8
//! 16+r    4     ruleset_version   u32 LE
//! 20+r    1     rng_id_len        u8, ≤ MAX_ID_LEN (64)
//! 21+r    g     rng_id            UTF-8, e.g. "pcg64"
//! 21+r+g  16    rng_state         u128 LE  (initial state)
//! 37+r+g  16    rng_stream        u128 LE
//! 53+r+g  32    seed_commitment   [u8; 32]
//! 85+r+g  4     segment_index     u32 LE
//! 89+r+g  8     first_seq         u64 LE  (seq of the segment's first frame)
//! 97+r+g  4     crc32c            u32 LE over bytes 0 .. 97+r+g
//! ```
//!
//! Total length is [`HEADER_FIXED_LEN`] (101) + r + g. Frames follow immediately. Decoding checks,
//! in order: magic, version, field lengths, truncation, crc, then UTF-8 validity.

/// Magic at the start of every segment file.
pub const MAGIC: [u8; 8] = *b"FRAYLOG\0";
/// Segment format version written and accepted.
pub const FORMAT_VERSION: u16 = 1;
/// Codec id for bincode-encoded payloads.
pub const CODEC_BINCODE: u8 = 1;
/// Longest ruleset id or RNG id, in bytes.
pub const MAX_ID_LEN: usize = 64;
/// Header length without the two variable-length ids.
pub const HEADER_FIXED_LEN: usize = 8 + 2 + 1 + 4 + 1 + 4 + 1 + 16 + 16 + 32 + 4 + 8 + 4;

/// Why bytes are not a valid segment header.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// The bytes end inside the header.
    #[error("truncated header: needs at least {needed} bytes, {available} available")]
    Truncated {
        /// Bytes needed from offset 0.
        needed: usize,
        /// Bytes present.
        available: usize,
    },
    /// The file does not start with [`MAGIC`].
    #[error("bad magic {found:02x?} at offset 0 (not a Fray log segment)")]
    BadMagic {
        /// First bytes found (zero-padded).
        found: [u8; 8],
    },
    /// A format version this build does not read.
    #[error("unsupported format version {found} at offset 8 (this build reads {supported})")]
    UnsupportedVersion {
        /// Version found.
        found: u16,
        /// Version supported.
        supported: u16,
    },
    /// The header checksum does not match.
    #[error(
        "header checksum mismatch over bytes 0..{len}: stored {stored:#010x}, computed {computed:#010x}"
    )]
    BadCrc {
        /// Bytes covered.
        len: usize,
        /// Stored crc.
        stored: u32,
        /// Computed crc.
        computed: u32,
    },
    /// An id is longer than [`MAX_ID_LEN`].
    #[error("{field} is {len} bytes, above the maximum of {max}")]
    FieldTooLong {
        /// Field name.
        field: &'static str,
        /// Its length.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// An id is not UTF-8.
    #[error("{field} is not valid UTF-8")]
    InvalidUtf8 {
        /// Field name.
        field: &'static str,
    },
}

/// The header at the start of each segment. All segments of a log carry the same values except
/// `segment_index` and `first_seq`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentHeader {
    /// Payload codec id ([`CODEC_BINCODE`]).
    pub codec: u8,
    /// Wire/record protocol version of the payloads.
    pub protocol_version: u32,
    /// Ruleset id, ≤ 64 bytes.
    pub ruleset_id: String,
    /// Ruleset version.
    pub ruleset_version: u32,
    /// RNG algorithm id, e.g. "pcg64", ≤ 64 bytes.
    pub rng_id: String,
    /// RNG initial state.
    pub rng_state: u128,
    /// RNG stream (increment).
    pub rng_stream: u128,
    /// Commitment to the seed (e.g. a SHA-256), published before play.
    pub seed_commitment: [u8; 32],
    /// Index of this segment (0, 1, …).
    pub segment_index: u32,
    /// Seq of the first frame of this segment.
    pub first_seq: u64,
}

/// A cursor over bytes for decoding fixed-layout headers without panicking.
pub(super) struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(buf: &'a [u8]) -> Self {
        Self { buf, pos: 0 }
    }

    pub(super) fn pos(&self) -> usize {
        self.pos
    }

    /// Takes `n` bytes; on shortage returns the total bytes needed from offset 0.
    pub(super) fn take(&mut self, n: usize) -> Result<&'a [u8], usize> {
        let end = self.pos.saturating_add(n);
        let bytes = self.buf.get(self.pos..end).ok_or(end)?;
        self.pos = end;
        Ok(bytes)
    }

    pub(super) fn array<const N: usize>(&mut self) -> Result<[u8; N], usize> {
        let bytes = self.take(N)?;
        bytes.try_into().map_err(|_| self.pos)
    }

    pub(super) fn u8(&mut self) -> Result<u8, usize> {
        Ok(u8::from_le_bytes(self.array()?))
    }

    pub(super) fn u16(&mut self) -> Result<u16, usize> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    pub(super) fn u32(&mut self) -> Result<u32, usize> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    pub(super) fn u64(&mut self) -> Result<u64, usize> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    pub(super) fn u128(&mut self) -> Result<u128, usize> {
        Ok(u128::from_le_bytes(self.array()?))
    }
}

fn id_len(field: &'static str, id: &str) -> Result<u8, HeaderError> {
    u8::try_from(id.len())
        .ok()
        .filter(|len| usize::from(*len) <= MAX_ID_LEN)
        .ok_or(HeaderError::FieldTooLong {
            field,
            len: id.len(),
            max: MAX_ID_LEN,
        })
}

impl SegmentHeader {
    /// The same header for another segment of the same log.
    pub fn for_segment(&self, segment_index: u32, first_seq: u64) -> Self {
        Self {
            segment_index,
            first_seq,
            ..self.clone()
        }
    }

    /// Encoded length in bytes.
    pub fn encoded_len(&self) -> usize {
        HEADER_FIXED_LEN + self.ruleset_id.len() + self.rng_id.len()
    }

    /// Checks the id lengths.
    pub fn validate(&self) -> Result<(), HeaderError> {
        id_len("ruleset_id", &self.ruleset_id)?;
        id_len("rng_id", &self.rng_id)?;
        Ok(())
    }

    /// Encodes the header, crc included.
    pub fn encode(&self) -> Result<Vec<u8>, HeaderError> {
        let ruleset_len = id_len("ruleset_id", &self.ruleset_id)?;
        let rng_len = id_len("rng_id", &self.rng_id)?;
        let mut out = Vec::with_capacity(self.encoded_len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.push(self.codec);
        out.extend_from_slice(&self.protocol_version.to_le_bytes());
        out.push(ruleset_len);
        out.extend_from_slice(self.ruleset_id.as_bytes());
        out.extend_from_slice(&self.ruleset_version.to_le_bytes());
        out.push(rng_len);
        out.extend_from_slice(self.rng_id.as_bytes());
        out.extend_from_slice(&self.rng_state.to_le_bytes());
        out.extend_from_slice(&self.rng_stream.to_le_bytes());
        out.extend_from_slice(&self.seed_commitment);
        out.extend_from_slice(&self.segment_index.to_le_bytes());
        out.extend_from_slice(&self.first_seq.to_le_bytes());
        let crc = crc32c::crc32c(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        Ok(out)
    }

    /// Decodes the header at the start of `buf`; returns it and its length (where frames start).
    pub fn decode(buf: &[u8]) -> Result<(Self, usize), HeaderError> {
        let truncated = |needed: usize| HeaderError::Truncated {
            needed,
            available: buf.len(),
        };
        let mut found = [0u8; 8];
        for (dst, src) in found.iter_mut().zip(buf) {
            *dst = *src;
        }
        let prefix = buf.len().min(MAGIC.len());
        if found[..prefix] != MAGIC[..prefix] {
            return Err(HeaderError::BadMagic { found });
        }
        let mut r = Reader::new(buf);
        r.take(MAGIC.len()).map_err(truncated)?;
        let version = r.u16().map_err(truncated)?;
        if version != FORMAT_VERSION {
            return Err(HeaderError::UnsupportedVersion {
                found: version,
                supported: FORMAT_VERSION,
            });
        }
        let codec = r.u8().map_err(truncated)?;
        let protocol_version = r.u32().map_err(truncated)?;
        let ruleset_id = read_id(&mut r, "ruleset_id", buf.len())?;
        let ruleset_version = r.u32().map_err(truncated)?;
        let rng_id = read_id(&mut r, "rng_id", buf.len())?;
        let rng_state = r.u128().map_err(truncated)?;
        let rng_stream = r.u128().map_err(truncated)?;
        let seed_commitment = r.array::<32>().map_err(truncated)?;
        let segment_index = r.u32().map_err(truncated)?;
        let first_seq = r.u64().map_err(truncated)?;
        let covered = r.pos();
        let stored = r.u32().map_err(truncated)?;
        let computed = crc32c::crc32c(buf.get(..covered).unwrap_or_default());
        if stored != computed {
            return Err(HeaderError::BadCrc {
                len: covered,
                stored,
                computed,
            });
        }
        let utf8 = |field, bytes: &[u8]| {
            String::from_utf8(bytes.to_vec()).map_err(|_| HeaderError::InvalidUtf8 { field })
        };
        let header = Self {
            codec,
            protocol_version,
            ruleset_id: utf8("ruleset_id", ruleset_id)?,
            ruleset_version,
            rng_id: utf8("rng_id", rng_id)?,
            rng_state,
            rng_stream,
            seed_commitment,
            segment_index,
            first_seq,
        };
        Ok((header, r.pos()))
    }

    /// Whether `other` describes the same session (all fields but `segment_index` and
    /// `first_seq` equal); on mismatch, the name of the first differing field.
    pub fn same_session(&self, other: &Self) -> Result<(), &'static str> {
        let checks: [(&'static str, bool); 8] = [
            ("codec", self.codec == other.codec),
            (
                "protocol_version",
                self.protocol_version == other.protocol_version,
            ),
            ("ruleset_id", self.ruleset_id == other.ruleset_id),
            (
                "ruleset_version",
                self.ruleset_version == other.ruleset_version,
            ),
            ("rng_id", self.rng_id == other.rng_id),
            ("rng_state", self.rng_state == other.rng_state),
            ("rng_stream", self.rng_stream == other.rng_stream),
            (
                "seed_commitment",
                self.seed_commitment == other.seed_commitment,
            ),
        ];
        match checks.iter().find(|(_, same)| !same) {
            Some((field, _)) => Err(field),
            None => Ok(()),
        }
    }
}

fn read_id<'a>(
    r: &mut Reader<'a>,
    field: &'static str,
    available: usize,
) -> Result<&'a [u8], HeaderError> {
    let truncated = |needed| HeaderError::Truncated { needed, available };
    let len = usize::from(r.u8().map_err(truncated)?);
    if len > MAX_ID_LEN {
        return Err(HeaderError::FieldTooLong {
            field,
            len,
            max: MAX_ID_LEN,
        });
    }
    r.take(len).map_err(truncated)
}

/// A header for tests.
#[cfg(test)]
pub(super) fn sample_header() -> SegmentHeader {
    SegmentHeader {
        codec: CODEC_BINCODE,
        protocol_version: 3,
        ruleset_id: "13th-age".to_owned(),
        ruleset_version: 2,
        rng_id: "pcg64".to_owned(),
        rng_state: 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210,
        rng_stream: 0xa02b_dbf7_bb3c_0a7a_c28f_a16a_64ab_f96b,
        seed_commitment: [0x5a; 32],
        segment_index: 0,
        first_seq: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type TestResult = Result<(), Box<dyn std::error::Error>>;

    #[test]
    fn round_trip() -> TestResult {
        let header = sample_header().for_segment(7, 12_345);
        let mut bytes = header.encode()?;
        assert_eq!(bytes.len(), header.encoded_len());
        assert_eq!(bytes.len(), HEADER_FIXED_LEN + 8 + 5);
        bytes.extend_from_slice(b"frames follow");
        let (decoded, len) = SegmentHeader::decode(&bytes)?;
        assert_eq!(decoded, header);
        assert_eq!(len, header.encoded_len());
        Ok(())
    }

    #[test]
    fn exact_byte_layout() -> TestResult {
        let header = SegmentHeader {
            ruleset_id: "r".to_owned(),
            rng_id: "g".to_owned(),
            ..sample_header().for_segment(0x0403_0201, 9)
        };
        let b = header.encode()?;
        assert_eq!(&b[0..8], b"FRAYLOG\0");
        assert_eq!(&b[8..10], &[1, 0]);
        assert_eq!(b[10], CODEC_BINCODE);
        assert_eq!(&b[11..15], &3u32.to_le_bytes());
        assert_eq!(&b[15..17], &[1, b'r']);
        assert_eq!(&b[17..21], &2u32.to_le_bytes());
        assert_eq!(&b[21..23], &[1, b'g']);
        assert_eq!(&b[23..39], &header.rng_state.to_le_bytes());
        assert_eq!(&b[39..55], &header.rng_stream.to_le_bytes());
        assert_eq!(&b[55..87], &[0x5a; 32]);
        assert_eq!(&b[87..91], &[1, 2, 3, 4]);
        assert_eq!(&b[91..99], &9u64.to_le_bytes());
        assert_eq!(&b[99..103], &crc32c::crc32c(&b[..99]).to_le_bytes());
        assert_eq!(b.len(), 103);
        Ok(())
    }

    #[test]
    fn decode_errors() -> TestResult {
        let bytes = sample_header().encode()?;

        let mut bad_magic = bytes.clone();
        bad_magic[3] = b'X';
        assert!(matches!(
            SegmentHeader::decode(&bad_magic),
            Err(HeaderError::BadMagic { .. })
        ));
        assert!(matches!(
            SegmentHeader::decode(b"PK\x03\x04"),
            Err(HeaderError::BadMagic { .. })
        ));

        let mut bad_version = bytes.clone();
        bad_version[8..10].copy_from_slice(&2u16.to_le_bytes());
        assert_eq!(
            SegmentHeader::decode(&bad_version),
            Err(HeaderError::UnsupportedVersion {
                found: 2,
                supported: 1
            })
        );

        let mut bad_crc = bytes.clone();
        bad_crc[40] ^= 0x80;
        assert!(matches!(
            SegmentHeader::decode(&bad_crc),
            Err(HeaderError::BadCrc { .. })
        ));
        let mut bad_stored_crc = bytes.clone();
        let last = bad_stored_crc.len() - 1;
        bad_stored_crc[last] ^= 1;
        assert!(matches!(
            SegmentHeader::decode(&bad_stored_crc),
            Err(HeaderError::BadCrc { .. })
        ));

        for cut in 0..bytes.len() {
            assert!(
                matches!(
                    SegmentHeader::decode(&bytes[..cut]),
                    Err(HeaderError::Truncated { .. })
                ),
                "cut at {cut}"
            );
        }

        let mut long_id = bytes.clone();
        long_id[15] = 200;
        assert!(matches!(
            SegmentHeader::decode(&long_id),
            Err(HeaderError::FieldTooLong {
                field: "ruleset_id",
                ..
            })
        ));

        let too_long = SegmentHeader {
            ruleset_id: "x".repeat(MAX_ID_LEN + 1),
            ..sample_header()
        };
        assert!(matches!(
            too_long.encode(),
            Err(HeaderError::FieldTooLong { .. })
        ));
        Ok(())
    }

    #[test]
    fn invalid_utf8_with_valid_crc() -> TestResult {
        let mut bytes = sample_header().encode()?;
        bytes[16] = 0xff;
        let crc_at = bytes.len() - 4;
        let crc = crc32c::crc32c(&bytes[..crc_at]);
        bytes[crc_at..].copy_from_slice(&crc.to_le_bytes());
        assert_eq!(
            SegmentHeader::decode(&bytes),
            Err(HeaderError::InvalidUtf8 {
                field: "ruleset_id"
            })
        );
        Ok(())
    }

    #[test]
    fn same_session_names_the_field() {
        let a = sample_header();
        assert_eq!(a.same_session(&a.for_segment(3, 99)), Ok(()));
        let b = SegmentHeader {
            rng_stream: 1,
            ..a.clone()
        };
        assert_eq!(a.same_session(&b), Err("rng_stream"));
    }
}
