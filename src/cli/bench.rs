//! `tengen bench`: playout speed, one thread. The light mode plays uniform
//! random playouts (legal moves that do not fill an own eye, until two passes
//! or 3 x the board area moves) from the empty board, or from a fixed set of
//! mid-game positions with `--positions`.

use super::{no_more_args, parse_flag, search_config, take_switch, ToolError};
use crate::games::go::playout::{light_playout, uniform_move};
use crate::go::{Board, Move};
use crate::search::rng::Rng;
use std::time::{Duration, Instant};

pub const USAGE: &str = "\
usage: tengen bench [--seconds S | --playouts N] [--size N] [--seed N] [--positions]
       tengen bench --search [--seconds S | --playouts N] [--model FILE] [--set NAME=VALUE]...
       tengen bench --net [--model FILE] [--seconds S | --playouts N]
  One thread, S seconds (default 5) or N playouts. The first form plays
  light playouts (uniform, no eye filling) from the empty board, or from
  fixed mid-game positions with --positions. --search runs the bot's
  searches, one after another, and counts their playouts and network
  evaluations. --net times one evaluation (inputs, network, outputs) of
  the built-in network, or of FILE's, on each inference path this CPU
  runs, the paths taking turns 8 positions at a time (N: evaluations a
  path), on the wall and on the thread's CPU clock (cpu_ms: what a busy
  machine disturbs least), and the reading of the network. With
  TENGEN_NET_PATH=NAME, that path alone.";

pub fn run(mut args: Vec<String>) -> Result<String, ToolError> {
    if args.iter().any(|a| a == "--help") {
        return Ok(format!("{USAGE}\n"));
    }
    let seconds: f64 = parse_flag(&mut args, "--seconds")?.unwrap_or(5.0); // ignored with --playouts
    if !(seconds > 0.0 && seconds.is_finite()) {
        return Err(ToolError::usage("--seconds must be a positive number"));
    }
    let size: usize = parse_flag(&mut args, "--size")?.unwrap_or(19);
    if !(2..=crate::go::MAX_SIZE).contains(&size) {
        return Err(ToolError::usage(format!(
            "--size must be in 2..={}",
            crate::go::MAX_SIZE
        )));
    }
    let positions = take_switch(&mut args, "--positions");
    let search = take_switch(&mut args, "--search");
    let model: Option<String> = super::take_flag(&mut args, "--model")?;
    // a file alone asks for the network bench, as --net does
    let net = take_switch(&mut args, "--net");
    let seed: u64 = parse_flag(&mut args, "--seed")?.unwrap_or(1);
    let count: Option<u64> = parse_flag(&mut args, "--playouts")?;
    let sets = args.iter().any(|a| a == "--set" || a.starts_with("--set="));
    if sets && !search {
        return Err(ToolError::usage(
            "--set changes the search: use it with --search",
        ));
    }
    // each search takes its seed from --seed: a seed set here would be lost.
    // The assignments are read as `search_config` reads them, on a copy.
    let mut probe = args.clone();
    let mut seed_set = false;
    while let Ok(Some(assignment)) = super::take_flag(&mut probe, "--set") {
        seed_set |= assignment
            .split_once('=')
            .is_some_and(|(name, _)| name.trim() == "seed");
    }
    if seed_set {
        return Err(ToolError::usage(
            "the bench seeds its searches from --seed: use --seed, not --set seed=",
        ));
    }
    let config = search_config(&mut args)?;
    no_more_args(&args)?;
    if search && net {
        return Err(ToolError::usage(
            "--search and --net are two benches: pick one",
        ));
    }
    if search {
        // --model: the searches' network
        if let Some(path) = model {
            crate::games::go::nn::install(super::model::load(&path)?).map_err(ToolError::input)?;
        }
        return Ok(search_bench(size, seconds, count, seed, config));
    }
    if net || model.is_some() {
        // the start-up cost too: reading (and decoding) the network
        let t = Instant::now();
        let net = match model {
            Some(path) => super::model::load(&path)?,
            None => {
                crate::games::go::nn::Network::from_bytes(crate::games::go::nn::builtin::BUILTIN)
                    .map_err(ToolError::input)?
            }
        };
        let read = t.elapsed().as_secs_f64();
        let out = kata_bench(net, size, seconds, count, seed);
        return Ok(format!("{out}read_ms: {:.1}\n", 1e3 * read));
    }
    let starts = if positions {
        midgame_positions(size, seed)
    } else {
        vec![Board::new(size, size)]
    };
    let r = light(&starts, Duration::from_secs_f64(seconds), count, seed);
    let kind = if positions {
        "mid-game positions"
    } else {
        "empty board"
    };
    Ok(format!(
        "light playouts from the {kind}, {size}x{size}, one thread\n\
         playouts: {}\nchecksum: {}\nseconds: {:.3}\nmoves_per_playout: {:.1}\nmoves_per_second: {:.0}\nplayouts_per_second: {:.0}\n",
        r.playouts,
        r.checksum,
        r.seconds,
        r.moves as f64 / r.playouts.max(1) as f64,
        r.moves as f64 / r.seconds,
        r.playouts as f64 / r.seconds
    ))
}

