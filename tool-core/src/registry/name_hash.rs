//! The hasher of the registry's name index. A call looks its tool up by name on every
//! dispatch, so hashing is on the hot path: a name is hashed from its length and its first
//! and last eight bytes (all of a name up to 16 bytes), which takes fewer instructions than
//! hashing every byte. Names that share both ends and their length land together, and are
//! then told apart by comparison, as any collision is; the names are the registry's own, so
//! no caller can choose them to collide.

use core::hash::{BuildHasherDefault, Hasher};

/// The name index's `BuildHasher`.
pub(crate) type BuildNameHasher = BuildHasherDefault<NameHasher>;

#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct NameHasher(u64);

impl Hasher for NameHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let (head, tail) = match bytes.len() {
            len @ 0..8 => {
                let mut buffer = [0; 8];
                buffer[..len].copy_from_slice(bytes);
                (u64::from_le_bytes(buffer), 0)
            }
            len => (le_u64(&bytes[..8]), le_u64(&bytes[len - 8..])),
        };
        self.0 = fold(self.0 ^ head ^ (bytes.len() as u64), tail ^ 0x243f_6a88_85a3_08d3);
    }

    /// `str` ends its hash with a `0xff`, which tells nothing here.
    #[inline]
    fn write_u8(&mut self, _: u8) {}

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

#[inline]
fn le_u64(bytes: &[u8]) -> u64 {
    let mut buffer = [0; 8];
    buffer.copy_from_slice(bytes);
    u64::from_le_bytes(buffer)
}

/// The folded 128-bit product: every input bit reaches the high and the low bits, which
/// hashbrown uses for the tag and the slot.
#[inline]
fn fold(a: u64, b: u64) -> u64 {
    let product = u128::from(a ^ 0x1319_8a2e_0370_7344).wrapping_mul(u128::from(b));
    #[expect(clippy::cast_possible_truncation, reason = "the two halves, folded")]
    let (low, high) = (product as u64, (product >> 64) as u64);
    low ^ high
}

#[cfg(test)]
mod tests {
    use core::hash::BuildHasher;

    use super::BuildNameHasher;

    #[test]
    fn names_that_differ_hash_apart() {
        let hash = |name: &str| BuildNameHasher::default().hash_one(name);
        let names = ["", "a", "b", "ab", "ba", "get_weather", "get_weathers", "tool_001", "tool_002", "tool_0001"];
        for (i, a) in names.iter().enumerate() {
            for b in &names[i + 1..] {
                assert_ne!(hash(a), hash(b), "{a:?} and {b:?}");
            }
        }
        assert_eq!(hash("weather_forecast"), hash("weather_forecast"));
    }
}
