//! A bot process: started without a shell in a process group of its own (so
//! Ctrl-C on the terminal reaches only the referee, and killing the group
//! takes the bot's children too), stdin for the referee's lines, stdout read
//! by a thread that timestamps each line (so waits can time out, answer
//! times do not depend on when the referee looks, and lines begun before a
//! request are known to be stale), stderr into a log file.

use super::sys::{self, Stop};
use std::fs::File;
use std::io::{ErrorKind, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

/// How often a wait looks at the stop flag.
const POLL: Duration = Duration::from_millis(50);

/// What a wait for a line gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Wait {
    /// A line, with when the reads that began and completed it returned.
    Line(Line),
    Timeout,
    /// The bot closed its stdout (it exited or crashed).
    Eof,
    /// The match is stopping.
    Stopped,
}

/// A line of the bot's output with the times of the reads that brought it.
#[derive(Debug, PartialEq, Eq)]
pub struct Line {
    /// When the read that brought its first byte returned: the bot had
    /// begun writing the line by then. A line can come in several writes
    /// (unbuffered Python's `print` writes its text and its end apart), so
    /// this, not `done`, tells whether it was begun before a request.
    pub begun: Instant,
    /// When the read that completed it (brought its end of line) returned:
    /// the answer time.
    pub done: Instant,
    /// Without its end of line.
    pub text: String,
}

pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    reaped: bool,
}

impl Process {
    /// Starts `argv` with `env` added, stderr appended to `log`.
    pub fn spawn(argv: &[String], log: &Path, env: &[(&str, String)]) -> Result<Process, String> {
        let err = File::create(log).map_err(|e| format!("cannot create {}: {e}", log.display()))?;
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(err))
            .process_group(0);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {:?}: {e}", argv.join(" ")))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || read_lines(stdout, tx));
        Ok(Process {
            stdin: child.stdin.take(),
            child,
            lines,
            reaped: false,
        })
    }

    /// Writes one line and flushes it. Fails if the bot closed its stdin.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("input already closed")?;
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("cannot write to the bot: {e}"))
    }

    /// The next line, waiting until `deadline` (forever if `None`) unless
    /// the match stops first.
    pub fn recv(&self, deadline: Option<Instant>, stop: &Stop) -> Wait {
        loop {
            if stop.is_set() {
                return Wait::Stopped;
            }
            let slice = match deadline {
                None => POLL,
                Some(d) => match d.checked_duration_since(Instant::now()) {
                    Some(left) if !left.is_zero() => left.min(POLL),
                    _ => return Wait::Timeout,
                },
            };
            match self.lines.recv_timeout(slice) {
                Ok(line) => return Wait::Line(line),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Wait::Eof,
            }
        }
    }

    /// Takes the lines already waiting, unread.
    pub fn drain(&self) -> Vec<String> {
        self.lines.try_iter().map(|line| line.text).collect()
    }

    /// How the process ended, if it has within `wait`: for crash reports.
    pub fn exit_note(&mut self, wait: Duration) -> String {
        let until = Instant::now() + wait;
        loop {
            match self.try_reap() {
                Ok(Some(status)) => return format!("it exited ({status})"),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => return "it closed its output".to_string(),
            }
        }
    }

    /// Closes the bot's stdin: the arena's way of saying the game is over.
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// Waits until `until` for the bot to exit by itself, then kills its
    /// process group.
    pub fn reap(&mut self, until: Instant) {
        self.close();
        while !self.reaped && Instant::now() < until {
            match self.try_reap() {
                Ok(Some(_)) => {}
                Ok(None) => thread::sleep(Duration::from_millis(5)),
                Err(_) => break,
            }
        }
        self.kill();
    }

    /// Reaps the bot if it has exited, killing what is left of its group at
    /// once: right after the reap the group id cannot have been reused yet.
    fn try_reap(&mut self) -> std::io::Result<Option<std::process::ExitStatus>> {
        let status = self.child.try_wait()?;
        if status.is_some() {
            self.reaped = true;
            sys::kill_group(self.child.id());
        }
        Ok(status)
    }

    /// Kills the process group (the bot's children too) and reaps the bot.
    fn kill(&mut self) {
        if !self.reaped {
            // The leader is alive or a zombie: its pid, the group id, is
            // still ours.
            sys::kill_group(self.child.id());
            let _ = self.child.wait();
            self.reaped = true;
        }
    }
}

/// The reader thread: stdout split into lines, each stamped with the times
/// the reads that began and completed it returned (so lines that came in
/// one write share their stamps however late this thread hands them over).
fn read_lines(mut stdout: ChildStdout, tx: Sender<Line>) {
    let mut pending: Vec<u8> = Vec::new();
    // when the read that brought the first byte of `pending` returned
    let mut begun: Option<Instant> = None;
    let mut chunk = [0u8; 8192];
    loop {
        let n = match stdout.read(&mut chunk) {
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => 0,
        };
        let at = Instant::now();
        if n == 0 {
            // a last line without end of line still counts; dropping `tx`
            // then reports the end
            if !pending.is_empty() {
                let _ = tx.send(line(begun.unwrap_or(at), at, &pending));
            }
            return;
        }
        pending.extend_from_slice(&chunk[..n]);
        while let Some(i) = pending.iter().position(|&b| b == b'\n') {
            let bytes: Vec<u8> = pending.drain(..=i).collect();
            if tx.send(line(begun.unwrap_or(at), at, &bytes)).is_err() {
                return;
            }
            // the rest, if any, began in this read
            begun = None;
        }
        if !pending.is_empty() && begun.is_none() {
            begun = Some(at);
        }
    }
}

fn line(begun: Instant, done: Instant, bytes: &[u8]) -> Line {
    let text = String::from_utf8_lossy(bytes)
        .trim_end_matches(['\n', '\r'])
        .to_string();
    Line { begun, done, text }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.close();
        self.kill();
    }
}
