//! Where a tap keeps its sessions: one recording per session (the `--record` format, so
//! `replay`, `test` and the TUI read it) under `$XDG_STATE_HOME/mcp-inspect/taps/` (0700),
//! named by server and time, each file 0600 and capped like any recording, the oldest
//! sessions deleted past `--keep`. Lines reach the recording through a queue bounded in lines
//! and bytes, on a thread of its own that writes through a buffer flushed within 20 ms: a full
//! queue drops the line (counted, said at the end), never waits.

use crate::mcp::transport::record::{Direction, Recorder};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::time::Duration;

/// Items, and bytes of them, waiting for the recording at most; past either they are dropped,
/// not waited for. 4 MiB keeps the tap under 20 MiB in a flood (at 8 MiB it reached 20.2).
const QUEUED: usize = 65_536;
const QUEUED_BYTES: usize = 4 << 20;
/// A line longer than this is not recorded (it is forwarded whole all the same).
pub const MAX_LINE: usize = 4 << 20;
/// The longest a recorded line waits in the buffer before it is written to the file.
const FLUSH_EVERY: Duration = Duration::from_millis(20);
/// How long the recording lets a busy session's lines gather before it takes them.
const GATHER: Duration = Duration::from_millis(1);
/// How long the end of a session waits for the recording to catch up.
const DRAIN: Duration = Duration::from_secs(1);

/// The directory sessions are kept in, when a state directory is known.
pub fn dir() -> Option<PathBuf> {
    crate::private_files::base_dir("XDG_STATE_HOME", ".local/state", "taps")
}

/// What the recording thread is handed: a line, bytes of a stream as read, a stream's end,
/// or the end of the session (answered once every line before it is written).
enum Item {
    /// A whole message (the HTTP tap's).
    Line(Direction, Vec<u8>),
    /// Bytes of a stream as read (the stdio tap's): split into lines on the recording thread,
    /// off the forwarding path; `gap` when bytes before them were dropped.
    Chunk {
        direction: Direction,
        bytes: Vec<u8>,
        gap: Option<Gap>,
    },
    /// A stream ended: what it left without a line break is recorded (unless `gap` cut it).
    Ended(Direction, Option<Gap>),
    End,
}

/// Bytes of a stream dropped from the recording: the line under way lost its end (or all of
/// it), and how the dropped bytes ended says whether the next bytes start a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gap {
    /// They ended with a line break: what follows starts a line.
    AtLineStart,
    /// They ended inside a line, whose rest follows: it is not recorded either.
    MidLine,
}

/// The recording of one session, written on a thread of its own.
pub struct Tapped {
    sender: Option<SyncSender<Item>>,
    dropped: Arc<AtomicU64>,
    queued: Arc<AtomicUsize>,
    done: Option<Receiver<()>>,
    path: Option<PathBuf>,
    /// The session's file, locked while the tap runs: how `attach` and `taps` tell a live
    /// session (the lock goes with the process, however it ends).
    _live: Option<std::fs::File>,
}

/// Where a forwarding thread hands its lines.
#[derive(Clone)]
pub struct Sink {
    sender: Option<SyncSender<Item>>,
    dropped: Arc<AtomicU64>,
    /// Bytes of the lines waiting.
    queued: Arc<AtomicUsize>,
    /// Bytes of this sink's stream were dropped since its last chunk was queued.
    gap: Option<Gap>,
    /// The line under way in this sink's stream, as far as it came.
    line: LineSoFar,
}

/// A line under way: its bytes so far, and whether any of them were dropped.
#[derive(Clone, Copy, Default)]
struct LineSoFar {
    bytes: usize,
    lost: bool,
}

impl Sink {
    /// A sink that records nothing.
    pub fn none() -> Sink {
        Sink {
            sender: None,
            dropped: Arc::new(AtomicU64::new(0)),
            queued: Arc::new(AtomicUsize::new(0)),
            gap: None,
            line: LineSoFar::default(),
        }
    }

