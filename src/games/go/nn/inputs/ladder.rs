//! KataGo's ladder reading: `Board::searchIsLadderCaptured` and
//! `Board::searchIsLadderCapturedAttackerFirst2Libs` (`cpp/game/board.cpp`)
//! and `iterLadders` (`cpp/neuralnet/nninputs.cpp`), ported step for step
//! so that the ladder planes (14 - 17) are the ones KataGo's net was
//! trained on, including where its heuristics cut the reading short (a
//! ko left by the attacker saves the defender, a double ko mouth kills
//! it, 25 000 moves give up, a deep stack counts as captured).

use super::chains::{Chains, Record};

/// KataGo's `MAX_LADDER_SEARCH_NODE_BUDGET`: moves played per search.
const BUDGET: usize = 25_000;

/// The search's stack and move lists, kept between searches.
#[derive(Default)]
pub(super) struct Search {
    buf: Vec<u16>,
    starts: Vec<usize>,
    lens: Vec<usize>,
    cur: Vec<i32>,
    records: Vec<Record>,
}

impl Search {
    fn reserve(&mut self, stack: usize) {
        if self.cur.len() < stack {
            self.starts.resize(stack, 0);
            self.lens.resize(stack, 0);
            self.cur.resize(stack, 0);
            self.records.resize(stack, Record::default());
        }
    }
}

/// `searchIsLadderCaptured`: whether the chain at `loc` (1 liberty, or 2
/// with the attacker to move when `!defender_first`) is captured in a
/// ladder. The board comes back as it was, but for a search that ran out
/// of budget: that one leaves no ko point, as KataGo's does.
pub(super) fn is_captured(
    b: &mut Chains,
    loc: usize,
    defender_first: bool,
    s: &mut Search,
) -> bool {
    let pla = b.color(loc);
    if pla != 1 && pla != 2 {
        return false;
    }
    let libs = b.num_libs(loc);
    if libs > 2 || (defender_first && libs > 1) {
        return false;
    }
    let opp = 3 - pla;
    // all kos work for the defender at the root
    let ko_saved = b.ko;
    if defender_first {
        b.ko = 0;
    }
    let stack_size = b.width * b.height * 3 / 2 + 1;
    s.reserve(stack_size);
    let mut idx: isize = 0;
    let mut nodes = 0;
    s.cur[0] = -1;
    s.starts[0] = 0;
    s.lens[0] = 0;
    let mut ret = false;
    let mut from_deeper = false;
    loop {
        if idx < 0 {
            b.ko = ko_saved;
            return ret;
        }
        let i = idx as usize;
        if i >= stack_size - 1 {
            // too deep: counted as captured
            ret = true;
            from_deeper = true;
            idx -= 1;
            continue;
        }
        if nodes >= BUDGET {
            for k in (0..i).rev() {
                b.undo(s.records[k]);
            }
            return false;
        }
        let is_def = i.is_multiple_of(2) == defender_first;
        if s.cur[i] == -1 {
            let libs = b.num_libs(loc);
            // the base cases; a ko left for the defender counts as an escape
            let settled = match is_def {
                false if libs <= 1 => Some(true),
                false if libs >= 3 => Some(false),
                true if libs >= 2 || b.ko != 0 => Some(false),
                _ => None,
            };
            if let Some(r) = settled {
                ret = r;
                from_deeper = true;
                idx -= 1;
                continue;
            }
            let start = s.starts[i];
            let len = if is_def {
                defender_moves(b, loc, pla, start, &mut s.buf)
            } else {
                attacker_moves(b, loc, pla, start, &mut s.buf)
            };
            let Ok(len) = len else {
                ret = len.unwrap_err();
                from_deeper = true;
                idx -= 1;
                continue;
            };
            s.lens[i] = len;
            s.cur[i] = 0;
        } else {
            if from_deeper {
                b.undo(s.records[i]);
            }
            // the side to move found its answer
            if is_def != ret {
                from_deeper = true;
                idx -= 1;
                continue;
            }
            s.cur[i] += 1;
        }
        if s.cur[i] as usize >= s.lens[i] {
            // no move left: the defender is caught, the attacker failed
            ret = is_def;
            from_deeper = true;
            idx -= 1;
            continue;
        }
        let mv = s.buf[s.starts[i] + s.cur[i] as usize] as usize;
        let p = if is_def { pla } else { opp };
        if !b.is_legal(mv, p) {
            // as a failed move, and on to the next at this level
            ret = is_def;
            from_deeper = false;
            continue;
        }
        s.records[i] = b.play_recorded(mv, p);
        nodes += 1;
        idx += 1;
        s.cur[i + 1] = -1;
        s.starts[i + 1] = s.starts[i] + s.lens[i];
        s.lens[i + 1] = 0;
    }
}

