//! Learnt move weights: one "gamma" per feature, a move's strength the
//! product of its features' gammas (Coulom 2007). `tengen learn` fits them
//! from game records and writes the text this module reads; the bot carries
//! the table in `src/games/go/gammas.txt` (in the zip with the sources).

use super::features::{variants, Features, GROUPS};
use crate::deps::FxHashMap;
use std::sync::OnceLock;

/// The table built into the binary.
const BUILTIN: &str = include_str!("gammas.txt");

pub struct Gammas {
    /// Shapes under every symmetry, keyed by code.
    shapes: FxHashMap<u32, f32>,
    /// The other groups' gammas by feature (a handful each; 1 if unseen).
    small: [Vec<f32>; GROUPS.len() - 1],
    /// The weight of a shape the records never showed.
    unseen_shape: f32,
}

/// Features of the groups but the shape are small numbers.
const SMALL_MAX: usize = 64;

impl Gammas {
    /// Reads lines `GROUP FEATURE GAMMA` and one `unseen shape GAMMA`;
    /// `#` starts a comment.
    pub fn parse(text: &str) -> Result<Gammas, String> {
        let mut shapes = FxHashMap::default();
        let mut small: [Vec<f32>; GROUPS.len() - 1] = Default::default();
        let mut unseen_shape = None;
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let bad = || format!("line {}: expected GROUP FEATURE GAMMA: {line}", n + 1);
            let words: Vec<&str> = line.split_whitespace().collect();
            let [group, feature, gamma] = words[..] else {
                return Err(bad());
            };
            let gamma: f32 = gamma
                .parse()
                .ok()
                .filter(|g: &f32| g.is_finite() && *g > 0.0)
                .ok_or_else(bad)?;
            if (group, feature) == ("unseen", "shape") {
                unseen_shape = Some(gamma);
                continue;
            }
            let g = GROUPS.iter().position(|&x| x == group).ok_or_else(bad)?;
            let f: u32 = feature
                .parse()
                .ok()
                .filter(|&f| f > 0 && f < 1 << 25)
                .ok_or_else(bad)?;
            if g == 0 {
                // moves are looked up by their shape as it stands
                for v in variants(f) {
                    shapes.insert(v, gamma);
                }
            } else {
                let row = &mut small[g - 1];
                if f as usize >= SMALL_MAX {
                    return Err(bad());
                }
                if row.len() <= f as usize {
                    row.resize(f as usize + 1, 1.0);
                }
                row[f as usize] = gamma;
            }
        }
        let unseen_shape = unseen_shape.ok_or("no `unseen shape GAMMA` line")?;
        Ok(Gammas {
            shapes,
            small,
            unseen_shape,
        })
    }

    /// The table in the binary; parsed on first use.
    pub fn builtin() -> &'static Gammas {
        static TABLE: OnceLock<Gammas> = OnceLock::new();
        TABLE
            .get_or_init(|| Gammas::parse(BUILTIN).expect("src/games/go/gammas.txt is well formed"))
    }

    /// Shapes learnt, each under all its symmetries.
    pub fn shapes(&self) -> usize {
        self.shapes.len()
    }

    /// The strength of a move with features `f`.
    pub fn strength(&self, f: &Features) -> f32 {
        let mut s = *self.shapes.get(&f[0]).unwrap_or(&self.unseen_shape);
        for (row, &feature) in self.small.iter().zip(&f[1..]) {
            s *= row.get(feature as usize).copied().unwrap_or(1.0);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_strength_multiplies_the_gammas_of_the_features_present() {
        let g = Gammas::parse(
            "# comment\nunseen shape 0.5\nshape 7 2\ndist_last 2 3 # near\ncapture 1 10\n",
        )
        .unwrap();
        // code 7 holds one value on a diagonal: 4 ways to place it
        assert_eq!(g.shapes(), 4);
        let mut f = [0; GROUPS.len()];
        f[0] = 7;
        f[1] = 2;
        assert_eq!(g.strength(&f), 6.0);
        f[4] = 1;
        assert_eq!(g.strength(&f), 60.0);
        // the same stone on another diagonal
        f[0] = (6 << 9) + 1;
        assert_eq!(g.strength(&f), 60.0);
        // an unseen shape takes its own weight, other unseen features 1
        f[0] = 8;
        f[1] = 5;
        assert_eq!(g.strength(&f), 5.0);
    }

    #[test]
    fn bad_tables_are_refused_with_the_line() {
        let err = |t: &str| Gammas::parse(t).err().unwrap();
        assert!(err("unseen shape 1\nshape 7\n").starts_with("line 2"));
        assert!(err("unseen shape 1\nshapes 7 1\n").starts_with("line 2"));
        assert!(err("unseen shape 1\nshape 7 -1\n").starts_with("line 2"));
        assert!(err("unseen shape 1\nshape 0 1\n").starts_with("line 2"));
        assert!(err("unseen shape 1\natari 64 1\n").starts_with("line 2"));
        assert!(err("shape 7 1\n").contains("unseen"));
    }

    #[test]
    fn the_builtin_table_reads() {
        let g = Gammas::builtin();
        assert!(g.shapes() > 1000, "{} shapes", g.shapes());
    }
}
