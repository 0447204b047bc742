//! Seeds: SplitMix64, the one mixer every crate derives independent seeds with (the terminal's
//! throws and bot seeds, the duplicate matches' game seeds, test generators).

pub use crate::conformance::SplitMix;

/// The SplitMix64 increment (the golden ratio in 64 bits).
pub const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function: a bijective scramble of a 64-bit state.
pub fn finalize(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// SplitMix64 of `a` and `b`: the first output of [`SplitMix`] started at `a ^ b * GAMMA`.
/// Independent seeds for independent uses of one seed.
pub fn mix(a: u64, b: u64) -> u64 {
    finalize((a ^ b.wrapping_mul(GAMMA)).wrapping_add(GAMMA))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mix_is_the_first_output_of_splitmix_and_fixed() {
        for (a, b) in [(0, 0), (1, 2), (u64::MAX, 7), (123_456, 0)] {
            assert_eq!(mix(a, b), SplitMix(a ^ b.wrapping_mul(GAMMA)).next_u64());
        }
        // The reference SplitMix64 sequence from seed 0.
        let mut r = SplitMix(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(mix(0, 0), 0xE220_A839_7B1D_CDAF);
    }
}
