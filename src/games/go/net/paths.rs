//! Which code computes the network's convolutions: float32 (the
//! reference, `avx.rs` and `winograd.rs` where the CPU has AVX2 and FMA,
//! plain loops elsewhere) or 8-bit integers (`int8.rs`) with a kernel for
//! AVX-512 VNNI in 512 or 256 bits or for AVX2. The fastest this CPU runs
//! unless `TENGEN_NET_PATH` names another (tests and benches run each
//! path on one machine). The search never knows which one ran, but takes
//! more evaluations where they cost less (`searcher.rs`).

use crate::deps::log;
use std::fmt;

/// A way to compute the convolutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Float32 throughout: the reference.
    Float,
    /// 8-bit activations and weights, `vpdpbusd` on 512-bit vectors.
    Vnni512,
    /// The same on 256-bit vectors (EVEX: AVX-512 VNNI and VL).
    Vnni256,
    /// `vpmaddubsw` and `vpmaddwd` on 256-bit vectors (AVX2).
    Avx2,
    /// 8-bit, in plain loops: the integer reference, any CPU.
    Int8Scalar,
}

/// The environment variable that forces a path.
pub const VARIABLE: &str = "TENGEN_NET_PATH";

impl Path {
    /// Every path, the preferred first where the CPU runs it. On an AMD
    /// EPYC (Zen 4) `tengen bench --net` timed vnni512 1.8 times faster
    /// than float, vnni256 1.6, AVX2's 8 bits about as fast, with 7-bit
    /// codes that agree less with float: float stays ahead of it.
    pub const ALL: [Path; 5] = [
        Path::Vnni512,
        Path::Vnni256,
        Path::Float,
        Path::Avx2,
        Path::Int8Scalar,
    ];

    /// The name `TENGEN_NET_PATH` and the bench use.
    pub fn name(self) -> &'static str {
        match self {
            Path::Float => "float",
            Path::Vnni512 => "vnni512",
            Path::Vnni256 => "vnni256",
            Path::Avx2 => "avx2",
            Path::Int8Scalar => "int8",
        }
    }

    /// The path called `name`, if any.
    pub fn parse(name: &str) -> Option<Path> {
        Path::ALL.into_iter().find(|p| p.name() == name.trim())
    }

    /// Whether this CPU can run the path.
    pub fn runs_here(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            match self {
                Path::Float | Path::Int8Scalar => true,
                Path::Vnni512 => has!("avx512f") && has!("avx512bw") && has!("avx512vnni"),
                Path::Vnni256 => {
                    has!("avx512f") && has!("avx512vl") && has!("avx512bw") && has!("avx512vnni")
                }
                Path::Avx2 => has!("avx2"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        matches!(self, Path::Float | Path::Int8Scalar)
    }

    /// Whether the path computes in 8-bit integers.
    pub fn is_int8(self) -> bool {
        self != Path::Float
    }

    /// The fastest path this CPU runs: the first of [`Path::ALL`] it can.
    pub fn best() -> Path {
        Path::ALL
            .into_iter()
            .find(|p| p.runs_here())
            .unwrap_or(Path::Float)
    }

    /// The path to take: the one `TENGEN_NET_PATH` names if this CPU runs
    /// it (`best`, or no variable: [`Path::best`]). The 8-bit paths agree
    /// with float on the top move of 99.4 % of held-out positions
    /// (`docs/network.md`).
    pub fn chosen() -> Path {
        let Ok(name) = std::env::var(VARIABLE) else {
            return Path::best();
        };
        if name.trim() == "best" {
            return Path::best();
        }
        match Path::parse(&name) {
            Some(p) if p.runs_here() => p,
            Some(p) => {
                log::warn!(
                    "{VARIABLE}={name}: this CPU cannot run {p}; taking {}",
                    Path::best()
                );
                Path::best()
            }
            None => {
                let names: Vec<&str> = Path::ALL.iter().map(|p| p.name()).collect();
                log::warn!(
                    "{VARIABLE}={name}: not one of {}; taking {}",
                    names.join(", "),
                    Path::best()
                );
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
