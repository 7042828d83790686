//! KataGo's area for the net's inputs (planes 18 and 19): `Board::
//! calculateArea` of `cpp/game/board.cpp` with non-pass-alive stones, safe
//! and unsafe big territories all counted and suicide illegal. At its
//! core is Benson's algorithm: the chains of a colour that stay alive
//! whatever the opponent plays while their owner passes, and the regions
//! they enclose; then regions of empty points bordered by one colour
//! only, then the remaining stones as they stand.
//!
//! Ported step for step: which regions are vital to which chains, how a
//! region with opponent stones is judged, and the order in which one
//! colour's marks overwrite the other's decide the planes.

use super::chains::{ix, Chains, EMPTY};
use crate::go::{MAX_POINTS, MAX_SIZE};

const N: usize = MAX_POINTS;
/// Most regions the largest board can hold (KataGo's `maxRegions`).
const MAX_REGIONS: usize = (MAX_SIZE * MAX_SIZE).div_ceil(2) + 1;

/// The owner of each location (0 none, 1 black, 2 white), indexed by
/// location.
pub(super) fn area(b: &Chains, result: &mut [u8; N]) {
    result.fill(EMPTY);
    area_for(b, 1, result);
    area_for(b, 2, result);
    for y in 0..b.height {
        for x in 0..b.width {
            let loc = b.loc(x, y);
            if result[loc] == EMPTY {
                result[loc] = b.color(loc);
            }
        }
    }
}

/// The regions of empty points and `opp` stones, with what Benson's
/// algorithm asks of them.
struct Regions {
    count: usize,
    /// Region index by location, -1 for none.
    of: [i16; N],
    /// Each region's points as a circular list through this array.
    next: [u16; N],
    head: [u16; MAX_REGIONS],
    /// The chains each region is vital for (all its empty points touch
    /// them): `vital[start[r]..start[r] + len[r]]`.
    vital: [u16; MAX_REGIONS * 4],
    start: [u16; MAX_REGIONS],
    len: [u16; MAX_REGIONS],
    /// Points not touching `pla`, counted up to 2.
    internal: [u8; MAX_REGIONS],
    has_opp: [bool; MAX_REGIONS],
    borders_dead: [bool; MAX_REGIONS],
}

