//! The stand-ins against the crates they stand in for.

use super::*;
use std::hash::{BuildHasher, Hash};

#[test]
fn xoshiro_gives_the_crates_numbers() {
    use rand_xoshiro::rand_core::{RngCore as _, SeedableRng as _};
    for seed in [0, 1, 2, 59, u64::MAX, 0x9e37_79b9_7f4a_7c15] {
        let mut lite = <Xoshiro256PlusPlus as SeedableRng>::seed_from_u64(seed);
        let mut real = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        for i in 0..1000 {
            if i % 3 == 0 {
                assert_eq!(
                    RngCore::next_u32(&mut lite),
                    real.next_u32(),
                    "seed {seed}, draw {i}"
                );
            } else {
                assert_eq!(
                    RngCore::next_u64(&mut lite),
                    real.next_u64(),
                    "seed {seed}, draw {i}"
                );
            }
        }
    }
}

fn both<T: Hash + ?Sized>(value: &T) -> (u64, u64) {
    let lite = BuildHasherDefault::<FxHasher>::default().hash_one(value);
    let real = fxhash::FxBuildHasher::default().hash_one(value);
    (lite, real)
}

#[test]
fn fxhasher_gives_the_crates_hashes() {
    let (l, r) = both(&0x1234_5678_9abc_def0u64);
    assert_eq!(l, r);
    assert_ne!(l, both(&0x1234_5678_9abc_def1u64).0, "the input matters");
    for n in 0..20usize {
        let bytes: Vec<u8> = (0..n as u8).map(|b| b.wrapping_mul(37)).collect();
        let (l, r) = both(&bytes[..]);
        assert_eq!(l, r, "{n} bytes");
    }
    let (l, r) = both(&(7u8, 300u16, 70_000u32, 1usize, -5i64, "text", [1u16, 2, 3]));
    assert_eq!(l, r);
}

#[test]
fn fxhashmap_holds_what_it_is_given() {
    let mut m: FxHashMap<u64, bool> = FxHashMap::default();
    let mut s: FxHashSet<u64> = FxHashSet::default();
    for k in 0..1000u64 {
        m.insert(k * 7919, k % 2 == 0);
        s.insert(k ^ 0xffff);
    }
    assert_eq!((m.len(), s.len()), (1000, 1000));
    assert_eq!(m.get(&(10 * 7919)), Some(&true));
    assert!(s.contains(&(3 ^ 0xffff)) && !s.contains(&0));
}

#[test]
fn arrayvec_behaves_as_the_crates() {
    let mut lite: ArrayVec<u16, 4> = ArrayVec::new();
    let mut real: arrayvec::ArrayVec<u16, 4> = arrayvec::ArrayVec::new();
    for x in [5, 9, 2, 7] {
        assert_eq!(lite.is_full(), real.is_full());
        lite.push(x);
        real.push(x);
        assert_eq!((&lite[..], lite.len()), (&real[..], real.len()));
        assert_eq!(lite.contains(&9), real.contains(&9));
    }
    assert!(lite.is_full() && real.is_full());
    assert_eq!(lite.capacity(), real.capacity());
    lite.sort_unstable();
    real.sort_unstable();
    assert_eq!(
        lite.iter().collect::<Vec<_>>(),
        (&real).into_iter().collect::<Vec<_>>()
    );
    assert_eq!(format!("{lite:?}"), format!("{real:?}"));
    let c: ArrayVec<u16, 4> = (1..4).collect();
    assert_eq!(&c[..], &[1, 2, 3]);
}

#[test]
#[should_panic(expected = "capacity")]
fn arrayvec_push_past_capacity_panics() {
    let mut v: ArrayVec<u8, 1> = ArrayVec::new();
    v.push(1);
    v.push(2);
}

#[test]
fn log_macros_take_format_arguments() {
    let n = 3;
    super::log::error!("an error, {n} of them");
    super::log::warn!("a warning: {}", n + 1);
    super::log::info!("dropped {n:>4}");
}
