use super::*;
use crate::go::Board;
use crate::protocol::deadline::MAX_STRAGGLERS;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

struct Stub<F>(F);

impl<F: FnMut(&Game) -> Move> Think for Stub<F> {
    fn think(&mut self, game: &Game, _: Horizon, _: Budget, _: &[Point]) -> (Move, Stats) {
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

/// Deadlines `soft_ms` and `hard_ms` from now. Where the search is meant
/// to answer, the hard deadline is seconds away: a stopped host must not
/// turn the answer into the fallback.
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
        choose(&mut t, &g, 1000, 5000),
        Move::Play(g.board().point(2, 6))
    );
    assert_eq!(
        choose(&mut t, &g, 1000, 5000),
        Move::Play(g.board().point(2, 6))
    );
    assert_eq!(built.load(Ordering::SeqCst), 1);
}

#[test]
fn a_panic_is_answered_and_the_searcher_rebuilt() {
    let (mut t, built) = thinker(|_| panic!("deliberate test panic"));
    let g = game();
    for _ in 0..3 {
        let mv = choose(&mut t, &g, 1000, 5000);
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
    let mv = choose(&mut t, &g, 1000, 5000);
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
        // 500 ms: the thread starts by then on a busy host (a job found
        // past its deadline is skipped and makes no straggler)
        let mv = choose(&mut t, &g, 10, 500);
        // generous: only a missed deadline by seconds would fail
        assert!(asked.elapsed() < Duration::from_secs(2));
        assert!(g.is_legal(mv) && !mv.is_pass());
    }
    assert_eq!(t.search.stragglers(), MAX_STRAGGLERS + 1);
}

/// Searches stalled past their turn (as when the host stops the process)
/// are answered with the fallback; once they end, the next turn searches
/// again: a stall costs moves, never the rest of the game.
#[test]
fn searching_resumes_once_stalled_searches_end() {
    let stalled = Arc::new(AtomicBool::new(true));
    let s = stalled.clone();
    let (mut t, _) = thinker(move |g| {
        while s.load(Ordering::SeqCst) {
            thread::sleep(Duration::from_millis(1));
        }
        Move::Play(g.board().point(2, 6))
    });
    let g = game();
    let searched = Move::Play(g.board().point(2, 6));
    // a hard deadline the thread surely starts by (a job found past it is
    // skipped, and would make no straggler), on however busy a host
    for _ in 0..MAX_STRAGGLERS + 3 {
        let mv = choose(&mut t, &g, 10, 1000);
        assert!(mv != searched && g.is_legal(mv));
    }
    assert_eq!(t.search.stragglers(), MAX_STRAGGLERS + 1);
    stalled.store(false, Ordering::SeqCst);
    // the stalled threads finish as soon as they run: within tries, with a
    // generous deadline each, the search answers again
    let resumed = (0..200).any(|_| {
        let mv = choose(&mut t, &g, 1000, 2000);
        mv == searched || {
            thread::sleep(Duration::from_millis(10));
            false
        }
    });
    assert!(resumed, "the search never came back");
}

#[test]
fn forced_moves_skip_the_search() {
    let (mut t, built) = thinker(|_| panic!("the search must not run"));
    // only the capture at the middle is legal
    let g = Game::from_board(Board::from_ascii("X . O").unwrap(), 7.5);
    assert_eq!(
        choose(&mut t, &g, 1000, 5000),
        Move::Play(g.board().point(1, 0))
    );
    // only our own eye is left (the other point is marked): pass
    let g = Game::from_board(Board::from_ascii(". X . X").unwrap(), 7.5);
    let soon = Instant::now() + Duration::from_millis(100);
    let marked = [g.board().point(2, 0)];
    assert_eq!(t.choose(&g, NO_LIMIT, soon, soon, &marked), Move::Pass);
    // nothing legal at all
    let g = Game::from_board(Board::from_ascii(". X").unwrap(), 7.5);
    assert_eq!(choose(&mut t, &g, 1000, 5000), Move::Pass);
    // no time at all: the fallback
    let mv = choose(&mut t, &game(), 0, 0);
    assert!(!mv.is_pass());
    assert_eq!(built.load(Ordering::SeqCst), 0);
}

/// Plays (2, 6); ponders until told to stop, counting how often.
struct Ponderer(Arc<AtomicUsize>);

impl Think for Ponderer {
    fn think(&mut self, game: &Game, _: Horizon, _: Budget, _: &[Point]) -> (Move, Stats) {
        (Move::Play(game.board().point(2, 6)), Stats::default())
    }

    fn ponder(&mut self, _: &Game, _: Horizon, _: Budget, stop: &AtomicBool) {
        while !stop.load(Ordering::Relaxed) {
            thread::sleep(Duration::from_millis(1));
        }
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn ponderer(on: bool) -> (Thinker, Arc<AtomicUsize>, Arc<AtomicUsize>) {
    let (pondered, built) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (p, b) = (pondered.clone(), built.clone());
    let mut t = Thinker::with(Arc::new(move || {
        b.fetch_add(1, Ordering::SeqCst);
        Box::new(Ponderer(p.clone())) as Box<dyn Think>
    }));
    t.set_pondering(on);
    (t, pondered, built)
}

#[test]
fn pondering_runs_until_the_next_request_and_keeps_the_searcher() {
    let (mut t, pondered, built) = ponderer(true);
    let g = game();
    let ours = Move::Play(g.board().point(2, 6));
    for round in 1..=3 {
        assert_eq!(choose(&mut t, &g, 1000, 5000), ours);
        t.ponder(&g, NO_LIMIT);
        thread::sleep(Duration::from_millis(30));
        // still pondering: nothing has stopped it
        assert_eq!(pondered.load(Ordering::SeqCst), round - 1);
    }
    // the request stops it and is answered by the search, not the fallback
    assert_eq!(choose(&mut t, &g, 1000, 5000), ours);
    assert_eq!(pondered.load(Ordering::SeqCst), 3);
    assert_eq!(built.load(Ordering::SeqCst), 1);
    assert_eq!(t.search.stragglers(), 0);
}

#[test]
fn without_pondering_nothing_runs_between_requests() {
    let (mut t, pondered, _) = ponderer(false);
    let g = game();
    choose(&mut t, &g, 1000, 5000);
    t.ponder(&g, NO_LIMIT);
    thread::sleep(Duration::from_millis(30));
    t.stop_pondering();
    choose(&mut t, &g, 1000, 5000);
    assert_eq!(pondered.load(Ordering::SeqCst), 0);
}

/// A search that comes back past the hard deadline widens the margin the
/// plans keep; quick answers narrow it again. Deadlines are chosen so that
/// no host, however slow, changes what is asserted: the late search sleeps
/// far past its hard deadline, the quick ones have seconds to spare.
#[test]
fn a_late_search_widens_the_margin_and_quick_answers_narrow_it() {
    let late = Arc::new(AtomicBool::new(true));
    let l = late.clone();
    let (mut t, _) = thinker(move |g| {
        if l.swap(false, Ordering::SeqCst) {
            thread::sleep(Duration::from_millis(300));
        }
        Move::Play(g.board().point(2, 6))
    });
    let g = game();
    assert_eq!(t.slack(), Duration::ZERO);
    choose(&mut t, &g, 10, 60);
    let widened = t.slack();
    assert!(widened >= time::GRACE, "{widened:?}");
    for _ in 0..40 {
        choose(&mut t, &g, 5_000, 10_000);
    }
    assert!(t.slack() < Lateness::NOISE, "{:?}", t.slack());
}