/// What a timed run measured.
pub struct Rate {
    pub playouts: u64,
    pub moves: u64,
    pub seconds: f64,
    /// The sum of the playouts' final margins: with `count` playouts, the
    /// same number for the same playouts on any machine.
    pub checksum: u64,
}

/// Light playouts from the given positions in turn until `budget` is spent,
/// or exactly `count` of them (for profiles that must be repeatable).
pub fn light(starts: &[Board], budget: Duration, count: Option<u64>, seed: u64) -> Rate {
    let mut rng = Rng::new(seed);
    let t0 = Instant::now();
    let (mut playouts, mut moves) = (0u64, 0u64);
    let mut checksum = 0u64;
    // one board played on and refilled, as the search does
    let mut b = starts[0].clone();
    loop {
        // check the clock every few playouts only
        let batch = count.map_or(16, |n| n.saturating_sub(playouts).min(16));
        for _ in 0..batch {
            b.copy_from(&starts[playouts as usize % starts.len()]);
            let cap = 3 * b.area();
            moves += light_playout(&mut b, &mut rng, cap) as u64;
            checksum = checksum.wrapping_add(b.area_margin() as u64);
            playouts += 1;
        }
        let done = match count {
            Some(n) => playouts >= n,
            None => t0.elapsed() >= budget,
        };
        if done {
            break;
        }
    }
    Rate {
        playouts,
        moves,
        seconds: t0.elapsed().as_secs_f64(),
        checksum,
    }
}

/// A fixed set of positions from seeded random games: 8 positions at move
/// 40, 80, 120 and 160 of two games, so runs on any machine are comparable.
pub fn midgame_positions(size: usize, seed: u64) -> Vec<Board> {
    let mut out = Vec::new();
    let mut rng = Rng::new(seed ^ 0x5EED);
    let depth = size * size * 4 / 9;
    for _game in 0..2 {
        let mut b = Board::new(size, size);
        for k in 1..=depth {
            match uniform_move(&b, &mut rng) {
                Move::Pass => b.pass(),
                Move::Play(p) => {
                    b.play_legal(b.to_move(), p);
                }
            }
            if k % (depth / 4).max(1) == 0 && out.len() < 8 {
                out.push(b.clone());
            }
        }
    }
    out
}

/// Evaluations a path makes in a row in [`kata_bench`]: one at a time, a
/// path's weights came from L3 after the others' (b6c96 on VNNI-512:
/// 2.30 ms an evaluation against 1.88 in a row, as a search runs them).
const STRETCH: u64 = 8;

/// A network's evaluations (inputs, network, outputs) of the empty
/// board and the mid-game positions, on each path this CPU runs, taking
/// turns [`STRETCH`] positions at a time so that a busy machine slows
/// them alike: `seconds` in all, or `count` evaluations a path; at least
/// one round. Each turn's first evaluation (buffers, and the caches
/// another path left) is not timed. With
/// `TENGEN_NET_PATH` set, that path alone. Each path's time is given on
/// the wall and on the thread's CPU clock, which a busy machine disturbs
/// far less (the time the thread waits for a core is not counted).
fn kata_bench(
    net: crate::games::go::nn::Network,
    size: usize,
    seconds: f64,
    count: Option<u64>,
    seed: u64,
) -> String {
    use crate::games::go::nn::{self, Network, Path};
    use crate::go::Game;
    let model = net.model().clone();
    let mut out = format!(
        "{model}\n{size}x{size}, one thread, {:.2} G multiply-adds an evaluation\n",
        model.macs(size * size) as f64 / 1e9
    );
    let mut games = vec![Game::new(size, size, 7.5)];
    games.extend(
        midgame_positions(size, seed)
            .into_iter()
            .map(|b| Game::from_board(b, 7.5)),
    );
    // the scalar kernel is the integer reference: for tests, seconds long
    let only = std::env::var(nn::paths::VARIABLE).ok();
    let nets: Vec<Network> = Path::ALL
        .into_iter()
        .filter(|&p| match &only {
            Some(name) => Path::parse(name) == Some(p),
            None => p.name() != "int8",
        })
        .filter(|&p| p.runs_here())
        .map(|p| Network::on(model.clone(), p))
        .collect();
    drop(net);
    let mut spent = vec![0f64; nets.len()];
    let mut cpu = vec![0f64; nets.len()];
    let mut checksum = 0u64;
    let (t0, mut rounds, want) = (Instant::now(), 0u64, count.unwrap_or(u64::MAX).max(1));
    while rounds < want
        && (rounds < games.len() as u64 || count.is_some() || t0.elapsed().as_secs_f64() < seconds)
    {
        let stretch = STRETCH.min(want - rounds);
        for (k, n) in nets.iter().enumerate() {
            // the path's caches as its last evaluation left them, as in
            // a search: the first of the stretch untimed
            n.evaluate(&nn::position(&games[rounds as usize % games.len()]), 0.0);
            for r in rounds..rounds + stretch {
                let game = &games[r as usize % games.len()];
                let (t, c) = (Instant::now(), thread_cpu());
                let e = n.evaluate(&nn::position(game), 0.0);
                spent[k] += t.elapsed().as_secs_f64();
                cpu[k] += thread_cpu() - c;
                if k == 0 && r < games.len() as u64 {
                    let top =
                        (0..e.policy.len()).max_by(|&a, &b| e.policy[a].total_cmp(&e.policy[b]));
                    checksum = checksum.wrapping_mul(1_000_003) + top.unwrap_or(0) as u64;
                }
            }
        }
        rounds += stretch;
    }
    out.push_str(&format!(
        "checksum: {checksum}\npaths, {rounds} evaluations each, taking turns {STRETCH} at a time:\n"
    ));
    for ((n, s), c) in nets.iter().zip(&spent).zip(&cpu) {
        out.push_str(&format!(
            "ms_per_evaluation_{}: {:.2}\ncpu_ms_per_evaluation_{}: {:.3}\n",
            n.path(),
            1e3 * s / rounds as f64,
            n.path(),
            1e3 * c / rounds as f64
        ));
    }
    out
}

