//! A picture drawn with half-blocks: each cell's upper half is one pixel (the foreground of
//! `▀`), its lower half the next row's (the background). Scaled down to the width given.

use crate::mcp::surface::picture::Picture;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};

/// The picture's lines at most `width` cells wide, indented by `indent` spaces.
pub fn lines(picture: &Picture, width: usize, indent: usize) -> Vec<Line<'static>> {
    let (w, h) = (picture.width.max(1), picture.height.max(1));
    let columns = (w as usize).min(width.saturating_sub(indent).max(1)) as u32;
    // Nearest neighbour: pixel rows kept in the same proportion as columns.
    let rows = (u64::from(h) * u64::from(columns))
        .div_ceil(u64::from(w))
        .max(1) as u32;
    let sample = |x: u32, y: u32| {
        let [r, g, b] = picture.at(x * w / columns, (y * h / rows).min(h - 1));
        Color::Rgb(r, g, b)
    };
    (0..rows.div_ceil(2))
        .map(|cell_row| {
            let mut spans = vec![Span::raw(" ".repeat(indent))];
            for x in 0..columns {
                let top = sample(x, cell_row * 2);
                let bottom = if cell_row * 2 + 1 < rows {
                    sample(x, cell_row * 2 + 1)
                } else {
                    Color::Reset
                };
                spans.push(Span::styled("▀", Style::default().fg(top).bg(bottom)));
            }
            Line::from(spans)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_pixel_rows_make_one_line_scaled_to_the_width() {
        let red = [255, 0, 0];
        let blue = [0, 0, 255];
        let picture = Picture {
            width: 4,
            height: 2,
            pixels: vec![red, red, red, red, blue, blue, blue, blue],
        };
        let drawn = lines(&picture, 10, 2);
        assert_eq!(drawn.len(), 1);
        let cell = &drawn[0].spans[1];
        assert_eq!(cell.content, "▀");
        assert_eq!(cell.style.fg, Some(Color::Rgb(255, 0, 0)));
        assert_eq!(cell.style.bg, Some(Color::Rgb(0, 0, 255)));
        assert_eq!(drawn[0].spans.len(), 5, "indent and four cells");
        let narrow = lines(&picture, 4, 2);
        assert_eq!(
            narrow[0].spans.len(),
            3,
            "two cells at width 4 with a 2-space indent"
        );
    }
}