    /// Hands a line to the recording, or drops it (counted) when the recording lags.
    pub fn offer(&self, direction: Direction, line: Vec<u8>) {
        if !self.queue(line.len(), Item::Line(direction, line)) {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Hands bytes of a stream as read to the recording, which splits them into lines; or
    /// drops them when the recording lags: every line they touch is then lost from the
    /// recording, and counted once.
    pub fn offer_chunk(&mut self, direction: Direction, bytes: &[u8]) {
        if self.sender.is_none() {
            return;
        }
        let item = Item::Chunk {
            direction,
            bytes: bytes.to_vec(),
            gap: self.gap,
        };
        let queued = self.queue(bytes.len(), item);
        self.gap = match (queued, bytes.last()) {
            (true, _) => None,
            (false, Some(b'\n')) => Some(Gap::AtLineStart),
            (false, _) => Some(Gap::MidLine),
        };
        self.follow(bytes, !queued);
    }

    /// The stream of `direction` ended: the recording takes what it left without a line break.
    pub fn ended(&mut self, direction: Direction) {
        if self.sender.is_none() {
            return;
        }
        let gap = self.gap.take();
        let queued = self.queue(0, Item::Ended(direction, gap));
        let last = std::mem::take(&mut self.line);
        if (last.lost || !queued) && (1..=MAX_LINE).contains(&last.bytes) {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Follows the stream's lines through `bytes`, `dropped` or queued: a line that lost bytes
    /// (or its line break) is counted once, at its end, when the recording would have kept it
    /// (not empty, at most [`MAX_LINE`]). Queued bytes after whole lines cost one look from
    /// their end.
    fn follow(&mut self, bytes: &[u8], dropped: bool) {
        let mut rest = bytes;
        while dropped || self.line.lost {
            let Some(at) = memchr::memchr(b'\n', rest) else {
                break;
            };
            if (1..=MAX_LINE).contains(&self.line.bytes.saturating_add(at)) {
                self.dropped.fetch_add(1, Ordering::Relaxed);
            }
            self.line = LineSoFar::default();
            rest = &rest[at + 1..];
        }
        match memchr::memrchr(b'\n', rest) {
            Some(at) => self.line.bytes = rest.len() - at - 1,
            None => self.line.bytes = self.line.bytes.saturating_add(rest.len()),
        }
        self.line.lost |= dropped && !rest.is_empty();
    }

    /// Queues `item` of `size` bytes; false when it is dropped because the recording lags
    /// (nothing is lost when nothing is recorded).
    fn queue(&self, size: usize, item: Item) -> bool {
        let Some(sender) = &self.sender else {
            return true;
        };
        let queued = self.queued.fetch_add(size, Ordering::Relaxed) + size <= QUEUED_BYTES
            && !matches!(sender.try_send(item), Err(TrySendError::Full(_)));
        if !queued {
            self.queued.fetch_sub(size, Ordering::Relaxed);
        }
        queued
    }
}

impl Tapped {
    /// Starts the recording of a session of `command`; when it cannot be made, says why on
    /// stderr (the host shows it as the server's) and forwards all the same.
    pub fn start(command: &[String], keep: usize) -> Tapped {
        let dropped = Arc::new(AtomicU64::new(0));
        let queued = Arc::new(AtomicUsize::new(0));
        let made = dir()
            .ok_or_else(|| "no state directory ($XDG_STATE_HOME or $HOME)".to_string())
            .and_then(|dir| new_session(&dir, command, keep).map_err(|e| e.to_string()));
        let (path, recorder, live) = match made {
            Ok(made) => made,
            Err(why) => {
                eprintln!("mcp-inspect tap: not recording this session: {why}");
                return Tapped {
                    sender: None,
                    dropped,
                    queued,
                    done: None,
                    path: None,
                    _live: None,
                };
            }
        };
        let (sender, items) = std::sync::mpsc::sync_channel::<Item>(QUEUED);
        let (finished, done) = std::sync::mpsc::channel();
        let waiting = Arc::clone(&queued);
        std::thread::spawn(move || write_lines(&items, &recorder, &waiting, &finished));
        Tapped {
            sender: Some(sender),
            dropped,
            queued,
            done: Some(done),
            path: Some(path),
            _live: Some(live),
        }
    }

    pub fn sink(&self) -> Sink {
        Sink {
            sender: self.sender.clone(),
            dropped: Arc::clone(&self.dropped),
            queued: Arc::clone(&self.queued),
            gap: None,
            line: LineSoFar::default(),
        }
    }

    /// The session is over: the recording gets a moment to catch up (the host's side may
    /// still be open, so the end is a message of its own); lines dropped are said.
    pub fn finish(mut self) {
        let deadline = std::time::Instant::now() + DRAIN;
        let mut caught_up = true;
        if let (Some(sender), Some(done)) = (self.sender.take(), self.done.take()) {
            let mut end = Item::End;
            while let Err(TrySendError::Full(again)) = sender.try_send(end) {
                if std::time::Instant::now() >= deadline {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
                end = again;
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            caught_up = done.recv_timeout(left).is_ok();
        }
        let Some(path) = &self.path else {
            return;
        };
        let dropped = self.dropped.load(Ordering::Relaxed);
        if dropped > 0 {
            eprintln!(
                "mcp-inspect tap: {dropped} lines were not recorded in {} (the recording fell behind)",
                path.display()
            );
        }
        if !caught_up {
            eprintln!(
                "mcp-inspect tap: the recording in {} may lack its last lines (it had not caught up when the server ended)",
                path.display()
            );
        }
    }
}

/// The recording thread: lines written through a buffer, flushed within [`FLUSH_EVERY`] of
/// the first line it holds (so a busy session costs a write now and then, not one a message,
/// and a viewer sees each line within that time); the end of the session answered once every
/// line before it is written. Woken by a line, it lets the lines of a busy session gather for
/// [`GATHER`] and takes them together; while lines keep coming it looks again after another
/// [`GATHER`] rather than wait to be woken: a wake-up costs a forwarding thread a system call,
/// and both threads a switch.
fn write_lines(
    items: &Receiver<Item>,
    recorder: &Recorder,
    waiting: &AtomicUsize,
    finished: &std::sync::mpsc::Sender<()>,
) {
    use std::sync::mpsc::RecvTimeoutError;
    let mut unflushed: Option<std::time::Instant> = None;
    let mut streams = Streams::default();
    let mut busy = false;
    loop {
        let next = match busy {
            true => {
                std::thread::sleep(GATHER);
                items.try_recv().map_err(|e| match e {
                    std::sync::mpsc::TryRecvError::Empty => RecvTimeoutError::Timeout,
                    std::sync::mpsc::TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
                })
            }
            false => match unflushed {
                None => items.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(since) => items.recv_timeout(FLUSH_EVERY.saturating_sub(since.elapsed())),
            },
        };
        let mut take = |item| streams.take(item, recorder, waiting);
        match next {
            Ok(first) => {
                let mut ended = take(first);
                if !busy && !ended {
                    std::thread::sleep(GATHER);
                }
                while !ended && let Ok(more) = items.try_recv() {
                    ended = take(more);
                }
                busy = !ended;
                let since = *unflushed.get_or_insert_with(std::time::Instant::now);
                if ended || since.elapsed() >= FLUSH_EVERY {
                    recorder.flush();
                    unflushed = None;
                }
                if ended {
                    let _ = finished.send(());
                }
            }
            // Nothing came since the last look: wait to be woken (or for the flush).
            Err(RecvTimeoutError::Timeout) if busy => busy = false,
            Err(RecvTimeoutError::Timeout) => {
                recorder.flush();
                unflushed = None;
            }
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    recorder.flush();
}

/// The stdio tap's two streams (from the host, from the server), split into lines on the
/// recording thread.
#[derive(Default)]
struct Streams {
    from_host: Lines,
    from_server: Lines,
}

impl Streams {
    /// Records what `item` completes; true at the end of the session.
    fn take(&mut self, item: Item, recorder: &Recorder, waiting: &AtomicUsize) -> bool {
        match item {
            Item::Line(direction, line) => {
                record(recorder, direction, &line);
                waiting.fetch_sub(line.len(), Ordering::Relaxed);
            }
            Item::Chunk {
                direction,
                bytes,
                gap,
            } => {
                let lines = self.after(direction, gap);
                lines.each(&bytes, |line| record(recorder, direction, line));
                waiting.fetch_sub(bytes.len(), Ordering::Relaxed);
            }
            Item::Ended(direction, gap) => {
                if let Some(rest) = self.after(direction, gap).end() {
                    record(recorder, direction, &rest);
                }
            }
            Item::End => return true,
        }
        false
    }

    /// The lines of `direction`, with what a `gap` before the next bytes lost let go.
    fn after(&mut self, direction: Direction, gap: Option<Gap>) -> &mut Lines {
        let lines = match direction {
            Direction::Out => &mut self.from_host,
            Direction::In => &mut self.from_server,
        };
        if let Some(gap) = gap {
            lines.lose_line(gap);
        }
        lines
    }
}

/// One line as the recording holds it: a JSON-RPC message as it was on the wire, or a line
/// that is not one (a banner, a log line on stdout), flagged.
fn record(recorder: &Recorder, direction: Direction, line: &[u8]) {
    // Checked a word at a time first: lossy decoding looks at every byte of every line.
    let text = match std::str::from_utf8(line) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(line),
    };
    let text = text.trim_end_matches('\r');
    if text.trim().is_empty() {
        return;
    }
    // Checked, not parsed: an object or an array of valid JSON is recorded as it came.
    let collection = text.trim_start().starts_with(['{', '[']);
    match collection && serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
        true => recorder.note_text(direction, text),
        false => recorder.note_stray(direction, text),
    }
}

/// A new session's file in `dir` (made 0700), the oldest sessions past `keep` deleted first;
/// with the file locked (see [`is_live`]).
fn new_session(
    dir: &Path,
    command: &[String],
    keep: usize,
) -> std::io::Result<(PathBuf, Arc<Recorder>, std::fs::File)> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    prune(dir, keep.saturating_sub(1));
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // One process records several sessions (an HTTP tap, a session each): the second and
    // later in it are numbered.
    static NTH: AtomicU64 = AtomicU64::new(0);
    let nth = match NTH.fetch_add(1, Ordering::Relaxed) {
        0 => String::new(),
        n => format!("-{n}"),
    };
    let name = format!(
        "{}-{seconds}-{}{nth}.jsonl",
        server_name(command),
        std::process::id()
    );
    let path = dir.join(name);
    let recorder = Recorder::create_buffered(&path)?;
    let live = std::fs::File::open(&path)?;
    live.lock()?;
    Ok((path, recorder, live))
}

/// Whether a tap is still recording the session at `path` (its lock is held).
pub fn is_live(path: &Path) -> bool {
    std::fs::File::open(path).is_ok_and(|file| {
        matches!(
            file.try_lock_shared(),
            Err(std::fs::TryLockError::WouldBlock)
        )
    })
}

/// The sessions in `dir`, oldest first, each with when it was last written.
pub fn kept(dir: &Path) -> Vec<(std::time::SystemTime, PathBuf)> {
    let mut sessions: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
                .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
                .collect()
        })
        .unwrap_or_default();
    sessions.sort();
    sessions
}

/// Deletes the oldest sessions in `dir` so that at most `keep` remain; a live one stays.
fn prune(dir: &Path, keep: usize) {
    let sessions = kept(dir);
    let over = sessions.len().saturating_sub(keep);
    for (_, path) in sessions.into_iter().take(over).filter(|(_, p)| !is_live(p)) {
        let _ = std::fs::remove_file(path);
    }
}

/// A file-name-safe name for the server: its script for an interpreter or a runner
/// (`python server.py` → `server`, `npx -y @scope/pkg` → `pkg`), else its program.
pub fn server_name(command: &[String]) -> String {
    const RUNNERS: [&str; 9] = [
        "python", "python3", "node", "npx", "uv", "uvx", "bun", "deno", "pipx",
    ];
    let stem = |word: &str| {
        let last = word.rsplit(['/', '\\']).next().unwrap_or(word);
        last.split('.').next().unwrap_or(last).to_string()
    };
    let program = command.first().map_or(String::new(), |p| stem(p));
    let named = match RUNNERS.contains(&program.as_str()) {
        true => command[1..]
            .iter()
            .find(|w| !w.starts_with('-') && !["run", "x", "exec"].contains(&w.as_str()))
            .map_or(program, |w| stem(w)),
        false => program,
    };
    let safe: String = named
        .chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                true => c,
                false => '_',
            },
        )
        .take(60)
        .collect();
    match safe.is_empty() {
        true => "server".into(),
        false => safe,
    }
}

/// Whole lines out of a stream read in chunks; a line over [`MAX_LINE`] is dropped (the
/// stream is forwarded all the same).
pub struct Lines {
    partial: Vec<u8>,
    overlong: bool,
    max: usize,
}

impl Default for Lines {
    fn default() -> Lines {
        Lines::at_most(MAX_LINE)
    }
}

/// The longest line of a recording: a message of [`MAX_LINE`], every byte of it escaped
/// (`\u001b` is six bytes for one), in its envelope.
pub const MAX_RECORDED_LINE: usize = 6 * MAX_LINE + 4096;

impl Lines {
    /// Lines of at most `max` bytes.
    pub fn at_most(max: usize) -> Lines {
        Lines {
            partial: Vec::new(),
            overlong: false,
            max,
        }
    }

