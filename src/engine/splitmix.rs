//! The engines' one source of pseudo-random choices (`kairos simulate`'s
//! run, `--search rdfs`'s order): Steele, Lea and Flood's SplitMix64, small,
//! fast, and the same sequence for a seed on every platform, so a seeded
//! run is reproducible anywhere (no dependence on hashing or addresses).

pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0), by rejection so no value is favoured.
    pub fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let r = self.next();
            if r < zone {
                return (r % n) as usize;
            }
        }
    }

    /// Puts `items` in a uniformly drawn order (Fisher and Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn a_shuffle_is_a_permutation_fixed_by_the_seed() {
        let shuffled = |seed| {
            let mut v: Vec<u32> = (0..20).collect();
            SplitMix64::new(seed).shuffle(&mut v);
            v
        };
        let mut sorted = shuffled(7);
        assert_eq!(sorted, shuffled(7));
        assert_ne!(sorted, shuffled(8));
        sorted.sort_unstable();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
    }
}
