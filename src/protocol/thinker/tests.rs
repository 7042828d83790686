use super::*;
use crate::go::Board;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

struct Stub<F>(F);

impl<F: FnMut(&Game) -> Move> Think for Stub<F> {
    fn think(&mut self, game: &Game, _: Horizon, _: Budget) -> (Move, Stats) {
        ((self.0)(game), Stats::default())
    }
}

/// A thinker whose search is `f`; counts how many searchers it built.
fn thinker(
    f: impl Fn(&Game) -> Move + Send + Sync + Clone + 'static,
) -> (Thinker, Arc<AtomicUsize>) {
    let built = Arc::new(AtomicUsize::new(0));
    let b = built.clone();
    let t = Thinker::with(Arc::new(move || {
        b.fetch_add(1, Ordering::SeqCst);
        Box::new(Stub(f.clone())) as Box<dyn Think>
    }));
    (t, built)
}

const NO_LIMIT: Horizon = Horizon { moves_left: None };

fn choose(t: &mut Thinker, g: &Game, soft_ms: u64, hard_ms: u64) -> Move {
    let now = Instant::now();
    let soft = now + Duration::from_millis(soft_ms);
    let hard = now + Duration::from_millis(hard_ms);
    t.choose(g, NO_LIMIT, soft, hard, &[])
}

fn game() -> Game {
    Game::new(9, 9, 7.5)
}

#[test]
fn the_searchers_move_is_kept() {
    let (mut t, built) = thinker(|g| Move::Play(g.board().point(2, 6)));
    let g = game();
    assert_eq!(
        choose(&mut t, &g, 20, 200),
        Move::Play(g.board().point(2, 6))
    );
    assert_eq!(
        choose(&mut t, &g, 20, 200),
        Move::Play(g.board().point(2, 6))
    );
    assert_eq!(built.load(Ordering::SeqCst), 1);
}

#[test]
fn a_panic_is_answered_and_the_searcher_rebuilt() {
    let (mut t, built) = thinker(|_| panic!("deliberate test panic"));
    let g = game();
    for _ in 0..3 {
        let mv = choose(&mut t, &g, 20, 200);
        assert!(g.is_legal(mv) && !mv.is_pass());
    }
    assert_eq!(built.load(Ordering::SeqCst), 3);
}

#[test]
fn an_illegal_choice_is_replaced() {
    let mut b = Board::new(9, 9);
    b.play(Move::Play(b.point(4, 4))).unwrap();
    let g = Game::from_board(b, 7.5);
    let (mut t, _) = thinker(|g| Move::Play(g.board().point(4, 4)));
    let mv = choose(&mut t, &g, 20, 200);
    assert!(g.is_legal(mv) && !mv.is_pass());
}

#[test]
fn a_stuck_search_is_answered_over_by_the_hard_deadline() {
    let (mut t, _) = thinker(|_| {
        thread::sleep(Duration::from_secs(5));
        Move::Pass
    });
    let g = game();
    for _ in 0..5 {
        let asked = Instant::now();
        let mv = choose(&mut t, &g, 10, 60);
        // generous: only a missed deadline by seconds would fail
        assert!(asked.elapsed() < Duration::from_secs(2));
        assert!(g.is_legal(mv) && !mv.is_pass());
    }
    assert_eq!(t.abandoned, MAX_ABANDONED + 1);
}

#[test]
fn forced_moves_skip_the_search() {
    let (mut t, built) = thinker(|_| panic!("the search must not run"));
    // only the capture at the middle is legal
    let g = Game::from_board(Board::from_ascii("X . O").unwrap(), 7.5);
    assert_eq!(
        choose(&mut t, &g, 20, 200),
        Move::Play(g.board().point(1, 0))
    );
    // only our own eye is left (the other point is marked): pass
    let g = Game::from_board(Board::from_ascii(". X . X").unwrap(), 7.5);
    let soon = Instant::now() + Duration::from_millis(100);
    let marked = [g.board().point(2, 0)];
    assert_eq!(t.choose(&g, NO_LIMIT, soon, soon, &marked), Move::Pass);
    // nothing legal at all
    let g = Game::from_board(Board::from_ascii(". X").unwrap(), 7.5);
    assert_eq!(choose(&mut t, &g, 20, 200), Move::Pass);
    // no time at all: the fallback
    let mv = choose(&mut t, &game(), 0, 0);
    assert!(!mv.is_pass());
    assert_eq!(built.load(Ordering::SeqCst), 0);
}
