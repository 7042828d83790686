use super::*;
use std::sync::atomic::AtomicUsize;

/// Doubles its job; 0 panics, 1 answers after 300 ms; counts the
/// searchers built.
fn doubler() -> (Deadline<u32>, Arc<AtomicUsize>) {
    let built = Arc::new(AtomicUsize::new(0));
    let b = built.clone();
    let d = Deadline::new(
        Arc::new(move || {
            b.fetch_add(1, Ordering::SeqCst);
            0u32
        }),
        None,
    );
    (d, built)
}

fn job(n: u32) -> impl FnOnce(&mut u32) -> u32 + Send + 'static {
    move |asked: &mut u32| {
        *asked += 1;
        match n {
            0 => panic!("asked to panic"),
            1 => {
                thread::sleep(Duration::from_millis(300));
                1
            }
            n => n * 2,
        }
    }
}

fn soon() -> Instant {
    Instant::now() + Duration::from_secs(30)
}

#[test]
fn answers_and_survives_panics_and_late_answers() {
    let (mut d, built) = doubler();
    assert_eq!(d.ask(job(21), soon()), Ok(42));
    // the searcher is kept from job to job
    assert_eq!(d.ask(|s: &mut u32| *s, soon()), Ok(1));
    // a panic: no answer, and the next job gets a fresh searcher
    assert!(matches!(d.ask(job(0), soon()), Err(Missed::Panicked(_))));
    assert_eq!(d.ask(job(5), soon()), Ok(10));
    assert_eq!(built.load(Ordering::SeqCst), 2);
    // too late: no answer; its answer, when it comes, is not taken for
    // the next job's
    assert_eq!(d.ask(job(1), Instant::now()), Err(Missed::Late));
    assert_eq!(d.ask(job(7), soon()), Ok(14));
}

#[test]
fn stragglers_are_bounded_and_searching_resumes_when_they_end() {
    let (mut d, _) = doubler();
    let hold = Arc::new(AtomicBool::new(true));
    let stuck = |hold: Arc<AtomicBool>| {
        move |_: &mut u32| {
            while hold.load(Ordering::SeqCst) {
                thread::sleep(Duration::from_millis(5));
            }
            0u32
        }
    };
    for _ in 0..=MAX_STRAGGLERS {
        let late = d.ask(
            stuck(hold.clone()),
            Instant::now() + Duration::from_millis(30),
        );
        assert_eq!(late, Err(Missed::Late));
    }
    // the last stuck thread is the current one; the others straggle, and
    // one more makes too many
    let refused = d.ask(job(3), soon());
    assert!(matches!(refused, Err(Missed::NoSearch(_))), "{refused:?}");
    hold.store(false, Ordering::SeqCst);
    thread::sleep(Duration::from_millis(100));
    assert_eq!(d.ask(job(4), soon()), Ok(8));
}

#[test]
fn the_background_job_stops_for_the_next_and_keeps_the_searcher() {
    let (mut d, built) = doubler();
    let ran = Arc::new(AtomicUsize::new(0));
    let r = ran.clone();
    d.background(move |s: &mut u32, stop: &AtomicBool| {
        r.fetch_add(1, Ordering::SeqCst);
        *s += 100;
        while !stop.load(Ordering::Relaxed) {
            thread::sleep(Duration::from_millis(1));
        }
    });
    thread::sleep(Duration::from_millis(50));
    assert_eq!(ran.load(Ordering::SeqCst), 1);
    assert_eq!(d.ask(|s: &mut u32| *s, soon()), Ok(100));
    assert_eq!(built.load(Ordering::SeqCst), 1);
}
