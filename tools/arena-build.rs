//! The arena zip's build script (tools/package.sh writes it as build.rs):
//! compiles the crates of crates/PLAN (tools/bundle.py split) one rustc at
//! a time with the toolchain cargo runs, so that no process holds the whole
//! bot: the arena builds in `docker run -m 200M`. src/main.rs then links
//! them as `extern crate`s. A plan line: name, edition, file, then
//! `feature=F` and `extern=CRATE` words. It also hands src/main.rs the
//! commit of BUILD-INFO.txt as `TENGEN_COMMIT` (the zip has no git).

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let plan = std::fs::read_to_string("crates/PLAN").expect("crates/PLAN is read");
    println!("cargo:rerun-if-changed=crates");
    for line in plan.lines().filter(|l| !l.trim().is_empty()) {
        compile(line, &out);
    }
    // `extern crate` finds the crates (and theirs) in this folder
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=BUILD-INFO.txt");
    let info = std::fs::read_to_string("BUILD-INFO.txt").unwrap_or_default();
    let commit = info.lines().find_map(|l| l.strip_prefix("commit:"));
    if let Some(c) = commit.map(str::trim).filter(|c| !c.is_empty()) {
        println!("cargo:rustc-env=TENGEN_COMMIT={c}");
    }
}

/// One crate as cargo would build it for the profile cargo runs this
/// script for: its opt-level, panic strategy, target and RUSTFLAGS.
fn compile(line: &str, out: &Path) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [name, edition, file, rest @ ..] = words.as_slice() else {
        panic!("crates/PLAN: a line needs a name, an edition and a file: {line:?}");
    };
    let var = |k: &str| env::var(k).unwrap_or_default();
    let mut rustc = Command::new(env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()));
    let fixed = "--crate-type rlib --cap-lints allow -C codegen-units=1 -C debuginfo=0";
    rustc
        .args(["--crate-name", name, "--edition", edition])
        .args(fixed.split(' '))
        .arg(format!("-Copt-level={}", var("OPT_LEVEL")))
        .arg(format!("-Cpanic={}", var("CARGO_CFG_PANIC")))
        .arg("-L")
        .arg(out)
        .arg("--out-dir")
        .arg(out)
        .arg(file);
    if var("TARGET") != var("HOST") {
        rustc.args(["--target", &var("TARGET")]);
    }
    let flags = var("CARGO_ENCODED_RUSTFLAGS");
    rustc.args(flags.split('\x1f').filter(|f| !f.is_empty()));
    for word in rest {
        if let Some(f) = word.strip_prefix("feature=") {
            rustc.arg("--cfg").arg(format!("feature=\"{f}\""));
        } else if let Some(c) = word.strip_prefix("extern=") {
            let rlib = out.join(format!("lib{c}.rlib"));
            rustc.arg("--extern").arg(format!("{c}={}", rlib.display()));
        } else {
            panic!("crates/PLAN: unknown word {word:?} in {line:?}");
        }
    }
    let status = rustc.status().expect("rustc runs");
    assert!(status.success(), "rustc failed on {file} ({status})");
}
