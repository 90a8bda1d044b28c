//! A library tab: the list of the server's resources, templates or prompts (in the left pane,
//! under the tabs), and beside it what the selected item is, or what opening it gave. Every
//! server string escaped (the lines come escaped from the pure layer).

use super::outline::{Piece, page_height};
use super::prose::{rows as rows_wrapped, wrap};
use super::{filter_note, keep_in_view};
use crate::app::library::state::JsonContent;
use crate::app::model::{Model, Pane, Viewport};
use crate::app::outline::{self, NodeId};
use crate::app::server::state::Connection;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// The list of the shown tab's kind, the selected item marked. Only the rows in the window
/// are written out (a server may list thousands).
pub fn draw_list(frame: &mut Frame<'_>, area: Rect, model: &Model, viewport: &mut Viewport) {
    let theme = model.view.theme;
    let library = &model.library;
    let mut title = format!(
        " {} {} ",
        library.kind.heading(),
        library.count(library.kind)
    );
    title.push_str(&filter_note(
        &library.filter,
        library.filtering,
        library.shown.len(),
    ));
    let mut block = theme.pane(title, model.view.focus == Pane::Library);
    // The marks' legend, once a mark can be seen.
    if !library.subscribed.is_empty() || !library.updated.is_empty() {
        block = block.title_bottom(" ◉ subscribed · ↻ updated ");
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if library.shown.is_empty() {
        let hint = match () {
            _ if model.session.connection != Connection::Connected => "not connected",
            _ if !library.listed && library.problems.is_empty() => "listing…",
            _ if !library.filter.is_empty() => "nothing matches the filter",
            _ => "nothing listed",
        };
        let mut lines = vec![Line::styled(hint, theme.dim())];
        lines.extend(
            library
                .problems
                .iter()
                .map(|p| Line::styled(p.clone(), theme.error())),
        );
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
        return;
    }
    let selected_row = library
        .shown
        .iter()
        .position(|&i| i == library.selected)
        .unwrap_or(0);
    viewport.library_area = inner;
    let height = usize::from(inner.height).max(1);
    let scroll = keep_in_view(library.scroll, selected_row, height);
    viewport.library_rows = height;
    viewport.library_scroll = scroll;
    let shown: Vec<Line> = library
        .shown
        .iter()
        .skip(scroll)
        .take(height)
        .map(|&i| {
            let item = &library.items[i];
            let selected = i == library.selected;
            let marker = if selected { "▶ " } else { "  " };
            // The marks come first, one character each, so they never push the name out (a
            // long line is cut at the right); the pane beside says them in words.
            let mut spans = vec![Span::raw(marker)];
            if let Some(uri) = item.uri() {
                if library.subscribed.contains(uri) {
                    spans.push(Span::styled("◉ ", theme.badge()));
                }
                if library.updated.contains(uri) {
                    spans.push(Span::styled("↻ ", theme.warn()));
                }
            }
            spans.push(Span::raw(item.line()));
            let line = Line::from(spans);
            // One reversed cursor on the screen: the focused pane's.
            match (selected, model.view.focus == Pane::Library) {
                (true, true) => line.style(theme.selected()),
                (true, false) => line.style(theme.name()),
                _ => line,
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(shown), inner);
}

/// Beside the list: what the last read or prompt gave (scrolled by the page keys), or what
/// the selected item is when it was not the one opened.
pub fn draw_opened(frame: &mut Frame<'_>, area: Rect, model: &Model, viewport: &mut Viewport) {
    let theme = model.view.theme;
    let library = &model.library;
    let selected = library.selected_item();
    let opened = library.opened.as_ref().filter(|_| library.shows_opened());
    let title = match (&library.opening, opened, selected) {
        (Some(opening), _, _) => format!(" {opening} … "),
        (None, Some(opened), _) => format!(" {} ", opened.title),
        (None, None, Some(item)) => format!(
            " {} · {} ",
            item.kind.heading().trim_end_matches('s'),
            item.action()
        ),
        (None, None, None) => " nothing selected ".into(),
    };
    let block = theme.pane(title, model.view.focus == Pane::Opened);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let height = usize::from(inner.height).max(1);
    viewport.opened_rows = height;
    viewport.opened_area = inner;
    let focused = model.view.focus == Pane::Opened;
    let wrapped = |lines: Vec<Line<'static>>| Paragraph::new(lines).wrap(Wrap { trim: false });
    match (opened, selected) {
        (Some(opened), _) => match &opened.lines {
            Ok(lines) => draw_page(
                frame,
                inner,
                (lines, &opened.pictures),
                opened.json.as_ref(),
                focused,
                model,
                viewport,
            ),
            Err(why) => {
                let why = vec![Line::styled(why.clone(), theme.error())];
                frame.render_widget(wrapped(why), inner);
            }
        },
        (None, Some(item)) if library.opening.is_none() => {
            let about = item.about().into_iter().map(Line::raw).collect();
            frame.render_widget(wrapped(about), inner);
        }
        (None, _) => {}
    }
}

/// What was opened: its lines, with a JSON content's value tree in its place (the cursor
/// shown while the pane has the focus), scrolled to keep a moved cursor in view.
fn draw_page(
    frame: &mut Frame<'_>,
    area: Rect,
    (lines, pictures): (&[String], &[Shown]),
    json: Option<&JsonContent>,
    focused: bool,
    model: &Model,
    viewport: &mut Viewport,
) {
    let theme = model.view.theme;
    let height = usize::from(area.height).max(1);
    // Long lines wrap at the pane's width: the scroll counts the rows they take.
    let width = usize::from(area.width);
    let plain = |lines: &[String]| -> Vec<Line> {
        lines
            .iter()
            .flat_map(|l| wrap(l, width))
            .map(Line::raw)
            .collect()
    };
    let Some(json) = json else {
        draw_text_page(frame, area, (lines, pictures), model, viewport);
        return;
    };
    let (before, after) = lines.split_at(json.at_line.min(lines.len()));
    let (before, after) = (plain(before), plain(after));
    let rows = outline::rows(&[json.part()]);
    let label = |node: NodeId, _depth: usize| Line::raw(json.tree.rows[node].text());
    let cursor = focused.then_some((json.cursor, theme.selected()));
    let above = before.len();
    let pieces = [
        Piece::Lines(before),
        Piece::tree(json.part(), &rows, &label, cursor).indented(2),
        Piece::Lines(after),
    ];
    let mut scroll = model.library.opened_scroll;
    if json.follow {
        let line = above + outline::index_of(&rows, Some((0, json.cursor)));
        scroll = keep_in_view(scroll, line, height);
    }
    scroll = scroll.min(page_height(&pieces).saturating_sub(height));
    viewport.opened_scroll = scroll;
    super::outline::draw_page(frame, area, &pieces, scroll);
}

/// What was opened, as text (wrapped at words, later rows under a line's indent): only the
/// rows in the window are wrapped out, the rest only counted; its images after what is said of the contents, before the result as sent.
fn draw_text_page(
    frame: &mut Frame<'_>,
    area: Rect,
    (lines, pictures): (&[String], &[Shown]),
    model: &Model,
    viewport: &mut Viewport,
) {
    let height = usize::from(area.height).max(1);
    let width = usize::from(area.width);
    let rows_of = |l: &String| rows_wrapped(l, width);
    let text_rows: usize = lines.iter().map(rows_of).sum();
    let pictures = picture_lines(pictures, width, model);
    let total = text_rows + pictures.len();
    let at = lines
        .iter()
        .rposition(|l| l == crate::app::library::state::AS_SENT)
        .map_or(lines.len(), |i| i.saturating_sub(1));
    let rows = lines[..at]
        .iter()
        .map(Row::Text)
        .chain(pictures.into_iter().map(Row::Drawn))
        .chain(lines[at..].iter().map(Row::Text));
    let scroll = model
        .library
        .opened_scroll
        .min(total.saturating_sub(height));
    viewport.opened_scroll = scroll;
    let mut skipped = 0;
    let mut shown: Vec<Line> = Vec::with_capacity(height);
    for row in rows {
        let taken = match &row {
            Row::Text(line) => rows_of(line),
            Row::Drawn(_) => 1,
        };
        if skipped + taken <= scroll {
            skipped += taken;
            continue;
        }
        match row {
            Row::Text(line) => {
                let pieces = wrap(line, width)
                    .into_iter()
                    .skip(scroll.saturating_sub(skipped));
                shown.extend(pieces.map(Line::raw));
            }
            Row::Drawn(line) => shown.push(line),
        }
        skipped = scroll;
        if shown.len() >= height {
            break;
        }
    }
    shown.truncate(height);
    frame.render_widget(Paragraph::new(shown), area);
}

/// A row of what was opened: a line of text (wrapped when drawn) or a row of a picture.
enum Row<'a> {
    Text(&'a String),
    Drawn(Line<'static>),
}

/// An image of what was opened: its caption, and the picture or why it is not drawn.
type Shown = (
    String,
    Result<crate::mcp::surface::picture::Picture, String>,
);

/// The images of what was opened, each under its caption (half-blocks; in colour only).
fn picture_lines(pictures: &[Shown], width: usize, model: &Model) -> Vec<Line<'static>> {
    let theme = model.view.theme;
    let mut lines = Vec::new();
    for (caption, picture) in pictures {
        lines.push(Line::styled(format!("image {caption}"), theme.dim()));
        match picture {
            Ok(picture) if theme.color => lines.extend(super::picture::lines(picture, width, 2)),
            Ok(_) => lines.push(Line::raw("  (not drawn: NO_COLOR)")),
            Err(why) => lines.push(Line::styled(
                format!("  {}", crate::untrusted::line(why, 200)),
                theme.warn(),
            )),
        }
    }
    lines
}