/// The defender's moves (captures that gain liberties, then its liberty)
/// written from `start`, or the answer when the bounds settle it.
fn defender_moves(
    b: &Chains,
    loc: usize,
    pla: u8,
    start: usize,
    buf: &mut Vec<u16>,
) -> Result<usize, bool> {
    let mut len = b.find_captures(loc, buf, start, start);
    len += b.find_liberties(loc, buf, start, start + len);
    let (lower, upper) = b.bound_libs_after(buf[start + len - 1] as usize, pla);
    if lower >= 3 {
        return Err(false);
    }
    if len == 1 && upper <= 1 {
        return Err(true);
    }
    Ok(len)
}

/// The attacker's moves (the defender's two liberties, best first) written
/// from `start`, or the answer when the shape settles it.
fn attacker_moves(
    b: &Chains,
    loc: usize,
    pla: u8,
    start: usize,
    buf: &mut Vec<u16>,
) -> Result<usize, bool> {
    let opp = 3 - pla;
    let mut len = b.find_liberties(loc, buf, start, start);
    debug_assert_eq!(len, 2);
    let (m0, m1) = (buf[start] as usize, buf[start + 1] as usize);
    let (mut l0, mut l1) = (b.immediate_libs(m0), b.immediate_libs(m1));
    // a double ko mouth the defender cannot fill to escape: captured
    if l0 == 0
        && l1 == 0
        && b.would_be_ko_capture(m0, opp)
        && b.would_be_ko_capture(m1, opp)
        && b.libs_after(m0, pla, 3) <= 2
        && b.libs_after(m1, pla, 3) <= 2
        && !b.has_captures(loc)
    {
        return Err(true);
    }
    // apart, a liberty with 3 empty neighbours must be taken first
    let adjacent = b.adj.iter().any(|&d| m0 as isize == m1 as isize + d);
    if !adjacent {
        if l0 >= 3 && l1 >= 3 {
            return Err(false);
        } else if l0 >= 3 {
            len = 1;
        } else if l1 >= 3 {
            buf[start] = buf[start + 1];
            len = 1;
        }
    }
    if len > 1 {
        l0 = l0 * 2 + b.conn_libs_x2(m0, pla);
        l1 = l1 * 2 + b.conn_libs_x2(m1, pla);
        if l1 > l0 {
            buf.swap(start, start + 1);
        }
    }
    Ok(len)
}

/// `searchIsLadderCapturedAttackerFirst2Libs`: whether the attacker,
/// moving first, captures the two-liberty chain at `loc` in a ladder;
/// `working` gets the attacker's first moves that do.
pub(super) fn is_captured_2libs(
    b: &mut Chains,
    loc: usize,
    s: &mut Search,
    working: &mut Vec<u16>,
) -> bool {
    let pla = b.color(loc);
    if (pla != 1 && pla != 2) || b.num_libs(loc) != 2 {
        return false;
    }
    let opp = 3 - pla;
    if s.buf.len() < 2 {
        s.buf.resize(64, 0);
    }
    b.find_liberties(loc, &mut s.buf, 0, 0);
    let moves = [s.buf[0] as usize, s.buf[1] as usize];
    let mut works = [false; 2];
    for (k, &m) in moves.iter().enumerate() {
        if b.is_legal(m, opp) {
            let rec = b.play_recorded(m, opp);
            works[k] = is_captured(b, loc, true, s);
            b.undo(rec);
        }
    }
    if !works[0] && !works[1] {
        return false;
    }
    working.clear();
    for k in 0..2 {
        if works[k] {
            working.push(moves[k] as u16);
        }
    }
    true
}

/// `iterLadders`: calls `f(loc, working)` for each stone of each laddered
/// chain of 1 or 2 liberties, row by row; `working` holds the attacker's
/// working first moves at the first stone of a 2-liberty chain (and, as in
/// KataGo, whatever was there before at a 1-liberty chain, which callers
/// ignore).
pub(super) fn iter_ladders(board: &Chains, s: &mut Search, mut f: impl FnMut(usize, &[u16])) {
    let mut copy = board.clone();
    let mut solved: Vec<(usize, bool)> = Vec::new();
    let mut working: Vec<u16> = Vec::new();
    for y in 0..board.height {
        for x in 0..board.width {
            let loc = board.loc(x, y);
            let stone = board.color(loc);
            if stone != 1 && stone != 2 {
                continue;
            }
            let libs = board.num_libs(loc);
            if libs != 1 && libs != 2 {
                continue;
            }
            let head = board.head_of(loc);
            if let Some(&(_, laddered)) = solved.iter().find(|&&(h, _)| h == head) {
                if laddered {
                    working.clear();
                    f(loc, &working);
                }
                continue;
            }
            // searched on a copy, whose chain lists the search reorders
            let laddered = if libs == 1 {
                is_captured(&mut copy, loc, true, s)
            } else {
                working.clear();
                is_captured_2libs(&mut copy, loc, s, &mut working)
            };
            solved.push((head, laddered));
            if laddered {
                f(loc, &working);
            }
        }
    }
}
