//! The search's tunable numbers by name, so that a match can pit one setting
//! against another without a rebuild: `tengen bot --set tree.rave_equiv=1000`.

use super::Config;

/// One tunable: its name, what it sets, and how a value is stored (`None`
/// when the value is not one it takes).
pub struct Param {
    pub name: &'static str,
    pub what: &'static str,
    set: fn(&mut Config, &str) -> Option<()>,
}

/// A finite, non-negative real.
fn real(v: &str) -> Option<f32> {
    v.parse::<f32>().ok().filter(|x| x.is_finite() && *x >= 0.0)
}

fn count(v: &str) -> Option<u32> {
    v.parse().ok()
}

fn percent(v: &str) -> Option<u32> {
    count(v).filter(|&x| x <= 100)
}

macro_rules! param {
    ($name:literal, $what:literal, |$c:ident, $v:ident| $body:expr) => {
        Param {
            name: $name,
            what: $what,
            set: |$c: &mut Config, $v: &str| {
                $body;
                Some(())
            },
        }
    };
}

/// Every parameter [`Config::set`] takes; `tengen bot --help` lists them.
pub const PARAMS: &[Param] = &[
    param!(
        "tree.expand_after",
        "real visits before a node gets children",
        |c, v| c.tree.expand_after = count(v)?.max(1)
    ),
    param!(
        "tree.rave_equiv",
        "visits at which AMAF and real values weigh the same",
        |c, v| c.tree.rave_equiv = real(v)?
    ),
    param!(
        "tree.explore",
        "UCB exploration constant (0: priors and AMAF explore)",
        |c, v| c.tree.explore = real(v)?
    ),
    param!("tree.max_nodes", "most nodes the tree may hold", |c, v| c
        .tree
        .max_nodes =
        count(v)?.max(1) as usize),
    param!(
        "policy.capture",
        "% of playout moves trying a capture near the last move",
        |c, v| c.policy.capture = percent(v)?
    ),
    param!(
        "policy.save",
        "% trying to save a string put in atari",
        |c, v| c.policy.save = percent(v)?
    ),
    param!("policy.pattern", "% trying a 3x3 shape reply", |c, v| c
        .policy
        .pattern =
        percent(v)?),
    param!(
        "policy.refuse_self_atari",
        "% refusing a self-atari of 3+ stones",
        |c, v| c.policy.refuse_self_atari = percent(v)?
    ),
    param!(
        "priors.even",
        "visits at 50 % every new child starts with",
        |c, v| c.priors.even = real(v)?
    ),
    param!(
        "priors.capture_one",
        "won visits for capturing one stone",
        |c, v| c.priors.capture_one = real(v)?
    ),
    param!(
        "priors.capture_many",
        "won visits for capturing more",
        |c, v| c.priors.capture_many = real(v)?
    ),
    param!(
        "priors.save_atari",
        "won visits for saving a string in atari",
        |c, v| c.priors.save_atari = real(v)?
    ),
    param!(
        "priors.ladder_atari",
        "won visits for an atari the string cannot escape (at once or in a ladder)",
        |c, v| c.priors.ladder_atari = real(v)?
    ),
    param!(
        "priors.ladder_escape",
        "lost visits for extending a string in atari into a ladder",
        |c, v| c.priors.ladder_escape = real(v)?
    ),
    param!(
        "priors.ladder_defence",
        "won visits for three liberties to an own string an atari would catch",
        |c, v| c.priors.ladder_defence = real(v)?
    ),
    param!("priors.pattern", "won visits for a 3x3 shape", |c, v| c
        .priors
        .pattern =
        real(v)?),
    param!(
        "priors.self_atari",
        "lost visits for a self-atari",
        |c, v| c.priors.self_atari = real(v)?
    ),
    param!(
        "priors.near_last_1",
        "won visits at distance 1 of the last move",
        |c, v| c.priors.near_last[0] = real(v)?
    ),
    param!("priors.near_last_2", "... at distance 2", |c, v| c
        .priors
        .near_last[1] =
        real(v)?),
    param!("priors.near_last_3", "... at distance 3", |c, v| c
        .priors
        .near_last[2] =
        real(v)?),
    param!(
        "priors.opening_near_last",
        "share of the near-last bonus kept in the opening (1: all)",
        |c, v| c.priors.opening_near_last = real(v)?
    ),
    param!(
        "priors.first_line",
        "lost visits on the first line in the open",
        |c, v| c.priors.first_line = real(v)?
    ),
    param!(
        "priors.low_line_open",
        "lost visits on the second line in the open",
        |c, v| c.priors.low_line_open = real(v)?
    ),
    param!(
        "priors.good_line_open",
        "won visits on the third and fourth lines in the open",
        |c, v| c.priors.good_line_open = real(v)?
    ),
    param!(
        "priors.net",
        "won visits of the policy network's prior at busy nodes (0: off)",
        |c, v| c.priors.net = real(v)?
    ),
    param!(
        "priors.net_power",
        "the network's prior: net * probability ^ this",
        |c, v| c.priors.net_power = real(v)?
    ),
    param!(
        "tree.knowledge_at",
        "real playouts before a node gets the network's prior",
        |c, v| c.tree.knowledge_at = count(v)?
    ),
    param!(
        "priors.learned",
        "visits of the learnt prior (src/games/go/gammas.txt)",
        |c, v| c.priors.learned = real(v)?
    ),
    param!(
        "priors.learned_power",
        "its win rate: (strength / strongest) to this power",
        |c, v| c.priors.learned_power = real(v)?
    ),
    param!(
        "priors.pass",
        "visits the pass child starts with",
        |c, v| c.priors.pass = real(v)?
    ),
    param!(
        "score_weight",
        "weight of the score margin next to win/loss",
        |c, v| c.score_weight = real(v)?
    ),
    param!(
        "score_scale",
        "margin in points that earns the whole score term (0: the board's area)",
        |c, v| c.score_scale = real(v)?
    ),
    param!(
        "dynamic_komi",
        "where the playouts' mean margin is this many spreads from 0, count against a komi moved towards it (0: never)",
        |c, v| c.dynamic_komi = real(v)?
    ),
    param!(
        "reuse",
        "keep the tree between moves (true/false)",
        |c, v| c.reuse = v.parse().ok()?
    ),
    param!(
        "ponder",
        "search on the opponent's time too (true/false)",
        |c, v| c.ponder = v.parse().ok()?
    ),
    param!(
        "network",
        "search on the value network where one reads the board (true/false; false: playouts)",
        |c, v| c.network = v.parse().ok()?
    ),
    param!(
        "puct.cpuct",
        "value search: exploration constant",
        |c, v| c.puct.cpuct = real(v)?
    ),
    param!(
        "puct.cpuct_log",
        "value search: its growth with the visits, times ln((N + 500) / 500)",
        |c, v| c.puct.cpuct_log = real(v)?
    ),
    param!(
        "puct.fpu",
        "value search: first-play urgency reduction below the root",
        |c, v| c.puct.fpu = real(v)?
    ),
    param!(
        "puct.fpu_root",
        "value search: first-play urgency reduction at the root",
        |c, v| c.puct.fpu_root = real(v)?
    ),
    param!(
        "puct.stdev_scale",
        "value search: exploration scaled by the utility's spread below the node, 0 to 1 (0: constant)",
        |c, v| c.puct.stdev_scale = real(v)?.min(1.0)
    ),
    param!(
        "puct.fpu_pow",
        "value search: first-play urgency's parent value, its mean weighted by the visited policy to this power, its own read by the rest (0: the mean)",
        |c, v| c.puct.fpu_pow = real(v)?
    ),
    param!(
        "puct.lcb",
        "value search: the move played is the best lower confidence bound, its mean less this many standard errors, among moves with 15 % of the most visits (0: the most visited)",
        |c, v| c.puct.lcb = real(v)?
    ),
    param!(
        "puct.min_prior",
        "value search: children kept, share of the likeliest move's prior",
        |c, v| c.puct.min_prior = real(v)?
    ),
    param!(
        "utility.static",
        "value search: weight of the score term around 0",
        |c, v| c.score_utility.static_factor = real(v)?
    ),
    param!(
        "utility.dynamic",
        "value search: weight of the score term around the expected score",
        |c, v| c.score_utility.dynamic_factor = real(v)?
    ),
    param!("seed", "seed of the search's random numbers", |c, v| c
        .seed =
        v.parse().ok()?),
    param!(
        "playouts",
        "playouts a move (0: what the clock allows); the value search spends them all in network evaluations, the playout search may stop once its move is sure",
        |c, v| c.playouts = Some(v.parse::<u64>().ok()?).filter(|&n| n > 0)
    ),
];

