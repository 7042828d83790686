//! The two C library calls std does not wrap: `signal` (to turn Ctrl-C into
//! a flag the match loop polls) and `kill` (to end a bot's whole process
//! group, children included). Declared by hand: the crate has no `libc`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

const SIGINT: i32 = 2;
const SIGKILL: i32 = 9;
const SIG_DFL: usize = 0;

extern "C" {
    fn signal(sig: i32, handler: usize) -> usize;
    fn kill(pid: i32, sig: i32) -> i32;
}

/// Set by the SIGINT handler; read by every wait of the match.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigint(_sig: i32) {
    // Only async-signal-safe work here: an atomic store, and `signal` itself
    // (POSIX lists it as safe) so that a second Ctrl-C kills at once.
    INTERRUPTED.store(true, Ordering::SeqCst);
    // SAFETY: restoring the default disposition; no Rust state is touched.
    unsafe {
        signal(SIGINT, SIG_DFL);
    }
}

/// Installs the Ctrl-C handler and clears the flag.
pub fn catch_sigint() {
    INTERRUPTED.store(false, Ordering::SeqCst);
    // SAFETY: `on_sigint` has the C signature `void (*)(int)` and does only
    // an atomic store and a `signal` call.
    unsafe {
        signal(SIGINT, on_sigint as extern "C" fn(i32) as usize);
    }
}

/// Whether Ctrl-C was pressed since [`catch_sigint`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Kills every process in the group `pgid` (a bot and whatever it started).
pub fn kill_group(pgid: u32) {
    if let Ok(pid) = i32::try_from(pgid) {
        if pid > 1 {
            // SAFETY: a plain system call on a negative pid (a process group
            // we created); failure (group already gone) is harmless.
            unsafe {
                kill(-pid, SIGKILL);
            }
        }
    }
}

/// The match's stop flag: set on a fatal error, or by Ctrl-C.
#[derive(Clone, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    pub fn new() -> Stop {
        Stop::default()
    }
    pub fn set(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::SeqCst) || interrupted()
    }
}
