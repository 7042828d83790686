//! `tengen bench --net --agree FILE`: how closely each 8-bit path follows
//! the float network on many positions: how often its likeliest move is
//! float's, the mean and largest total variation distance between the
//! two policies, (where the line carries the teacher's top move) how
//! often each path's likeliest move is the teacher's, and, if the network
//! has a value head, the mean and largest difference of its win rate and
//! score lead from float's (read for Black to move: the planes do not say
//! whose turn it is, and both paths read the same).
//!
//! `tengen bench --net --calibrate FILE`: the 8-bit paths' calibration
//! table for the network in play, measured on FILE's positions (training
//! games', none held out), as `src/games/go/net/calibration.txt` holds it.
//!
//! FILE holds lines as `tools/teacher/to_planes.py` writes them
//! (uncompressed): hex of the packed planes of a 19x19 position, then
//! optionally the teacher's top moves (SGF letters, or `-`) and anything.

use super::ToolError;
use crate::games::go::net::calibrate::{self, Calibration};
use crate::games::go::net::{sensible_softmax, Net, Path};
use crate::games::go::planes;
use crate::go::Color;

/// What one path scored against float.
#[derive(Default)]
struct Score {
    same_top: u64,
    tvd_sum: f64,
    tvd_max: f64,
    teacher_top: u64,
    /// Sums and maxima of |win - float's| and |lead - float's|.
    win_diff: (f64, f64),
    lead_diff: (f64, f64),
}

/// The report for the first `limit` positions of `text`.
pub fn run(net: &Net, text: &str, limit: usize) -> Result<String, ToolError> {
    let paths: Vec<Path> = Path::ALL
        .into_iter()
        .filter(|&p| p.is_int8() && p.runs_here() && p != Path::Int8Scalar)
        .collect();
    let mut scores: Vec<Score> = paths.iter().map(|_| Score::default()).collect();
    let (mut n, mut labelled, mut float_teacher) = (0u64, 0u64, 0u64);
    let n_planes = planes::PLANES.len();
    for (k, line) in text.lines().enumerate().take(limit) {
        let mut fields = line.split_whitespace();
        let Some(hex) = fields.next() else { continue };
        let planes = unpack(hex, n_planes * 361).ok_or_else(|| {
            ToolError::input(format!("line {}: not the hex of 19x19 planes", k + 1))
        })?;
        let teacher = fields.next().and_then(teacher_top);
        let black = Some(Color::Black);
        let (logits, float_value) = net.forward_by(Path::Float, &planes, 19, 19, black);
        let float = sensible_softmax(&planes, &logits);
        let top = argmax(&float);
        labelled += teacher.is_some() as u64;
        float_teacher += (teacher == Some(top)) as u64;
        for (&p, s) in paths.iter().zip(&mut scores) {
            let (logits, value) = net.forward_by(p, &planes, 19, 19, black);
            if let (Some(v), Some(f)) = (value, float_value) {
                let add = |(sum, max): &mut (f64, f64), d: f32| {
                    *sum += d.abs() as f64;
                    *max = max.max(d.abs() as f64);
                };
                add(&mut s.win_diff, v.win - f.win);
                add(&mut s.lead_diff, v.lead - f.lead);
            }
            let int8 = sensible_softmax(&planes, &logits);
            let tvd: f64 = float
                .iter()
                .zip(&int8)
                .map(|(a, b)| (a - b).abs() as f64)
                .sum::<f64>()
                / 2.0;
            let mine = argmax(&int8);
            s.same_top += (mine == top) as u64;
            s.tvd_sum += tvd;
            s.tvd_max = s.tvd_max.max(tvd);
            s.teacher_top += (teacher == Some(mine)) as u64;
        }
        n += 1;
    }
    if n == 0 {
        return Err(ToolError::input("no position to score"));
    }
    let pct = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;
    let mut out = format!(
        "{n} positions, {labelled} with the teacher's move; float: teacher's top move {:.2} %\n",
        pct(float_teacher, labelled)
    );
    for (p, s) in paths.iter().zip(&scores) {
        out.push_str(&format!(
            "{p}: float's top move {:.2} %, total variation mean {:.4} max {:.4}, teacher's top move {:.2} %\n",
            pct(s.same_top, n),
            s.tvd_sum / n as f64,
            s.tvd_max,
            pct(s.teacher_top, labelled)
        ));
        if net.has_value() {
            out.push_str(&format!(
                "{p}: value head against float: win rate mean {:.4} max {:.4}, lead mean {:.3} max {:.3} points\n",
                s.win_diff.0 / n as f64,
                s.win_diff.1,
                s.lead_diff.0 / n as f64,
                s.lead_diff.1
            ));
        }
    }
    Ok(out)
}

/// The calibration table of `net` measured on the first `limit`
/// positions of `text`.
pub fn calibrate(net: &Net, text: &str, limit: usize) -> Result<String, ToolError> {
    let n_planes = planes::PLANES.len();
    let mut positions = Vec::new();
    for (k, line) in text.lines().enumerate().take(limit) {
        let Some(hex) = line.split_whitespace().next() else {
            continue;
        };
        positions.push(unpack(hex, n_planes * 361).ok_or_else(|| {
            ToolError::input(format!("line {}: not the hex of 19x19 planes", k + 1))
        })?);
    }
    if positions.is_empty() {
        return Err(ToolError::input("no position to calibrate on"));
    }
    let comment = format!(
        "The 8-bit paths' calibration: each layer's channels' ranges (the value\n\
         1 in {} of its outputs pass) on {} positions of training games\n\
         (docs/network.md, inference paths), made by\n\
         tengen bench --net --calibrate FILE --limit {}",
        (1.0 / calibrate::RARE).round(),
        positions.len(),
        positions.len()
    );
    Ok(Calibration::measure(net, &positions).to_text(net, &comment))
}

/// `n` bits from `hex` (least significant first), one a byte; none if
/// the hex is malformed or short.
fn unpack(hex: &str, n: usize) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) || hex.len() * 4 < n {
        return None;
    }
    let bytes: Option<Vec<u8>> = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
        .collect();
    let bytes = bytes?;
    Some((0..n).map(|i| (bytes[i / 8] >> (i % 8)) & 1).collect())
}

/// The point of the teacher's first top move (`to_planes.py`'s second
/// field: SGF letters, x then y from the top left), if any.
fn teacher_top(field: &str) -> Option<usize> {
    let b = field.as_bytes();
    let (x, y) = (b.first()?.checked_sub(b'a')?, b.get(1)?.checked_sub(b'a')?);
    (x < 19 && y < 19).then_some(y as usize * 19 + x as usize)
}

fn argmax(p: &[f32]) -> usize {
    (0..p.len())
        .max_by(|&i, &j| p[i].total_cmp(&p[j]))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_are_refused_and_labels_read() {
        let net = Net::active();
        assert!(run(net, "zz 1\n", 10).is_err());
        assert!(run(net, "", 10).is_err());
        assert_eq!(teacher_top("pdqd"), Some(3 * 19 + 15));
        assert_eq!(teacher_top("-"), None);
        assert_eq!(unpack("0f", 8), Some(vec![1, 1, 1, 1, 0, 0, 0, 0]));
        assert_eq!(unpack("0", 4), None);
    }
}
