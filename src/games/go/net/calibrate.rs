//! What the 8-bit paths know of the activations: each layer's channels'
//! ranges, the value a fraction [`RARE`] of a channel's outputs pass on
//! many 19x19 positions of training games (none held out). `tengen bench
//! --net --calibrate FILE` measures them and prints them as
//! `calibration.txt` holds them, with a fingerprint of the network they
//! were measured on; `int8.rs` turns them into steps, and handles the
//! outputs past a range apart, exactly.
//!
//! Measured on 2 000 held-out positions (`bench --net --agree`): ranges
//! from 16 positions, one step a layer (the old way), clipped held-out
//! activations and agreed on 98.65 % of top moves; clipping the rare
//! large outputs costs more agreement than coarse steps do, so a range
//! may not clip: what passes it goes by the float weights.

use super::{planes, Net};
use crate::deps::log;
use crate::go::{Board, Move, Point};
use crate::search::rng::Rng;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The fraction of a channel's outputs past its codes: handled apart,
/// exactly (`int8.rs`), they cost little, and the codes' steps shrink to
/// what the common values need.
pub const RARE: f64 = 1e-3;

/// The table built for the shipped network (`bench --net --calibrate`).
const BUILTIN: &str = include_str!("calibration.txt");

/// Each layer's channels' ranges (every layer but the last).
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    pub most: Vec<Vec<f32>>,
}

impl Calibration {
    /// Each channel's range on `positions` (planes of 19x19 boards): the
    /// least value that a fraction [`RARE`] of its outputs pass.
    pub fn measure(net: &Net, positions: &[Vec<u8>]) -> Calibration {
        let last = net.layers.len() - 1;
        let keep = 1 + (RARE * (positions.len() * 361) as f64) as usize;
        // each channel's `keep` largest outputs (positive floats order as
        // their bits)
        let mut tops: Vec<Vec<BinaryHeap<Reverse<u32>>>> = net.layers[..last]
            .iter()
            .map(|l| vec![BinaryHeap::new(); l.cout])
            .collect();
        for planes in positions {
            net.observe(planes, 19, 19, &mut |l, g, out| {
                let Some(tops) = tops.get_mut(l) else { return };
                for y in 0..g.h {
                    for x in 0..g.w {
                        let at = ((y + g.pad) * g.stride + x + g.pad) * g.c;
                        for (top, &v) in tops.iter_mut().zip(&out[at..]) {
                            let v = Reverse(v.to_bits());
                            if v.0 == 0 || v.0 >> 31 != 0 {
                                continue;
                            }
                            if top.len() < keep {
                                top.push(v);
                            } else if top.peek().is_some_and(|least| v < *least) {
                                top.pop();
                                top.push(v);
                            }
                        }
                    }
                }
            });
        }
        let most = tops
            .iter()
            .map(|layer| {
                let least = |t: &BinaryHeap<Reverse<u32>>| t.peek().map_or(0, |r| r.0);
                layer.iter().map(|t| f32::from_bits(least(t))).collect()
            })
            .collect();
        Calibration { most }
    }

    /// The table for `net`: the built-in one if it was measured on this
    /// network, else measured now on positions of random games (a rough
    /// stand-in: `bench --net --calibrate` makes a real one).
    pub fn for_net(net: &Net) -> Calibration {
        match Calibration::parse(BUILTIN, net) {
            Ok(c) => c,
            Err(e) => {
                log::warn!(
                    "8-bit paths: {e}; calibrating on random games \
                     (tengen bench --net --calibrate FILE measures a table)"
                );
                Calibration::measure(net, &random_positions())
            }
        }
    }

    /// The table as `calibration.txt` holds it: comment lines (`#`), then
    /// `net FINGERPRINT LAYERS`, then a line a layer of its channels'
    /// largest outputs.
    pub fn to_text(&self, net: &Net, comment: &str) -> String {
        let mut out: String = comment.lines().map(|l| format!("# {l}\n")).collect();
        out.push_str(&format!(
            "net {:016x} {}\n",
            fingerprint(net),
            self.most.len()
        ));
        for layer in &self.most {
            let values: Vec<String> = layer.iter().map(|v| v.to_string()).collect();
            out.push_str(&values.join(" "));
            out.push('\n');
        }
        out
    }

    /// A table `to_text` wrote, if it was measured on `net`.
    pub fn parse(text: &str, net: &Net) -> Result<Calibration, String> {
        let mut lines = text.lines().filter(|l| !l.starts_with('#'));
        let head: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
        let want = format!("{:016x}", fingerprint(net));
        if head.len() != 3 || head[0] != "net" {
            return Err("the calibration table has no `net` line".into());
        }
        if head[1] != want {
            return Err(format!(
                "the calibration table is for network {}, not {want}",
                head[1]
            ));
        }
        let last = net.layers.len() - 1;
        let mut most = Vec::new();
        for (l, line) in lines.enumerate() {
            let layer: Result<Vec<f32>, _> = line.split_whitespace().map(str::parse).collect();
            match layer {
                Ok(v) if l < last && v.len() == net.layers[l].cout => most.push(v),
                _ => return Err(format!("calibration line {}: not layer {l}'s", l + 2)),
            }
        }
        if most.len() != last {
            return Err(format!("the calibration table has {} layers", most.len()));
        }
        Ok(Calibration { most })
    }
}

/// A hash of the network's shapes and weights, to tell the table's
/// network from another (FNV-1a, 64 bits).
pub fn fingerprint(net: &Net) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |x: u32| {
        for b in x.to_le_bytes() {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for l in &net.layers {
        for x in [l.k, l.cin, l.cout, l.skip as usize] {
            eat(x as u32);
        }
        for v in l.w.iter().chain(&l.b).chain(&l.pooled) {
            eat(v.to_bits());
        }
    }
    h
}

/// The first sensible move (legal, no own eye filled) of a scan of the
/// empty points from a random one; a pass if none is. The playouts'
/// uniform move, which the arena zip compiles after the network.
fn random_move(b: &Board, rng: &mut Rng) -> Move {
    let empties = b.empty_points();
    let n = empties.len();
    let start = if n == 0 { 0 } else { rng.below(n) };
    (0..n)
        .map(|k| Point(empties[(start + k) % n]))
        .find(|&p| b.is_sensible(b.to_move(), p))
        .map_or(Move::Pass, Move::Play)
}

/// Planes of 19x19 positions of seeded random games, 10 to 250 moves in.
fn random_positions() -> Vec<Vec<u8>> {
    let mut rng = Rng::new(7);
    let mut out = Vec::new();
    for game in 0..4 {
        let mut b = Board::new(19, 19);
        for n in 1..=250 {
            let mv = random_move(&b, &mut rng);
            if mv == Move::Pass || b.play(mv).is_err() {
                break;
            }
            if n % 40 == 10 + game * 10 {
                out.push(planes::encode(&b));
            }
        }
    }
    out
}
