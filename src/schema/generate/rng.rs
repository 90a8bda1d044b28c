//! The pseudo-random numbers of `verify`: SplitMix64, written out here so that a seed gives
//! the same inputs in every version of mcp-inspect (a crate's generator may change its
//! algorithm between releases, and `--seed` must repeat a run exactly). Pure.

/// A seeded SplitMix64 stream.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`0` when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// An integer in `low..=high`.
    pub fn between(&mut self, low: i128, high: i128) -> i128 {
        if high <= low {
            return low;
        }
        let span = (high - low) as u128;
        let pick = if span >= u64::MAX as u128 {
            self.next_u64() as u128
        } else {
            self.below(span as u64 + 1) as u128
        };
        low + pick as i128
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len() as u64) as usize)
    }
}

/// A seed for a run that was given none: the clock and the process, printed so a run repeats.
pub fn fresh_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(0, |d| d.as_nanos() as u64) ^ u64::from(std::process::id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_the_same_numbers_always() {
        // The reference values of SplitMix64 seeded with 1234567.
        let mut rng = Rng::new(1234567);
        assert_eq!(rng.next_u64(), 6457827717110365317);
        assert_eq!(rng.next_u64(), 3203168211198807973);
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..100 {
            assert_eq!(a.between(-5, 5), b.between(-5, 5));
        }
        let mut c = Rng::new(9);
        assert!(
            (0..1000)
                .map(|_| c.between(1, 3))
                .all(|n| (1..=3).contains(&n))
        );
    }
}
