//! The search's tunable numbers by name, so that a match can pit one setting
//! against another without a rebuild: `tengen bot --set tree.rave_equiv=1000`.

use super::Config;

/// Every name [`Config::set`] takes, with what it sets.
pub const PARAMS: &[(&str, &str)] = &[
    (
        "tree.expand_after",
        "real visits before a node gets children",
    ),
    (
        "tree.rave_equiv",
        "visits at which AMAF and real values weigh the same",
    ),
    (
        "tree.explore",
        "UCB exploration constant (0: priors and AMAF explore)",
    ),
    ("tree.max_nodes", "most nodes the tree may hold"),
    (
        "policy.capture",
        "% of playout moves trying a capture near the last move",
    ),
    ("policy.save", "% trying to save a string put in atari"),
    ("policy.pattern", "% trying a 3x3 shape reply"),
    (
        "policy.refuse_self_atari",
        "% refusing a self-atari of 3+ stones",
    ),
    (
        "policy.fill_board",
        "% first trying a point with the 3x3 around it empty",
    ),
    ("priors.even", "visits at 50 % every new child starts with"),
    ("priors.capture_one", "won visits for capturing one stone"),
    ("priors.capture_many", "won visits for capturing more"),
    (
        "priors.save_atari",
        "won visits for saving a string in atari",
    ),
    ("priors.pattern", "won visits for a 3x3 shape"),
    ("priors.self_atari", "lost visits for a self-atari"),
    (
        "priors.near_last_1",
        "won visits at distance 1 of the last move",
    ),
    ("priors.near_last_2", "... at distance 2"),
    ("priors.near_last_3", "... at distance 3"),
    (
        "priors.first_line",
        "lost visits on the first line in the open",
    ),
    (
        "priors.low_line_open",
        "lost visits on the second line in the open",
    ),
    (
        "priors.good_line_open",
        "won visits on the third and fourth lines in the open",
    ),
    (
        "priors.empty_corner",
        "won visits on a corner point of an empty corner",
    ),
    ("priors.pass", "visits the pass child starts with"),
    (
        "score_weight",
        "weight of the score margin next to win/loss",
    ),
    ("reuse", "keep the tree between moves (true/false)"),
    (
        "playouts",
        "at most this many playouts a move (0: what the clock allows)",
    ),
];

impl Config {
    /// Sets one parameter from `name=value`; the error says what is wrong.
    pub fn set(&mut self, assignment: &str) -> Result<(), String> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| format!("{assignment:?}: expected NAME=VALUE"))?;
        let (name, value) = (name.trim(), value.trim());
        let bad = || format!("{name}: cannot use {value:?}");
        let real = || {
            value
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(bad)
        };
        let count = || value.parse::<u32>().map_err(|_| bad());
        let percent = || count().and_then(|v| if v <= 100 { Ok(v) } else { Err(bad()) });
        let (t, p, q) = (&mut self.tree, &mut self.policy, &mut self.priors);
        match name {
            "tree.expand_after" => t.expand_after = count()?.max(1),
            "tree.rave_equiv" => t.rave_equiv = real()?,
            "tree.explore" => t.explore = real()?,
            "tree.max_nodes" => t.max_nodes = count()?.max(1) as usize,
            "policy.capture" => p.capture = percent()?,
            "policy.save" => p.save = percent()?,
            "policy.pattern" => p.pattern = percent()?,
            "policy.refuse_self_atari" => p.refuse_self_atari = percent()?,
            "policy.nakade" => p.nakade = percent()?,
            "policy.fill_board" => p.fill_board = percent()?,
            "priors.even" => q.even = real()?,
            "priors.capture_one" => q.capture_one = real()?,
            "priors.capture_many" => q.capture_many = real()?,
            "priors.save_atari" => q.save_atari = real()?,
            "priors.pattern" => q.pattern = real()?,
            "priors.self_atari" => q.self_atari = real()?,
            "priors.near_last_1" => q.near_last[0] = real()?,
            "priors.near_last_2" => q.near_last[1] = real()?,
            "priors.near_last_3" => q.near_last[2] = real()?,
            "priors.first_line" => q.first_line = real()?,
            "priors.low_line_open" => q.low_line_open = real()?,
            "priors.good_line_open" => q.good_line_open = real()?,
            "priors.empty_corner" => q.empty_corner = real()?,
            "priors.pass" => q.pass = real()?,
            "score_weight" => self.score_weight = real()?,
            "reuse" => self.reuse = value.parse().map_err(|_| bad())?,
            "seed" => self.seed = value.parse().map_err(|_| bad())?,
            "playouts" => {
                let n: u64 = value.parse().map_err(|_| bad())?;
                self.playouts = (n > 0).then_some(n);
            }
            _ => return Err(format!("unknown parameter {name:?} (known: {})", names())),
        }
        Ok(())
    }
}

fn names() -> String {
    PARAMS
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_name_is_settable_and_changes_the_config() {
        for (name, _) in PARAMS {
            let mut c = Config::default();
            let before = format!("{c:?}");
            let value = if *name == "reuse" { "false" } else { "7" };
            c.set(&format!("{name}={value}")).unwrap();
            assert_ne!(format!("{c:?}"), before, "{name} changed nothing");
        }
    }

    #[test]
    fn bad_assignments_are_refused() {
        let mut c = Config::default();
        assert!(c.set("tree.rave_equiv").is_err());
        assert!(c.set("tree.rave_equiv=-1").is_err());
        assert!(c.set("tree.rave_equiv=nan").is_err());
        assert!(c.set("policy.capture=101").is_err());
        assert!(c.set("nonsense=1").unwrap_err().contains("tree.rave_equiv"));
        c.set(" tree.rave_equiv = 1500 ").unwrap();
        assert_eq!(c.tree.rave_equiv, 1500.0);
    }
}
