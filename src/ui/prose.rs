//! Text read from a server, wrapped for a pane: at the last space that fits (a word longer
//! than a row is cut), each later row under the line's own indent. Counting the rows walks the
//! same breaks without building them, so a page can count a megabyte of text it never draws.

/// Calls `row` with each row `line` takes at `width` columns: the first whole, each later one
/// to be drawn after `indent` (the line's leading spaces, unless they would take half a row).
fn each_row<'a>(line: &'a str, width: usize, mut row: impl FnMut(&'a str)) -> &'a str {
    let width = width.max(1);
    let lead = line.len() - line.trim_start_matches(' ').len();
    let hang = if lead * 2 < width { lead } else { 0 };
    let (mut start, mut count) = (0, 0);
    // The last space in the row so far, past its first character: where, and the columns before it.
    let mut space: Option<(usize, usize)> = None;
    for (i, c) in line.char_indices() {
        if count == width {
            space = match (c, space) {
                // The row is full and a space follows: that space is the break.
                (' ', _) => {
                    row(&line[start..i]);
                    (start, count, space) = (i + 1, hang, None);
                    continue;
                }
                (_, Some((at, before))) => {
                    row(&line[start..at]);
                    start = at + 1;
                    count = hang + (count - before - 1);
                    None
                }
                (_, None) => {
                    row(&line[start..i]);
                    start = i;
                    count = hang;
                    None
                }
            };
        }
        if c == ' ' && i > start && i >= lead {
            space = Some((i, count));
        }
        count += 1;
    }
    row(&line[start..]);
    &line[..hang]
}

/// The rows `line` takes at `width` columns, as [`wrap`] draws them.
pub fn rows(line: &str, width: usize) -> usize {
    let mut rows = 0;
    each_row(line, width, |_| rows += 1);
    rows
}

/// `line` wrapped at `width` columns: broken at spaces, later rows indented as the first.
pub fn wrap(line: &str, width: usize) -> Vec<String> {
    let mut pieces: Vec<&str> = Vec::new();
    let indent = each_row(line, width, |piece| pieces.push(piece));
    pieces
        .into_iter()
        .enumerate()
        .map(|(i, piece)| match i {
            0 => piece.to_string(),
            _ => format!("{indent}{piece}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{rows, wrap};

    #[test]
    fn words_are_kept_whole_and_the_indent_carries_on() {
        assert_eq!(
            wrap("    the quick brown fox jumps", 16),
            ["    the quick", "    brown fox", "    jumps"]
        );
        assert_eq!(wrap("short", 16), ["short"]);
        assert_eq!(wrap("", 16), [""]);
    }

    #[test]
    fn a_word_longer_than_a_row_is_cut() {
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("ab cdefghijkl", 4), ["ab", "cdef", "ghij", "kl"]);
        assert_eq!(wrap("ab cd", 2), ["ab", "cd"]);
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap("abcdefgh ij", 3), ["abc", "def", "gh", "ij"]);
    }

    #[test]
    fn an_indent_of_half_a_row_or_more_is_not_repeated() {
        assert_eq!(wrap("      abc def", 10), ["      abc", "def"]);
    }

    #[test]
    fn every_row_fits_and_the_count_agrees() {
        let text = "  fn main() { println!(\"héllo wörld\"); let x = 1; }   trailing  spaces  and\u{1F600}emoji";
        for width in 1..60 {
            let pieces = wrap(text, width);
            assert_eq!(rows(text, width), pieces.len(), "width {width}");
            for piece in &pieces {
                assert!(piece.chars().count() <= width.max(1), "{width}: {piece:?}");
            }
            // Nothing but spaces is added or dropped, and the text keeps its order.
            let back: String = pieces.concat().replace(' ', "");
            assert_eq!(back, text.replace(' ', ""), "width {width}");
        }
    }

    proptest::proptest! {
        /// Any text at any width: no panic, every row fits, the count agrees with the rows,
        /// and only spaces are added or dropped.
        #[test]
        fn any_text_wraps_within_its_width(text in "[ a-zé😀\\t]{0,80}", width in 1usize..40) {
            let pieces = wrap(&text, width);
            proptest::prop_assert_eq!(rows(&text, width), pieces.len());
            for piece in &pieces {
                proptest::prop_assert!(piece.chars().count() <= width);
            }
            proptest::prop_assert_eq!(pieces.concat().replace(' ', ""), text.replace(' ', ""));
        }
    }
}
