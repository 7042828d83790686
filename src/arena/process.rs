//! A bot process: started without a shell in a process group of its own (so
//! Ctrl-C on the terminal reaches only the referee, and killing the group
//! takes the bot's children too), stdin for the referee's lines, stdout read
//! by a thread that timestamps each line (so waits can time out and answer
//! times do not depend on when the referee looks), stderr into a log file.

use super::sys::{self, Stop};
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How often a wait looks at the stop flag.
const POLL: Duration = Duration::from_millis(50);

/// What a wait for a line gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Wait {
    /// A line (without its end of line) and when it was read.
    Line(Instant, String),
    Timeout,
    /// The bot closed its stdout (it exited or crashed).
    Eof,
    /// The match is stopping.
    Stopped,
}

pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
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
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break, // dropping `tx` reports the end
                    Ok(_) => {
                        let at = Instant::now();
                        let text = String::from_utf8_lossy(&buf);
                        let line = text.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send((at, line)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
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
                Ok((at, line)) => return Wait::Line(at, line),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Wait::Eof,
            }
        }
    }

    /// Takes the lines already waiting, unread.
    pub fn drain(&self) -> Vec<String> {
        self.lines.try_iter().map(|(_, line)| line).collect()
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

impl Drop for Process {
    fn drop(&mut self) {
        self.close();
        self.kill();
    }
}