    /// The lines `chunk` completes.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<Vec<u8>> {
        let mut done = Vec::new();
        self.each(chunk, |line| done.push(line.to_vec()));
        done
    }

    /// Hands each line `chunk` completes to `line`; a line wholly inside `chunk` is not copied.
    pub fn each(&mut self, chunk: &[u8], mut line: impl FnMut(&[u8])) {
        let mut rest = chunk;
        while let Some(at) = memchr::memchr(b'\n', rest) {
            let whole = &rest[..at];
            if self.partial.is_empty() && !self.overlong {
                if whole.len() <= self.max {
                    line(whole);
                }
            } else if self.keep(whole) {
                line(&self.partial);
            }
            self.partial.clear();
            self.overlong = false;
            rest = &rest[at + 1..];
        }
        self.keep(rest);
    }

    /// Bytes after the line under way were lost (see [`Gap`]): it is not recorded, nor, when
    /// they ended inside a line, the rest of that line.
    pub fn lose_line(&mut self, gap: Gap) {
        self.partial = Vec::new();
        self.overlong = gap == Gap::MidLine;
    }

    /// What the stream left without a line break at its end; the next line starts afresh.
    pub fn end(&mut self) -> Option<Vec<u8>> {
        let kept = !self.overlong;
        self.overlong = false;
        let rest = std::mem::take(&mut self.partial);
        (kept && !rest.is_empty()).then_some(rest)
    }