/// `calculateAreaForPla`: marks `pla`'s pass-alive chains and territory.
fn area_for(b: &Chains, pla: u8, result: &mut [u8; N]) {
    let mut r = Regions {
        count: 0,
        of: [-1; N],
        next: [0; N],
        head: [0; MAX_REGIONS],
        vital: [0; MAX_REGIONS * 4],
        start: [0; MAX_REGIONS],
        len: [0; MAX_REGIONS],
        internal: [0; MAX_REGIONS],
        has_opp: [false; MAX_REGIONS],
        borders_dead: [false; MAX_REGIONS],
    };
    let mut queue = [0u16; N];
    let mut total = 0;
    let mut some_pla = false;
    for y in 0..b.height {
        for x in 0..b.width {
            let loc = b.loc(x, y);
            if r.of[loc] != -1 {
                continue;
            }
            if b.color(loc) != EMPTY {
                some_pla |= b.color(loc) == pla;
                continue;
            }
            let k = r.count;
            r.count += 1;
            r.head[k] = loc as u16;
            r.start[k] = total as u16;
            // every chain around the first point, filtered as the region grows
            let mut n = 0;
            for i in 0..4 {
                let a = b.nb(loc, i);
                let h = b.head_of(a) as u16;
                if b.color(a) == pla && !r.vital[total..total + n].contains(&h) {
                    r.vital[total + n] = h;
                    n += 1;
                }
            }
            r.len[k] = n as u16;
            let tail = build_region(b, pla, &mut r, &mut queue, loc, k);
            r.next[loc] = tail;
            total += r.len[k] as usize;
        }
    }
    // in increasing location order, as KataGo's scan of all locations
    let mut heads = [0u16; N];
    let mut n_heads = 0;
    for y in 0..b.height {
        for x in 0..b.width {
            let loc = b.loc(x, y);
            if b.color(loc) == pla && b.head_of(loc) == loc {
                heads[n_heads] = loc as u16;
                n_heads += 1;
            }
        }
    }
    let heads = &heads[..n_heads];
    let mut vital_count = [0u16; N];
    for k in 0..r.count {
        let s = r.start[k] as usize;
        for &h in &r.vital[s..s + r.len[k] as usize] {
            vital_count[h as usize] += 1;
        }
    }
    // Benson: a chain with fewer than 2 vital regions dies, and the
    // regions it borders are vital to no one any more
    let mut killed = [false; N];
    loop {
        let mut any = false;
        for (i, &h) in heads.iter().enumerate() {
            let h = h as usize;
            if killed[i] || vital_count[h] >= 2 {
                continue;
            }
            killed[i] = true;
            any = true;
            let mut cur = h;
            loop {
                for d in 0..4 {
                    let a = b.nb(cur, d);
                    let k = r.of[ix(a)];
                    if k >= 0 && !r.borders_dead[k as usize] {
                        let k = k as usize;
                        r.borders_dead[k] = true;
                        let s = r.start[k] as usize;
                        for &v in &r.vital[s..s + r.len[k] as usize] {
                            vital_count[v as usize] -= 1;
                        }
                    }
                }
                cur = b.next_of(cur);
                if cur == h {
                    break;
                }
            }
        }
        if !any {
            break;
        }
    }
    for (i, &h) in heads.iter().enumerate() {
        let h = h as usize;
        if !killed[i] {
            let mut cur = h;
            loop {
                result[cur] = pla;
                cur = b.next_of(cur);
                if cur == h {
                    break;
                }
            }
        }
    }
    for k in 0..r.count {
        let head = r.head[k] as usize;
        let alive = !r.borders_dead[k] && some_pla;
        // pass-alive territory, and big regions bordered by pass-alive
        // stones only, overwrite the opponent's marks
        let mark = alive && (r.internal[k] <= 1 || !r.has_opp[k]);
        let mark_empty = !r.has_opp[k] && some_pla;
        if mark || mark_empty {
            let mut cur = head;
            loop {
                if mark || result[cur] == EMPTY {
                    result[cur] = pla;
                }
                cur = r.next[cur] as usize;
                if cur == head {
                    break;
                }
            }
        }
    }
}

/// KataGo's `buildRegion`: floods region `k` from `first` breadth first,
/// filtering its vital chains at each empty point (suicide illegal: the
/// opponent's stones do not filter), counting internal points, and
/// linking the points. Returns the last point linked.
fn build_region(
    b: &Chains,
    pla: u8,
    r: &mut Regions,
    queue: &mut [u16; N],
    first: usize,
    k: usize,
) -> u16 {
    let opp = 3 - pla;
    let mut tail = first as u16;
    let (mut qh, mut qt) = (0, 1);
    queue[0] = first as u16;
    r.of[first] = k as i16;
    let s = r.start[k] as usize;
    while qh != qt {
        let loc = queue[qh] as usize;
        qh += 1;
        if r.len[k] > 0 && b.color(loc) == EMPTY {
            let mut kept = 0;
            for i in 0..r.len[k] as usize {
                let h = r.vital[s + i] as usize;
                if (0..4).any(|d| {
                    let a = b.nb(loc, d);
                    b.color(a) == pla && b.head_of(a) == h
                }) {
                    r.vital[s + kept] = h as u16;
                    kept += 1;
                }
            }
            r.len[k] = kept as u16;
        }
        if r.internal[k] < 2 && !(0..4).any(|d| b.color(b.nb(loc, d)) == pla) {
            r.internal[k] += 1;
        }
        if b.color(loc) == opp {
            r.has_opp[k] = true;
        }
        r.next[loc] = tail;
        tail = loc as u16;
        for d in 0..4 {
            let a = b.nb(loc, d);
            let c = b.color(a);
            if (c == EMPTY || c == opp) && r.of[ix(a)] == -1 {
                queue[qt] = a as u16;
                qt += 1;
                r.of[ix(a)] = k as i16;
            }
        }
    }
    tail
}
