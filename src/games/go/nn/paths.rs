//! Which backend computes a network: float32 (the reference), bf16 on AMX
//! tiles, or one of the integer kernels ([`Kernel`]), the fastest this
//! CPU runs unless `TENGEN_NET_PATH` names another (tests and benches run
//! each path on one machine). The search never knows which one ran.

use super::int8::Kernel;
use crate::deps::log;
use std::fmt;

/// A way to compute a network's convolutions and matrices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// bf16 on AMX tiles ([`super::amx`]).
    Amx,
    Float,
    Int8(Kernel),
}

/// The environment variable that forces a path.
pub const VARIABLE: &str = "TENGEN_NET_PATH";

impl Path {
    /// Every path, the preferred first where the CPU runs it: on the
    /// Xeons of docs/network.md each is faster than the next (AMX where
    /// the CPU and the OS have it, then each integer kernel, then float;
    /// its figures are there); the scalar integer kernel is the
    /// reference, for tests.
    pub const ALL: [Path; 6] = [
        Path::Amx,
        Path::Int8(Kernel::Vnni512),
        Path::Int8(Kernel::Vnni256),
        Path::Int8(Kernel::Avx2),
        Path::Float,
        Path::Int8(Kernel::Scalar),
    ];

    /// The name `TENGEN_NET_PATH` and the bench use.
    pub fn name(self) -> &'static str {
        match self {
            Path::Amx => "amx",
            Path::Float => "float",
            Path::Int8(k) => k.name(),
        }
    }

    /// The path called `name`, if any.
    pub fn parse(name: &str) -> Option<Path> {
        Path::ALL.into_iter().find(|p| p.name() == name.trim())
    }

    /// Whether this CPU can run the path.
    pub fn runs_here(self) -> bool {
        match self {
            Path::Amx => super::amx::runs_here(),
            Path::Float => true,
            Path::Int8(k) => k.runs_here(),
        }
    }

    /// The fastest path this CPU runs.
    pub fn best() -> Path {
        Path::ALL
            .into_iter()
            .find(|p| p.runs_here())
            .unwrap_or(Path::Float)
    }

    /// The path `TENGEN_NET_PATH` names if this CPU runs it, else (or with
    /// `best`, or no variable) [`Path::best`].
    pub fn chosen() -> Path {
        let Ok(name) = std::env::var(VARIABLE) else {
            return Path::best();
        };
        match Path::parse(&name) {
            Some(p) if p.runs_here() => p,
            _ if name.trim() == "best" => Path::best(),
            found => {
                let why = match found {
                    Some(p) => format!("this CPU cannot run {p}"),
                    None => {
                        let names: Vec<&str> = Path::ALL.iter().map(|p| p.name()).collect();
                        format!("not one of {}", names.join(", "))
                    }
                };
                log::warn!("{VARIABLE}={name}: {why}; taking {}", Path::best());
                Path::best()
            }
        }
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}