    /// Adds `bytes` to the line under way, unless that makes it overlong: then it is dropped
    /// before it grows (at most `max` is ever held). Whether the line is still kept.
    fn keep(&mut self, bytes: &[u8]) -> bool {
        if self.overlong || self.partial.len() + bytes.len() > self.max {
            self.partial = Vec::new();
            self.overlong = true;
            return false;
        }
        self.partial.extend_from_slice(bytes);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_across_chunks_and_an_overlong_one_is_skipped() {
        let mut lines = Lines::default();
        assert!(lines.push(b"{\"a\":").is_empty());
        assert_eq!(
            lines.push(b"1}\n{\"b\":2}\n{"),
            [b"{\"a\":1}".to_vec(), b"{\"b\":2}".to_vec()]
        );
        let huge = vec![b'x'; MAX_LINE + 1];
        assert!(lines.push(&huge).is_empty());
        assert_eq!(lines.push(b"yz\nok\n"), [b"ok".to_vec()]);
        assert_eq!(lines.push(b"tail").len(), 0);
        assert_eq!(lines.end(), Some(b"tail".to_vec()));
    }

    #[test]
    fn a_line_that_lost_bytes_is_not_recorded_and_one_too_long_inside_a_chunk_is_skipped() {
        let mut lines = Lines::at_most(4);
        assert!(lines.push(b"{\"a").is_empty());
        lines.lose_line(Gap::MidLine);
        assert_eq!(
            lines.push(b"b\"}\nok\n12345\nabcd\nef"),
            [b"ok".to_vec(), b"abcd".to_vec()]
        );
        lines.lose_line(Gap::AtLineStart);
        assert_eq!(
            lines.push(b"gh\n"),
            [b"gh".to_vec()],
            "a new line after the gap"
        );
        lines.lose_line(Gap::MidLine);
        assert_eq!(lines.end(), None);
        assert_eq!(lines.push(b"new\n"), [b"new".to_vec()]);
    }

    #[test]
    fn sessions_are_named_by_their_server() {
        let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(
            server_name(&words("python /srv/weather/server.py --x")),
            "server"
        );
        assert_eq!(
            server_name(&words("npx -y @modelcontextprotocol/server-everything")),
            "server-everything"
        );
        assert_eq!(server_name(&words("uv run main.py")), "main");
        assert_eq!(
            server_name(&words("/usr/bin/my-server --flag")),
            "my-server"
        );
        assert_eq!(server_name(&words("../weird name$")), "weird");
        assert_eq!(server_name(&[]), "server");
    }

    #[test]
    fn each_line_a_drop_touches_is_counted_once_unless_the_recording_would_not_keep_it() {
        let (sender, _items) = std::sync::mpsc::sync_channel(16);
        let mut sink = Sink {
            sender: Some(sender),
            ..Sink::none()
        };
        let lost = |sink: &Sink| sink.dropped.load(Ordering::Relaxed);
        sink.follow(b"{\"a\":1}\n{\"b\"", false);
        // `b` loses its end, `c` is dropped whole, `d` loses its start.
        sink.follow(b":2}\n{\"c\":3}\n{\"d\"", true);
        assert_eq!(lost(&sink), 2, "counted at their ends");
        sink.follow(b":4}\n{\"e\":5}\n", false);
        assert_eq!(lost(&sink), 3, "`d` once, at its end");
        // Pieces of a line over MAX_LINE dropped twice: never recorded anyway, not counted.
        sink.follow(&[b'x'; 100], true);
        sink.follow(&vec![b'x'; MAX_LINE], true);
        sink.follow(b"x\n", false);
        // An empty line's break dropped: nothing was lost.
        sink.follow(b"\n", true);
        assert_eq!(lost(&sink), 3);
        sink.follow(b"{\"f\"", true);
        sink.ended(Direction::Out);
        assert_eq!(lost(&sink), 4, "the last line, at the end of the stream");
    }

    #[test]
    fn chunks_are_recorded_as_lines_and_a_line_cut_by_a_drop_is_left_out() {
        let dir = std::env::temp_dir().join(format!("mcp-inspect-chunks-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (path, recorder, _live) = new_session(&dir, &["s".into()], 2).expect("session");
        let (sender, items) = std::sync::mpsc::sync_channel(16);
        let chunk = |bytes: &[u8], gap| Item::Chunk {
            direction: Direction::Out,
            bytes: bytes.to_vec(),
            gap,
        };
        for item in [
            chunk(b"{\"a\":1}\n{\"b\"", None),
            // Bytes inside `b` were dropped: `b` is lost, `c` is whole.
            chunk(b":2}\n{\"c\":3}\n{\"d\":", Some(Gap::MidLine)),
            // The end of `d` was dropped, with its line break: `e` starts a line.
            chunk(b"{\"e\":5}\n{\"f\"", Some(Gap::AtLineStart)),
            // The end of `f` was dropped, then the stream ended.
            Item::Ended(Direction::Out, Some(Gap::MidLine)),
            Item::End,
        ] {
            sender.send(item).expect("queued");
        }
        drop(sender);
        let (finished, done) = std::sync::mpsc::channel();
        write_lines(&items, &recorder, &AtomicUsize::new(64), &finished);
        assert!(done.try_recv().is_ok(), "the end was answered");
        let recorded = std::fs::read_to_string(&path).expect("recording");
        let messages: Vec<&str> = ["\"a\"", "\"b\"", "\"c\"", "\"d\"", "\"e\"", "\"f\""]
            .into_iter()
            .filter(|m| recorded.contains(m))
            .collect();
        assert_eq!(messages, ["\"a\"", "\"c\"", "\"e\""], "{recorded}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_oldest_sessions_go_past_the_cap() {
        let dir = std::env::temp_dir().join(format!("mcp-inspect-taps-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        for i in 0..5 {
            let path = dir.join(format!("s-{i}.jsonl"));
            std::fs::write(&path, "{}").expect("write");
            let at = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1_000 + i);
            std::fs::File::options()
                .write(true)
                .open(&path)
                .and_then(|f| f.set_modified(at))
                .expect("time");
        }
        std::fs::write(dir.join("notes.txt"), "kept").expect("write");
        prune(&dir, 2);
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .expect("read")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["notes.txt", "s-3.jsonl", "s-4.jsonl"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
