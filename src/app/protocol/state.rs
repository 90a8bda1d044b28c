//! The protocol pane's data: every JSON-RPC message of the session in order, both ways, each
//! answer paired with its request for the latency, at most [`KEPT`] (the oldest dropped and
//! counted); the selected message and its value tree. Pure.

use crate::app::command::Command;
use crate::app::value_tree::ValueTree;
use crate::mcp::transport::wire::{Direction, WireMessage};
use std::collections::{HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

/// Messages kept; older ones are dropped (and counted).
pub const KEPT: usize = 100_000;
/// Bytes of messages kept whole; beyond, the oldest keep only their line (size and kind).
pub const KEPT_BYTES: usize = 64 << 20;

/// One listed message.
#[derive(Debug, Clone)]
pub struct Entry {
    pub wire: WireMessage,
    /// For an answer: how long after its request it came.
    pub latency: Option<Duration>,
    /// For an answer: the method of the request it answers (its first 80 characters).
    pub answers: Option<String>,
}

/// The selected message as a value tree, with its open rows.
#[derive(Debug, Clone)]
pub struct Detail {
    /// The message's number (see [`Protocol::number`]).
    pub number: u64,
    pub tree: ValueTree,
    pub open: HashSet<usize>,
}

/// The list's filter: messages whose method or text holds `text`, ignoring ASCII case.
#[derive(Debug, Clone, Default)]
pub struct MessageFilter {
    pub text: String,
    /// True while the user is typing into it.
    pub editing: bool,
    /// The numbers of the kept messages that match, oldest first (kept up as messages come,
    /// so a frame never searches 100,000 messages).
    matches: VecDeque<u64>,
}

impl MessageFilter {
    pub fn is_on(&self) -> bool {
        !self.text.is_empty()
    }

    /// Whether the message (or, for an answer, the method it answers) holds the text.
    fn admits(&self, wire: &WireMessage, answers: Option<&str>) -> bool {
        let needle = self.text.as_bytes();
        let holds = |hay: &str| {
            hay.as_bytes()
                .windows(needle.len())
                .any(|w| w.eq_ignore_ascii_case(needle))
        };
        wire.method.as_deref().is_some_and(holds)
            || answers.is_some_and(holds)
            || wire.message.as_deref().is_some_and(holds)
    }
}

#[derive(Debug, Clone, Default)]
pub struct Protocol {
    pub entries: VecDeque<Entry>,
    /// Messages dropped: from the front to stay within [`KEPT`], or before the UI took them.
    pub dropped: u64,
    /// When the first message went: times are shown from it.
    pub origin: Option<Instant>,
    /// The selected message's number; `None` follows the newest.
    pub selected: Option<u64>,
    pub scroll: usize,
    pub detail: Option<Detail>,
    pub filter: MessageFilter,
    /// Requests awaiting an answer, by direction and id: when they went, and their method.
    awaiting: HashMap<(Direction, String), (Instant, String)>,
    /// Messages ever dropped from the front: the number of `entries[0]`.
    first: u64,
    /// Bytes of the messages kept whole, and the index before which none are.
    bytes: usize,
    whole_from: usize,
}

impl Protocol {
    /// Takes messages from the transports, oldest first.
    pub fn add(&mut self, batch: Vec<WireMessage>, dropped_before: u64) {
        self.dropped += dropped_before;
        // Room for every message at once: growing by doubling would copy the list again and
        // again under a flood. Untouched room costs address space, not memory.
        if self.entries.capacity() < KEPT {
            self.entries.reserve_exact(KEPT - self.entries.len());
        }
        for wire in batch {
            self.origin.get_or_insert(wire.at);
            let (latency, answers) = match (&wire.id, &wire.method) {
                (Some(id), Some(method)) => {
                    if self.awaiting.len() < KEPT {
                        let method = method.chars().take(80).collect();
                        self.awaiting
                            .insert((wire.direction, id.clone()), (wire.at, method));
                    }
                    (None, None)
                }
                // An answer goes the other way from its request.
                (Some(id), None) => {
                    let asked = match wire.direction {
                        Direction::In => Direction::Out,
                        Direction::Out => Direction::In,
                    };
                    match self.awaiting.remove(&(asked, id.clone())) {
                        Some((sent, method)) => {
                            (Some(wire.at.saturating_duration_since(sent)), Some(method))
                        }
                        None => (None, None),
                    }
                }
                (None, _) => (None, None),
            };
            if self.entries.len() >= KEPT
                && let Some(old) = self.entries.pop_front()
            {
                self.first += 1;
                self.dropped += 1;
                self.whole_from = self.whole_from.saturating_sub(1);
                if old.wire.message.is_some() {
                    self.bytes -= old.wire.bytes;
                }
            }
            if wire.message.is_some() {
                self.bytes += wire.bytes;
            }
            if self.filter.is_on() && self.filter.admits(&wire, answers.as_deref()) {
                self.filter
                    .matches
                    .push_back(self.first + self.entries.len() as u64);
            }
            self.entries.push_back(Entry {
                wire,
                latency,
                answers,
            });
            // Over the byte budget: the oldest messages give up their bodies, not their lines.
            while self.bytes > KEPT_BYTES && self.whole_from < self.entries.len() {
                let wire = &mut self.entries[self.whole_from].wire;
                if wire.message.take().is_some() {
                    self.bytes -= wire.bytes;
                }
                self.whole_from += 1;
            }
        }
        while self.filter.matches.front().is_some_and(|&n| n < self.first) {
            self.filter.matches.pop_front();
        }
    }

    /// Sets the filter's text and finds the messages it admits.
    pub fn set_filter(&mut self, text: String) {
        self.filter.text = text;
        let matches = match self.filter.is_on() {
            false => VecDeque::new(),
            true => (self.entries.iter().enumerate())
                .filter(|(_, e)| self.filter.admits(&e.wire, e.answers.as_deref()))
                .map(|(i, _)| self.number(i))
                .collect(),
        };
        self.filter.matches = matches;
        self.scroll = 0;
    }

    /// How many rows the list shows: every message, or those the filter admits.
    pub fn rows(&self) -> usize {
        match self.filter.is_on() {
            true => self.filter.matches.len(),
            false => self.entries.len(),
        }
    }

    /// The message shown on list row `row`, as an index into `entries`.
    pub fn index_of_row(&self, row: usize) -> Option<usize> {
        match self.filter.is_on() {
            true => (self.filter.matches.get(row)).map(|&n| (n - self.first) as usize),
            false => (row < self.entries.len()).then_some(row),
        }
    }

    /// The number of the entry at `index` (numbers survive drops from the front).
    pub fn number(&self, index: usize) -> u64 {
        self.first + index as u64
    }

    /// The selected row: the chosen message's (or the next shown after it) while it is kept,
    /// else the newest.
    pub fn selected_row(&self) -> Option<usize> {
        let last = self.rows().checked_sub(1)?;
        Some(match self.selected {
            Some(n) if n >= self.first => match self.filter.is_on() {
                true => self.filter.matches.partition_point(|&m| m < n).min(last),
                false => ((n - self.first) as usize).min(last),
            },
            _ => last,
        })
    }

    /// The selected message's index into `entries`.
    pub fn selected_index(&self) -> Option<usize> {
        self.index_of_row(self.selected_row()?)
    }

    /// Selects list row `row`; the newest row follows new messages again.
    pub fn select_row(&mut self, row: usize) {
        let last = self.rows().saturating_sub(1);
        let row = row.min(last);
        self.selected = match row == last {
            true => None,
            false => self.index_of_row(row).map(|i| self.number(i)),
        };
    }

    /// Moves the selection by a motion command.
    pub fn motion(&mut self, command: Command, page: usize) {
        let Some(at) = self.selected_row() else {
            return;
        };
        let last = self.rows() - 1;
        let to = match command {
            Command::Down => (at + 1).min(last),
            Command::Up => at.saturating_sub(1),
            Command::PageDown => (at + page.max(1)).min(last),
            Command::PageUp => at.saturating_sub(page.max(1)),
            Command::First => 0,
            Command::Last => last,
            _ => return,
        };
        self.select_row(to);
    }

    /// Builds the selected message's tree when the selection changed (never while drawing).
    pub fn refresh_detail(&mut self) {
        let Some(index) = self.selected_index() else {
            self.detail = None;
            return;
        };
        let number = self.number(index);
        if self.detail.as_ref().is_some_and(|d| d.number == number) {
            return;
        }
        self.detail = self.entries[index].wire.message.as_ref().map(|text| {
            // Read as written: a repeated key or a number's own spelling is what the pane is for;
            // unless a secret is in it, which the server's own escapes (`\u0053`) may hide
            // from a text match: then the parsed message, redacted.
            let tree = match crate::secrets::redacted_json(text) {
                Some(redacted) => ValueTree::build_rooted(&redacted, "", "."),
                None => ValueTree::build_written(text, "", ".").unwrap_or_else(|| {
                    let message = serde_json::from_str(text).unwrap_or(serde_json::Value::Null);
                    ValueTree::build_rooted(&message, "", ".")
                }),
            };
            let open = tree.default_open();
            Detail { number, tree, open }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn wire(direction: Direction, message: serde_json::Value, at: Instant) -> WireMessage {
        WireMessage::new(direction, &message, &message.to_string(), at)
    }

    #[test]
    fn answers_are_paired_with_their_requests_and_old_messages_go() {
        let t0 = Instant::now();
        let mut p = Protocol::default();
        p.add(
            vec![
                wire(
                    Direction::Out,
                    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
                    t0,
                ),
                wire(
                    Direction::In,
                    json!({"jsonrpc": "2.0", "method": "notifications/message"}),
                    t0,
                ),
                wire(
                    Direction::In,
                    json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
                    t0 + Duration::from_millis(15),
                ),
            ],
            2,
        );
        assert_eq!(p.entries[2].latency, Some(Duration::from_millis(15)));
        assert_eq!(p.entries[2].wire.answer, Some("result"));
        assert_eq!(p.dropped, 2);
        assert_eq!(p.selected_index(), Some(2), "follows the newest");
        p.motion(Command::Up, 10);
        assert_eq!(p.selected, Some(1));
        p.refresh_detail();
        assert_eq!(p.detail.as_ref().map(|d| d.number), Some(1));
        let flood: Vec<WireMessage> = (0..KEPT)
            .map(|_| {
                wire(
                    Direction::In,
                    json!({"method": "notifications/progress"}),
                    t0,
                )
            })
            .collect();
        p.add(flood, 0);
        assert_eq!(p.entries.len(), KEPT);
        assert_eq!(p.dropped, 5);
        assert_eq!(
            p.selected_index(),
            Some(KEPT - 1),
            "the chosen message is gone"
        );
    }

    #[test]
    fn past_the_byte_budget_the_oldest_messages_keep_only_their_lines() {
        let t0 = Instant::now();
        let big = |i: u64| {
            let mut w = wire(
                Direction::In,
                json!({"method": "notifications/message"}),
                t0,
            );
            w.id = Some(i.to_string());
            w.bytes = 1 << 20;
            w
        };
        let mut p = Protocol::default();
        let count = (KEPT_BYTES >> 20) as u64 + 8;
        p.add((0..count).map(big).collect(), 0);
        assert_eq!(p.entries.len() as u64, count, "every line stays");
        let whole = p
            .entries
            .iter()
            .filter(|e| e.wire.message.is_some())
            .count();
        assert_eq!(whole, KEPT_BYTES >> 20);
        assert!(
            p.entries[0].wire.message.is_none()
                && p.entries[count as usize - 1].wire.message.is_some()
        );
    }
}

#[cfg(test)]
mod filter_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_filter_shows_matching_messages_and_keeps_up_with_new_ones() {
        let t0 = Instant::now();
        let message =
            |m: serde_json::Value| WireMessage::new(Direction::In, &m, &m.to_string(), t0);
        let mut p = Protocol::default();
        p.add(
            vec![
                message(json!({"id": 1, "method": "tools/list"})),
                message(json!({"method": "notifications/progress"})),
                message(json!({"id": 1, "result": {"tools": [{"name": "Weather"}]}})),
            ],
            0,
        );
        p.set_filter("WEATHER".into());
        assert_eq!(
            (p.rows(), p.selected_index()),
            (1, Some(2)),
            "text, any case"
        );
        p.set_filter("tools/".into());
        assert_eq!(p.rows(), 1);
        p.add(vec![message(json!({"id": 2, "method": "tools/call"}))], 0);
        assert_eq!(
            (p.rows(), p.index_of_row(1)),
            (2, Some(3)),
            "a new match is shown"
        );
        p.motion(Command::Up, 10);
        assert_eq!(p.selected_index(), Some(0));
        p.set_filter(String::new());
        assert_eq!(
            (p.rows(), p.selected_index()),
            (4, Some(0)),
            "the selection stays"
        );
    }

    #[test]
    fn an_answer_names_the_method_it_answers_and_is_found_by_it() {
        let t0 = Instant::now();
        let going = |d, m: serde_json::Value| WireMessage::new(d, &m, &m.to_string(), t0);
        let mut p = Protocol::default();
        p.add(
            vec![
                going(Direction::Out, json!({"id": 7, "method": "tools/call"})),
                going(Direction::In, json!({"id": 9, "method": "roots/list"})),
                going(Direction::Out, json!({"id": 9, "result": {"roots": []}})),
                going(Direction::In, json!({"id": 7, "result": {"content": []}})),
                going(Direction::In, json!({"id": 8, "result": {}})),
            ],
            0,
        );
        let answers: Vec<Option<&str>> = p.entries.iter().map(|e| e.answers.as_deref()).collect();
        assert_eq!(
            answers,
            [None, None, Some("roots/list"), Some("tools/call"), None],
            "each answer paired with its request, the other way; an unknown id with none"
        );
        p.set_filter("tools/call".into());
        assert_eq!(p.rows(), 2, "the call and its answer");
    }

    #[test]
    fn a_message_is_shown_as_written_numbers_and_repeated_keys_included() {
        let text = r#"{"jsonrpc":"2.0","id":1,"result":{"big":1e400,"n":1E2,"twice":1,"twice":2}}"#;
        let message: serde_json::Value = serde_json::from_str(text).expect("json");
        let mut p = Protocol::default();
        p.add(
            vec![WireMessage::new(
                Direction::In,
                &message,
                text,
                Instant::now(),
            )],
            0,
        );
        p.refresh_detail();
        let rows: Vec<String> = p
            .detail
            .expect("detail")
            .tree
            .rows
            .iter()
            .map(|r| r.text())
            .collect();
        for row in [
            r#""big": 1e400"#,
            r#""n": 1E2"#,
            r#""twice": 1"#,
            r#""twice" (repeated key): 2"#,
        ] {
            assert!(rows.contains(&row.to_string()), "{row} in {rows:?}");
        }
    }
}