/// Seconds of CPU time this thread has run, to the nanosecond (the
/// clock std does not wrap; declared by hand: the crate has no `libc`).
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn thread_cpu() -> f64 {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, t: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: `t` is a valid timespec (64-bit Linux's layout) for the call
    // to fill
    unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.sec as f64 + t.nsec as f64 * 1e-9
}

/// Elsewhere, no such clock: zero, the CPU times then read 0.
#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn thread_cpu() -> f64 {
    0.0
}

/// Full searches (the network at every leaf; with `network=false`, RAVE
/// and playouts) from the empty board and the mid-game positions in
/// turn, `count` playouts (visits) each (default 4000), until
/// `seconds` have passed; at least one search from each position. `config`
/// carries the parameters set with `--set` (see `tengen bot --help`).
fn search_bench(
    size: usize,
    seconds: f64,
    count: Option<u64>,
    seed: u64,
    config: crate::games::go::Config,
) -> String {
    use crate::games::go::{Config, Searcher};
    use crate::go::Game;
    use crate::search::{Budget, Horizon};
    let per_search = count.unwrap_or(4000);
    let mut starts = vec![Board::new(size, size)];
    starts.extend(midgame_positions(size, seed));
    let mut out = String::new();
    let (mut playouts, mut searches, mut evaluations) = (0u64, 0usize, 0u64);
    // of the first search from each start, whose playout count is fixed:
    // its move and tree size, the same on any machine
    let mut checksum = 0u64;
    let mut per_start = vec![(0u64, 0f64); starts.len()];
    let t0 = Instant::now();
    while searches < starts.len() || t0.elapsed().as_secs_f64() < seconds {
        let k = searches % starts.len();
        let game = Game::from_board(starts[k].clone(), 7.5);
        let mut searcher = Searcher::new(Config {
            seed: seed + searches as u64,
            ..config.clone()
        });
        let t = Instant::now();
        let (mv, stats) = searcher.think(
            &game,
            Horizon { moves_left: None },
            Budget::playouts(per_search),
        );
        if searches < starts.len() {
            let action = mv.point().map_or(0, |p| p.0 as u64 + 1);
            checksum = checksum.wrapping_mul(1_000_003).wrapping_add(action) ^ stats.nodes as u64;
        }
        evaluations += stats.net_evaluations;
        per_start[k].0 += stats.playouts;
        per_start[k].1 += t.elapsed().as_secs_f64();
        playouts += stats.playouts;
        searches += 1;
    }
    let secs = t0.elapsed().as_secs_f64();
    out.push_str(&format!(
        "full searches of {per_search} playouts, {size}x{size}, one thread\n"
    ));
    for (k, (n, t)) in per_start.iter().enumerate() {
        let what = if k == 0 {
            "empty board".to_string()
        } else {
            format!("mid-game position {k}")
        };
        out.push_str(&format!(
            "{what}: {:.0} playouts/s\n",
            *n as f64 / t.max(1e-9)
        ));
    }
    out.push_str(&format!(
        "searches: {searches}\nchecksum: {checksum}\nplayouts: {playouts}\nnet_evaluations: {evaluations}\nseconds: {secs:.3}\n"
    ));
    out.push_str(&format!(
        "search_playouts_per_second: {:.0}\n",
        playouts as f64 / secs
    ));
    out
}
