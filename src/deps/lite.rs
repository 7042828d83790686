//! The part of the facade's crates that the CodinGame files use, in std
//! alone and a few kilobytes: CodinGame takes one source file of at most
//! 100 000 characters, which the crates' own sources would fill. `tools/
//! bundle.py single` puts this module in place of [`crate::deps`]; the
//! tests below hold it to the real crates, value for value.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::mem::MaybeUninit;
use std::ops::{Deref, DerefMut};

/// `arrayvec::ArrayVec` for `Copy` items: a vector of at most `N` items
/// that lives inline.
#[derive(Clone, Copy)]
pub struct ArrayVec<T: Copy, const N: usize> {
    items: [MaybeUninit<T>; N],
    len: usize,
}

impl<T: Copy, const N: usize> ArrayVec<T, N> {
    pub fn new() -> Self {
        ArrayVec {
            items: [MaybeUninit::uninit(); N],
            len: 0,
        }
    }
    /// Panics when full, as `arrayvec` does.
    pub fn push(&mut self, item: T) {
        assert!(self.len < N, "ArrayVec::push: capacity exceeded");
        self.items[self.len] = MaybeUninit::new(item);
        self.len += 1;
    }
    pub fn is_full(&self) -> bool {
        self.len == N
    }
    pub fn capacity(&self) -> usize {
        N
    }
}

impl<T: Copy, const N: usize> Default for ArrayVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy, const N: usize> Deref for ArrayVec<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: the first `len` items were written by `push`
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast(), self.len) }
    }
}

impl<T: Copy, const N: usize> DerefMut for ArrayVec<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as for `deref`
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast(), self.len) }
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a ArrayVec<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy, const N: usize> FromIterator<T> for ArrayVec<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v = ArrayVec::new();
        for item in iter {
            v.push(item);
        }
        v
    }
}

impl<T: Copy + std::fmt::Debug, const N: usize> std::fmt::Debug for ArrayVec<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// fxhash's `FxHasher` as it hashes on a 64-bit target: each word
/// rotated in, xored, multiplied.
#[derive(Clone, Copy, Default)]
pub struct FxHasher {
    hash: u64,
}

impl FxHasher {
    #[inline]
    fn word(&mut self, w: u64) {
        self.hash = (self.hash.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, mut bytes: &[u8]) {
        while bytes.len() >= 8 {
            self.word(u64::from_ne_bytes(bytes[..8].try_into().unwrap()));
            bytes = &bytes[8..];
        }
        if bytes.len() >= 4 {
            self.word(u32::from_ne_bytes(bytes[..4].try_into().unwrap()) as u64);
            bytes = &bytes[4..];
        }
        for &b in bytes {
            self.word(b as u64);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.word(i as u64);
    }
    fn write_u16(&mut self, i: u16) {
        self.word(i as u64);
    }
    fn write_u32(&mut self, i: u32) {
        self.word(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.word(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.word(i as u64);
    }
    fn finish(&self) -> u64 {
        self.hash
    }
}

pub type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
pub type FxHashSet<V> = HashSet<V, BuildHasherDefault<FxHasher>>;

/// `rand_core`'s two traits, with the methods tengen calls.
pub trait RngCore {
    fn next_u32(&mut self) -> u32;
    fn next_u64(&mut self) -> u64;
}

pub trait SeedableRng: Sized {
    fn seed_from_u64(seed: u64) -> Self;
}

/// rand_xoshiro's `Xoshiro256PlusPlus`, seeded as it is: four outputs of
/// SplitMix64 from the seed.
#[derive(Clone, Debug)]
pub struct Xoshiro256PlusPlus {
    s: [u64; 4],
}

impl SeedableRng for Xoshiro256PlusPlus {
    fn seed_from_u64(seed: u64) -> Self {
        let mut x = seed;
        let mut s = [0u64; 4];
        for word in &mut s {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            *word = z ^ (z >> 31);
        }
        if s == [0; 4] {
            return Self::seed_from_u64(0);
        }
        Xoshiro256PlusPlus { s }
    }
}

impl RngCore for Xoshiro256PlusPlus {
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let out = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        out
    }
}

/// The `log` macros the CodinGame bots use: errors and warnings to stderr
/// as `env_logger` writes them at its default level; the rest is dropped
/// (its arguments still checked).
pub mod log {
    macro_rules! error_ {
        ($($arg:tt)+) => {
            eprintln!("[ERROR {}] {}", module_path!(), format_args!($($arg)+))
        };
    }
    macro_rules! warn_ {
        ($($arg:tt)+) => {
            eprintln!("[WARN  {}] {}", module_path!(), format_args!($($arg)+))
        };
    }
    macro_rules! info_ {
        ($($arg:tt)+) => {
            if false {
                let _ = format_args!($($arg)+);
            }
        };
    }
    // named apart: a macro named `warn` cannot be imported (the attribute)
    #[allow(unused_imports)]
    pub(crate) use {error_ as error, info_ as info, warn_ as warn};
}

#[cfg(test)]
mod tests;
