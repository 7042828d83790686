//! The value and score head: what the network reads of a whole position,
//! beside the policy. It sits on the trunk's output (the layer `tap`,
//! after its ReLU): a 1x1 convolution to `k` channels and a ReLU, each
//! channel's mean and max over the board plus 1.0 if White is to move, a
//! fully connected layer to `f` with a ReLU, one to two outputs: the side
//! to move's win logit and its score lead in points. Trained by
//! `tools/teacher/train.py --value-head`, written by `export.py` after the
//! policy's layers (the section's layout is in `export.py`'s doc).

/// What the head says of a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    /// Its chance of winning, 0..1.
    pub win: f32,
    /// Its lead in points at the end (komi counted).
    pub lead: f32,
}

pub const MAGIC: &[u8; 8] = b"TGVALUE1";

#[derive(Clone, Debug)]
pub struct ValueHead {
    /// The policy layer whose output the head reads.
    pub tap: usize,
    c: usize,
    k: usize,
    f: usize,
    conv: Vec<f32>,
    conv_b: Vec<f32>,
    fc1: Vec<f32>,
    fc1_b: Vec<f32>,
    fc2: Vec<f32>,
    fc2_b: Vec<f32>,
}

impl ValueHead {
    /// Reads the section from its magic on, which must be all of `bytes`.
    pub fn read(bytes: &[u8]) -> Result<ValueHead, String> {
        let rest = bytes
            .strip_prefix(MAGIC)
            .ok_or("bytes left after the last layer that are no value section (TGVALUE1)")?;
        if rest.len() % 4 != 0 {
            return Err("the value section is not whole words".into());
        }
        let mut words = rest
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let mut dims = [0usize; 6];
        for d in &mut dims {
            *d = words.next().ok_or("the value section ends early")? as usize;
        }
        let [tap, c, k, f, e, o] = dims;
        if e != 1
            || o != 2
            || !(1..=512).contains(&c)
            || !(1..=512).contains(&k)
            || !(1..=512).contains(&f)
        {
            return Err(format!(
                "a value head of {c} -> {k} -> {f} (+{e}) -> {o}: not one this reader knows"
            ));
        }
        let mut take = |n: usize| -> Result<Vec<f32>, String> {
            let v: Vec<f32> = words.by_ref().take(n).map(f32::from_bits).collect();
            match v.len() == n && v.iter().all(|x| x.is_finite()) {
                true => Ok(v),
                false => Err("the value section ends early or holds a non-finite weight".into()),
            }
        };
        let head = ValueHead {
            tap,
            c,
            k,
            f,
            conv: take(c * k)?,
            conv_b: take(k)?,
            fc1: take((2 * k + 1) * f)?,
            fc1_b: take(f)?,
            fc2: take(f * 2)?,
            fc2_b: take(2)?,
        };
        if words.next().is_some() {
            return Err("bytes left after the value section".into());
        }
        Ok(head)
    }

    /// The channels of the trunk output it reads.
    pub fn channels(&self) -> usize {
        self.c
    }

    /// The head's outputs for the trunk output `points` (one slice of at
    /// least `channels()` values a board point).
    pub fn forward<'a>(
        &self,
        points: impl Iterator<Item = &'a [f32]>,
        white_to_move: bool,
    ) -> Value {
        let (c, k, f) = (self.c, self.k, self.f);
        let mut z = vec![0.0f32; 2 * k + 1];
        let (sum, rest) = z.split_at_mut(k);
        let max = &mut rest[..k];
        let mut g = vec![0.0f32; k];
        let mut n = 0usize;
        for v in points {
            g.copy_from_slice(&self.conv_b);
            for (&x, row) in v[..c].iter().zip(self.conv.chunks_exact(k)) {
                if x != 0.0 {
                    for (a, &w) in g.iter_mut().zip(row) {
                        *a += x * w;
                    }
                }
            }
            for ((s, m), &a) in sum.iter_mut().zip(max.iter_mut()).zip(&g) {
                let a = a.max(0.0);
                *s += a;
                // after the ReLU every value is at least 0: 0 starts the max
                *m = m.max(a);
            }
            n += 1;
        }
        sum.iter_mut().for_each(|s| *s /= n.max(1) as f32);
        z[2 * k] = if white_to_move { 1.0 } else { 0.0 };
        let mut hidden = self.fc1_b.clone();
        for (&x, row) in z.iter().zip(self.fc1.chunks_exact(f)) {
            for (a, &w) in hidden.iter_mut().zip(row) {
                *a += x * w;
            }
        }
        let mut out = [self.fc2_b[0], self.fc2_b[1]];
        for (&x, row) in hidden.iter().zip(self.fc2.chunks_exact(2)) {
            let x = x.max(0.0);
            out[0] += x * row[0];
            out[1] += x * row[1];
        }
        Value {
            win: 1.0 / (1.0 + (-out[0]).exp()),
            lead: out[1],
        }
    }

    /// The win logit back from a [`Value`], for checks against the
    /// trainer's logits.
    pub fn logit(v: Value) -> f32 {
        (v.win / (1.0 - v.win)).ln()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A head of 2 trunk channels -> 1 -> 1: g = relu(x0 - x1 + 0.5);
    /// hidden = relu(mean g + 2 max g - white); logit = hidden - 1,
    /// lead = 10 hidden.
    fn section() -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        for d in [3u32, 2, 1, 1, 1, 2] {
            b.extend(d.to_le_bytes());
        }
        let reals = [1.0f32, -1.0, 0.5, 1.0, 2.0, -1.0, 0.0, 1.0, 10.0, -1.0, 0.0];
        for x in reals {
            b.extend(x.to_le_bytes());
        }
        b
    }

    #[test]
    fn the_head_computes_what_its_layout_says() {
        let head = ValueHead::read(&section()).unwrap();
        assert_eq!((head.tap, head.channels()), (3, 2));
        let points: Vec<[f32; 2]> = vec![[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]];
        // g = 1.5, 0, 0.5: mean 2/3, max 1.5
        for white in [false, true] {
            let v = head.forward(points.iter().map(|p| &p[..]), white);
            let hidden: f32 = 2.0 / 3.0 + 3.0 - if white { 1.0 } else { 0.0 };
            assert!((ValueHead::logit(v) - (hidden - 1.0)).abs() < 1e-4, "{v:?}");
            assert!((v.lead - 10.0 * hidden).abs() < 1e-4, "{v:?}");
        }
    }

    #[test]
    fn a_broken_section_is_refused() {
        let good = section();
        assert!(ValueHead::read(&good[..good.len() - 4]).is_err(), "short");
        assert!(
            ValueHead::read(&[good.clone(), vec![0; 4]].concat()).is_err(),
            "long"
        );
        assert!(ValueHead::read(&good[1..]).is_err(), "no magic");
        let mut nan = good.clone();
        let at = nan.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(ValueHead::read(&nan).is_err(), "not finite");
        let mut wide = good;
        wide[8 + 20..8 + 24].copy_from_slice(&3u32.to_le_bytes());
        assert!(ValueHead::read(&wide).is_err(), "three outputs");
    }
}
