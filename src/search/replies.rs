//! Last good reply with forgetting (Baier and Drake, "The Power of
//! Forgetting", 2010). The playouts teach each other: after a playout, every
//! move of the winner is stored as the answer to the move before it (and to
//! the two moves before it); every move of the loser that is stored as such
//! an answer is forgotten. The policy then plays a stored answer, when it is
//! still legal, before its own heuristics.
//!
//! The tables learn from every playout of a search, so they live next to the
//! search's scratch position, not in the positions themselves.

use crate::go::{Board, Color, Move, MAX_POINTS};

/// Action code of a move: the point, or 0 for a pass (no point is 0).
#[inline]
fn code(mv: Move) -> u16 {
    match mv {
        Move::Pass => 0,
        Move::Play(p) => p.0,
    }
}

#[derive(Clone)]
pub struct Replies {
    /// Answer of each side to the previous move: `[side][previous]`.
    one: Vec<u16>,
    /// Answer to the two previous moves: `[side][before previous][previous]`.
    two: Vec<u16>,
    /// The playout being recorded: its two moves of context, then its moves.
    moves: Vec<u16>,
    /// Side that played `moves[2]`.
    first: Color,
}

impl Replies {
    pub fn new() -> Replies {
        Replies {
            one: vec![0; 2 * MAX_POINTS],
            two: vec![0; 2 * MAX_POINTS * MAX_POINTS],
            moves: Vec::with_capacity(1024),
            first: Color::Black,
        }
    }

    #[inline]
    fn slot_one(c: Color, prev: u16) -> usize {
        c.index() * MAX_POINTS + prev as usize % MAX_POINTS
    }

    #[inline]
    fn slot_two(c: Color, before: u16, prev: u16) -> usize {
        (c.index() * MAX_POINTS + before as usize % MAX_POINTS) * MAX_POINTS
            + prev as usize % MAX_POINTS
    }

    /// The stored answers for the side to move on `board`: to the last two
    /// moves, then to the last move. 0 where nothing is stored.
    #[inline]
    pub fn answers(&self, board: &Board) -> [u16; 2] {
        let c = board.to_move();
        let [prev, before] = board.last_moves().map(code);
        [
            self.two[Self::slot_two(c, before, prev)],
            self.one[Self::slot_one(c, prev)],
        ]
    }

    /// Starts recording a playout from `board`, whose last two moves are its
    /// context.
    pub fn start(&mut self, board: &Board) {
        let [prev, before] = board.last_moves().map(code);
        self.moves.clear();
        self.moves.extend([before, prev]);
        self.first = board.to_move();
    }

    #[inline]
    pub fn record(&mut self, mv: Move) {
        self.moves.push(code(mv));
    }

    /// Learns from the recorded playout, which `winner` won (`None`: a
    /// draw, nothing learnt).
    pub fn learn(&mut self, winner: Option<Color>) {
        let Some(winner) = winner else { return };
        let mut c = self.first;
        for w in self.moves.windows(3) {
            let (before, prev, mv) = (w[0], w[1], w[2]);
            if mv != 0 {
                let (s1, s2) = (Self::slot_one(c, prev), Self::slot_two(c, before, prev));
                if c == winner {
                    self.one[s1] = mv;
                    self.two[s2] = mv;
                } else {
                    if self.one[s1] == mv {
                        self.one[s1] = 0;
                    }
                    if self.two[s2] == mv {
                        self.two[s2] = 0;
                    }
                }
            }
            c = c.opp();
        }
    }
}

impl Default for Replies {
    fn default() -> Self {
        Replies::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Point;

    fn play(b: &mut Board, r: &mut Replies, x: usize, y: usize) {
        let p = b.point(x, y);
        b.play_legal(b.to_move(), p);
        r.record(Move::Play(p));
    }

    #[test]
    fn the_winner_s_answers_are_kept_and_the_loser_s_forgotten() {
        let mut b = Board::new(9, 9);
        let mut r = Replies::new();
        r.start(&b);
        play(&mut b, &mut r, 2, 2); // black
        play(&mut b, &mut r, 6, 6); // white answers C7 with G3
        play(&mut b, &mut r, 2, 6); // black answers G3 with C3
        r.learn(Some(Color::White));
        let mut after = Board::new(9, 9);
        after.play_legal(Color::Black, after.point(2, 2));
        let g3 = after.point(6, 6).0;
        assert_eq!(
            r.answers(&after),
            [g3, g3],
            "white's answer after C7 is stored"
        );
        after.play_legal(Color::White, after.point(6, 6));
        assert_eq!(r.answers(&after), [0, 0], "black lost: nothing stored");

        // the same answer in a playout white loses is forgotten
        r.start(&Board::new(9, 9));
        let mut b = Board::new(9, 9);
        play(&mut b, &mut r, 2, 2);
        play(&mut b, &mut r, 6, 6);
        r.learn(Some(Color::Black));
        let mut again = Board::new(9, 9);
        again.play_legal(Color::Black, again.point(2, 2));
        assert_eq!(r.answers(&again), [0, 0]);
    }

    #[test]
    fn a_draw_teaches_nothing_and_another_answer_is_not_forgotten() {
        let mut r = Replies::new();
        let mut b = Board::new(9, 9);
        r.start(&b);
        play(&mut b, &mut r, 4, 4);
        play(&mut b, &mut r, 3, 3);
        r.learn(Some(Color::White));
        r.start(&Board::new(9, 9));
        let mut b = Board::new(9, 9);
        play(&mut b, &mut r, 4, 4);
        play(&mut b, &mut r, 5, 5); // a different answer, and white loses
        r.learn(Some(Color::Black));
        r.start(&Board::new(9, 9));
        let mut b = Board::new(9, 9);
        play(&mut b, &mut r, 4, 4);
        play(&mut b, &mut r, 3, 3);
        r.learn(None);
        let mut after = Board::new(9, 9);
        after.play_legal(Color::Black, after.point(4, 4));
        let d = after.point(3, 3).0;
        assert_eq!(
            r.answers(&after)[1],
            d,
            "the stored answer was another move"
        );
        assert_ne!(d, Point(0).0);
    }
}
