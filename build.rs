//! Embeds the commit tengen is built from as `TENGEN_COMMIT` (short hash,
//! `-dirty` when the sources differ from it), so the bot's banner, GTP's
//! `version` and the arena's records say which code played. Without git or
//! a .git the variable is left unset and the code says "unknown". (The
//! arena zip has its own build.rs, tools/arena-build.rs.)

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // what is built: a change there may make the tree dirty or clean
    for path in ["src", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={path}");
    }
    let Some(hash) = git(&["rev-parse", "--short=7", "HEAD"]) else {
        return;
    };
    // a new commit or checkout moves HEAD, its branch or the index
    if let (Some(dir), Some(common)) = (
        git(&["rev-parse", "--absolute-git-dir"]),
        git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]),
    ) {
        let mut watch = vec![
            Path::new(&dir).join("HEAD"),
            Path::new(&dir).join("index"),
            Path::new(&common).join("packed-refs"),
        ];
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watch.push(Path::new(&common).join(branch));
        }
        // a path that does not exist would make cargo rerun this every time
        for p in watch.iter().filter(|p| p.exists()) {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }
    let status = git(&[
        "--no-optional-locks",
        "status",
        "--porcelain",
        "--",
        "src",
        "build.rs",
        "Cargo.toml",
        "Cargo.lock",
    ]);
    let dirty = match status {
        Some(s) if s.is_empty() => "",
        _ => "-dirty",
    };
    println!("cargo:rustc-env=TENGEN_COMMIT={hash}{dirty}");
}