impl Config {
    /// Sets one parameter from `name=value`; the error says what is wrong.
    pub fn set(&mut self, assignment: &str) -> Result<(), String> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| format!("{assignment:?}: expected NAME=VALUE"))?;
        let (name, value) = (name.trim(), value.trim());
        let Some(param) = PARAMS.iter().find(|p| p.name == name) else {
            let known: Vec<&str> = PARAMS.iter().map(|p| p.name).collect();
            return Err(format!(
                "unknown parameter {name:?} (known: {})",
                known.join(", ")
            ));
        };
        // a setter reads its value before it stores anything: a refused
        // value leaves the config as it was
        (param.set)(self, value).ok_or_else(|| format!("{name}: cannot use {value:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_name_is_settable_and_changes_the_config() {
        for p in PARAMS {
            let mut c = Config::default();
            let before = format!("{c:?}");
            let value = match p.name {
                "reuse" | "ponder" | "network" => "false",
                _ => "7",
            };
            c.set(&format!("{}={value}", p.name)).unwrap();
            assert_ne!(format!("{c:?}"), before, "{} changed nothing", p.name);
        }
    }

    #[test]
    fn the_newer_names_are_listed_and_none_twice() {
        // the names a help text shows are the names `set` takes: one table
        let names: Vec<&str> = PARAMS.iter().map(|p| p.name).collect();
        for name in [
            "priors.ladder_atari",
            "priors.ladder_escape",
            "priors.ladder_defence",
            "seed",
            "playouts",
        ] {
            assert!(names.contains(&name), "{name} missing");
        }
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "a name is listed twice");
    }

    #[test]
    fn bad_assignments_are_refused() {
        let mut c = Config::default();
        assert!(c.set("tree.rave_equiv").is_err());
        assert!(c.set("tree.rave_equiv=-1").is_err());
        assert!(c.set("tree.rave_equiv=nan").is_err());
        assert!(c.set("policy.capture=101").is_err());
        assert!(c.set("playouts=-5").is_err());
        assert!(c.set("nonsense=1").unwrap_err().contains("tree.rave_equiv"));
        assert_eq!(
            format!("{c:?}"),
            format!("{:?}", Config::default()),
            "refusals changed it"
        );
        c.set(" tree.rave_equiv = 1500 ").unwrap();
        assert_eq!(c.tree.rave_equiv, 1500.0);
        c.set("playouts=0").unwrap();
        assert_eq!(c.playouts, None);
    }
}
