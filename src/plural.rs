//! Counts in words: "1 page", "2 pages". Every noun counted here takes a plain `s`.

/// `n` and the noun, singular for one.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_is_singular() {
        assert_eq!(super::count(1, "page"), "1 page");
        assert_eq!(super::count(0, "block"), "0 blocks");
        assert_eq!(super::count(12, "place"), "12 places");
    }
}
