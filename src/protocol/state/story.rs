//! How a field came about: the stories (our answer taken or refused, then
//! the opponent's pass or stone) that turn our game into one the field
//! shows, and the stale `-1` marks each game carries.

use super::seen::Seen;
use crate::deps::log;
use crate::go::{Board, Cell, Color, Game, Move, Point, Rules};

/// The stones that read `-1` once `mv` is played on `before` (giving
/// `after`), from those that did (`stale`): a stone set on a point with no
/// empty neighbour keeps that point's mark, as the 1.0.3 referee updates
/// only empty points; a point emptied loses its mark.
pub(super) fn carry(stale: &[bool], before: &Board, after: &Board, mv: Move) -> Vec<bool> {
    after
        .points()
        .enumerate()
        .map(|(i, p)| match after.at(p) {
            Cell::Black | Cell::White if mv.point() == Some(p) => {
                before.nbr_count(p, Cell::Empty) == 0
            }
            Cell::Black | Cell::White => stale.get(i).copied().unwrap_or(false),
            _ => false,
        })
        .collect()
}

/// Plays our answer `mv` on `game` (the referee refuses what is illegal
/// there: a lost turn), with its stale marks. Returns the game as it was,
/// for when the next field shows the referee refused it after all.
pub(super) fn answer(
    game: &mut Game,
    stale: &mut Vec<bool>,
    mv: Move,
) -> Option<(Game, Vec<bool>, Move)> {
    let before = game.clone();
    let played = match game.play(mv) {
        Ok(_) => mv,
        Err(_) => {
            game.lose_turn();
            Move::Pass
        }
    };
    let marks = carry(stale, before.board(), game.board(), played);
    let old = std::mem::replace(stale, marks);
    mv.point().is_some().then_some((before, old, mv))
}

/// One way the field may have come about since our answer: the game
/// after it with its stale marks, and our answer if the referee refused it
/// (with the position, by hash, it was refused in).
pub(super) struct Story {
    pub game: Game,
    pub stale: Vec<bool>,
    pub refused: Option<(u64, Point)>,
}

/// The stories to believe, likeliest first: those whose board gives the
/// points the engine showed (a stone hidden under a `-1` can make a pass
/// and a capture show the same field), each board once. When none gives
/// those points, all of them.
pub(super) fn choose(stories: Vec<Story>, shown: Option<[f64; 2]>) -> Vec<Story> {
    let fits = |st: &Story| {
        let g = &st.game;
        let pts = g.rules().shown_points(g.board(), g.komi());
        shown.is_some_and(|s| (0..2).all(|k| (f64::from(pts[k]) - s[k]).abs() < 0.01))
    };
    let n = stories.len();
    let (mut kept, rest): (Vec<Story>, Vec<Story>) = stories.into_iter().partition(fits);
    if kept.is_empty() {
        if n > 1 {
            log::warn!("{n} moves explain the field and none gives the points shown");
        }
        kept = rest;
    }
    let mut seen = Vec::new();
    kept.retain(|st| {
        let key = (st.game.board().hash(), st.game.to_move());
        let new = !seen.contains(&key);
        seen.push(key);
        new
    });
    kept
}

/// The ways our board explains the field: no change (if the opponent is
/// to move, a pass) or one opponent stone with its captures, which may hide
/// under a `-1` mark if it captured. `stale` follows the game ([`carry`]).
/// `loosen`: the referee's version is not known yet, so a stone legal only
/// under 1.0.2 may be the story (its game then has 1.0.2's rules). With no
/// story, says why.
pub(super) fn follow(
    game: &Game,
    stale: &[bool],
    us: Color,
    seen: &Seen,
    marking: bool,
    loosen: bool,
) -> (Vec<Story>, String) {
    let board = game.board();
    let story = |game: Game, stale: Vec<bool>| Story {
        game,
        stale,
        refused: None,
    };
    if game.to_move() == us {
        return if seen.fits(board, stale, marking) {
            (vec![story(game.clone(), stale.to_vec())], String::new())
        } else {
            (Vec::new(), "the field changed while it was our turn".into())
        };
    }
    let mut stories = Vec::new();
    if seen.fits(board, stale, marking) {
        let mut next = game.clone();
        if next.play(Move::Pass).is_ok() {
            stories.push(story(next, stale.to_vec()));
        }
    }
    let them = us.opp();
    let ours = board.cells();
    let at = |i: usize| board.point(i % board.width(), i / board.width());
    let mut new: Vec<usize> = (0..ours.len())
        .filter(|&i| ours[i] == Cell::Empty && seen.cells[i] == them.stone())
        .collect();
    let mut why = format!("{} new {them} stones", new.len());
    if new.len() > 1 {
        return (stories, why);
    }
    if new.is_empty() {
        // a capture on a marked point shows no new stone: any marked point
        // where a stone of theirs captures may be it
        new = (0..ours.len())
            .filter(|&i| seen.marked[i] && ours[i] == Cell::Empty)
            .filter(|&i| board.captures_at(them, at(i)))
            .collect();
        why = format!("no new {them} stone, nor a capture under a mark");
    }
    for i in new {
        let p = at(i);
        let mut next = game.clone();
        let mut played = next.play(Move::Play(p));
        if played.is_err() && loosen && game.rules() == Rules::Riddles103 {
            next.set_rules(Rules::Riddles102);
            played = next.play(Move::Play(p));
        }
        match played {
            Err(e) => why = format!("the opponent's stone at {:?} is illegal: {e}", board.xy(p)),
            Ok(_) => {
                let marks = carry(stale, board, next.board(), Move::Play(p));
                let marking = marking && next.rules() == Rules::Riddles103;
                if seen.fits(next.board(), &marks, marking) {
                    log::debug!("the opponent played {:?}", board.xy(p));
                    stories.push(story(next, marks));
                } else {
                    why = "stones changed that the opponent's move does not explain".into();
                }
            }
        }
    }
    (stories, why)
}

/// The stories in which the referee refused our answer and the opponent
/// then moved: `before` is our game (and its stale marks) before that
/// answer, judged by the `rules` known now (the field may have just told
/// the version).
pub(super) fn refused(
    (mut game, stale, mv): (Game, Vec<bool>, Move),
    rules: Rules,
    us: Color,
    seen: &Seen,
    marking: bool,
    loosen: bool,
) -> Vec<Story> {
    let Some(p) = mv.point() else {
        return Vec::new();
    };
    if game.to_move() != us {
        return Vec::new();
    }
    game.set_rules(rules);
    let hash = game.board().hash();
    game.lose_turn();
    let (mut stories, _) = follow(&game, &stale, us, seen, marking, loosen);
    for st in &mut stories {
        st.refused = Some((hash, p));
    }
    stories
}

/// Takes the field as the position, keeping the history. A marked cell
/// keeps the stone our board has there, if any. Returns the stones left
/// under marks.
pub(super) fn resync(game: &mut Game, us: Color, seen: &Seen) -> Vec<bool> {
    let ours = game.board().cells();
    let kept = |i: usize| seen.marked[i] && ours.get(i).is_some_and(|c| c.is_stone());
    let cells: Vec<Cell> = (0..seen.cells.len())
        .map(|i| if kept(i) { ours[i] } else { seen.cells[i] })
        .collect();
    match Board::from_cells(seen.width, seen.height, &cells) {
        Ok(mut b) => {
            b.set_to_move(us);
            game.reset_position(b);
            (0..cells.len()).map(kept).collect()
        }
        Err(why) => {
            log::warn!("cannot take the field as a position: {why}");
            Vec::new()
        }
    }
}
