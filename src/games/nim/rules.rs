//! Nim's rules, and what the search knows of it: the whole game, solved.

/// The pile a game starts with, and the most a turn may take.
pub const PILE: u32 = 21;
pub const MAX_TAKE: u32 = 3;

/// A position: the stones left and the turns played (seat 0 moves on
/// even turns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nim {
    pub left: u32,
    pub turns: u32,
}

impl Nim {
    pub fn new(left: u32) -> Nim {
        Nim { left, turns: 0 }
    }

    /// The seat to move.
    pub fn to_move(self) -> usize {
        (self.turns % 2) as usize
    }

    /// Why `take` is illegal here, if it is.
    pub fn check(self, take: u32) -> Result<(), String> {
        if !(1..=MAX_TAKE).contains(&take) {
            return Err(format!("{take}: take 1 to {MAX_TAKE}"));
        }
        if take > self.left {
            return Err(format!("{take}: only {} left", self.left));
        }
        Ok(())
    }

    pub fn play(&mut self, take: u32) -> Result<(), String> {
        self.check(take)?;
        self.left -= take;
        self.turns += 1;
        Ok(())
    }

    /// Over once the pile is empty: the player to move has lost.
    pub fn is_over(self) -> bool {
        self.left == 0
    }

    /// The winning take, when there is one: leave a multiple of 4.
    pub fn best_take(self) -> Option<u32> {
        let take = self.left % (MAX_TAKE + 1);
        (take > 0).then_some(take)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_take_leaves_the_opponent_lost() {
        for left in 1..=PILE {
            let Some(take) = Nim::new(left).best_take() else {
                assert_eq!(left % 4, 0);
                continue;
            };
            let mut n = Nim::new(left);
            n.play(take).unwrap();
            // whatever the reply, the best take answers it
            for reply in 1..=MAX_TAKE.min(n.left) {
                let mut m = n;
                m.play(reply).unwrap();
                assert!(m.best_take().is_some(), "{left} {take} {reply}");
            }
        }
        assert!(Nim::new(4).play(4).is_err());
        assert!(Nim::new(2).play(3).is_err());
        assert!(Nim::new(2).play(0).is_err());
    }
}
