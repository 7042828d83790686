//! tengen's coded weights: a KataGo model file whose large weight blocks
//! are quantised to integers with a scale an output channel and
//! entropy-coded, a quarter of the size or less, so a network fits in the
//! arena's 5 MB upload. Everything else in the file is KataGo's format
//! ([`super::read`]); a coded block replaces `@BIN@` and its f32s by
//! [`MARK`] and, little-endian, unaligned:
//!
//! - the number of columns c (u32, dividing the value count n), then one
//!   scale a column (f32): value i is its integer times the scale of
//!   column i mod c (the output channel, last in KataGo's layouts);
//! - the symbol count m (u32, odd, at most 255) and the raw bits a value
//!   b (u32, at most 8): value i's integer is (s - (m - 1) / 2) * 2^b + r,
//!   s its symbol and r its b raw bits; the symbols' frequencies (m u16,
//!   summing to 2^12);
//! - the stream's length in 16-bit words (u32) and the words: the n
//!   symbols coded by rANS, a 32-bit state (its high half first)
//!   renormalised 16 bits at a time, ending where it started;
//! - the n values' raw bits, b each, the first value's lowest first,
//!   packed into ceil(n * b / 8) bytes.
//!
//! With symmetric 8-bit integers (m = 255, b = 0) the 8-bit backends,
//! which take a scale an output channel too, find the same integers
//! again: the coded file runs on them exactly as the original. Finer
//! integers (b > 0) keep a network's top moves where 8 bits lose some.

/// What starts a coded block in place of `@BIN@`.
pub const MARK: &[u8] = b"@TGQ@";

/// Frequencies sum to 2^PROB_BITS.
const PROB_BITS: u32 = 12;
/// The least state between symbols: a state below it reads a word.
const LOW: u32 = 1 << 16;

/// Little-endian fields from a byte slice.
struct Bytes<'a> {
    d: &'a [u8],
    p: usize,
}

impl<'a> Bytes<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self
            .p
            .checked_add(n)
            .filter(|&e| e <= self.d.len())
            .ok_or("the file ends inside coded weights")?;
        let out = &self.d[self.p..end];
        self.p = end;
        Ok(out)
    }
    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u16s(&mut self, n: usize) -> Result<Vec<u16>, String> {
        let b = self.take(n.checked_mul(2).ok_or("too many values")?)?;
        Ok(b.chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

/// The `n` values of the coded block at the start of `d` (past its mark),
/// and the bytes it took.
pub fn decode(d: &[u8], n: usize) -> Result<(Vec<f32>, usize), String> {
    let mut b = Bytes { d, p: 0 };
    let cols = b.u32()? as usize;
    if cols == 0 || !n.is_multiple_of(cols) {
        return Err(format!("{cols} scales for {n} values"));
    }
    let scales: Vec<f32> = b
        .take(cols.checked_mul(4).ok_or("too many scales")?)?
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let m = b.u32()? as usize;
    if m.is_multiple_of(2) || m > 255 {
        return Err(format!("{m} symbols: not an odd count up to 255"));
    }
    let raw = b.u32()?;
    if raw > 8 {
        return Err(format!("{raw} raw bits a value: more than 8"));
    }
    let freqs = b.u16s(m)?;
    let words = b.u32()? as usize;
    // each symbol takes at least a bit... of a word: a bound on n
    if n > words.saturating_mul(16 * 8).max(64) {
        return Err(format!("{n} values in {words} words"));
    }
    let stream = b.u16s(words)?;
    let mut ints = rans(&stream, &freqs, n, (m / 2) as i32)?;
    if raw > 0 {
        let bits = b.take(
            n.checked_mul(raw as usize)
                .ok_or("too many values")?
                .div_ceil(8),
        )?;
        for (i, q) in ints.iter_mut().enumerate() {
            let at = i * raw as usize;
            // the value's bits start in byte at / 8 and span at most two
            let pair = bits[at / 8] as u32 | (*bits.get(at / 8 + 1).unwrap_or(&0) as u32) << 8;
            *q = *q * (1 << raw) + (pair >> (at % 8) & ((1 << raw) - 1)) as i32;
        }
    }
    let values = ints
        .iter()
        .enumerate()
        .map(|(i, &q)| q as f32 * scales[i % cols])
        .collect();
    Ok((values, b.p))
}

/// The `n` integers that `words` code with the frequencies `freqs`, each
/// its symbol less `half`; an error unless they decode to exactly that
/// many, back to the state the coder started from.
fn rans(words: &[u16], freqs: &[u16], n: usize, half: i32) -> Result<Vec<i32>, String> {
    const MASK: u32 = (1 << PROB_BITS) - 1;
    // each slot's symbol, its frequency less one and the slot's place
    // within the symbol's: one load a value (12 bits each, 32 in all)
    let mut slots = Vec::with_capacity(1 << PROB_BITS);
    for (s, &f) in freqs.iter().enumerate() {
        let f = f as u32;
        if slots.len() + f as usize > 1 << PROB_BITS {
            break;
        }
        slots.extend((0..f).map(|i| s as u32 | (f - 1) << 8 | i << 20));
    }
    if slots.len() != 1 << PROB_BITS || freqs.iter().map(|&f| f as u32).sum::<u32>() != 1 << 12 {
        return Err("the coder's frequencies do not sum to its total".into());
    }
    let [high, low, rest @ ..] = words else {
        return Err("the coded weights end early".into());
    };
    let mut x = (*high as u32) << 16 | *low as u32;
    let mut rest = rest.iter();
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let e = slots[(x & MASK) as usize];
        // below 2^32: the slot's place is below its frequency, at most 2^12
        x = ((e >> 8 & MASK) + 1) * (x >> PROB_BITS) + (e >> 20);
        if x < LOW {
            let next = rest.next().ok_or("the coded weights end early")?;
            x = x << 16 | *next as u32;
        }
        out.push((e & 0xff) as i32 - half);
    }
    if x != LOW || rest.next().is_some() {
        return Err("the coded weights do not decode to their count".into());
    }
    Ok(out)
}

/// The coded block (without its mark) for `values` in `cols` columns,
/// each quantised to `top` steps either side of zero (`top` < 2^14) with
/// the scale that maps its largest magnitude to `top`: above 127, the
/// integers' low bits raw, as few as leave at most 127 symbols a side.
pub fn encode(values: &[f32], cols: usize, top: i32) -> Vec<u8> {
    assert!(cols > 0 && values.len().is_multiple_of(cols) && (1..1 << 14).contains(&top));
    let raw = (0..=8)
        .find(|&b| (top + (1 << b) - 1) >> b <= 127)
        .expect("top < 2^14");
    // the symbols' integers: -half to (at most) half
    let half = (top + (1 << raw) - 1) >> raw;
    let mut scales = vec![0f32; cols];
    for (i, v) in values.iter().enumerate() {
        scales[i % cols] = scales[i % cols].max(v.abs());
    }
    for s in &mut scales {
        *s = if *s > 0.0 { *s / top as f32 } else { 1.0 };
    }
    let m = 2 * half as usize + 1;
    let ints: Vec<i32> = values
        .iter()
        .enumerate()
        .map(|(i, v)| ((v / scales[i % cols]).round() as i32).clamp(-top, top))
        .collect();
    let symbols: Vec<usize> = ints.iter().map(|q| ((q >> raw) + half) as usize).collect();
    let mut bits = vec![0u8; (ints.len() * raw as usize).div_ceil(8)];
    for (i, q) in ints.iter().enumerate().filter(|_| raw > 0) {
        let (at, r) = (i * raw as usize, (q & ((1 << raw) - 1)) as u32);
        bits[at / 8] |= (r << (at % 8)) as u8;
        if at % 8 + raw as usize > 8 {
            bits[at / 8 + 1] |= (r >> (8 - at % 8)) as u8;
        }
    }
    let freqs = frequencies(&symbols, m);
    let mut cum = vec![0u32; m + 1];
    for s in 0..m {
        cum[s + 1] = cum[s] + freqs[s] as u32;
    }
    // rANS codes backwards: the decoder reads the last word written first
    let mut x = LOW as u64;
    let mut words = Vec::new();
    for &s in symbols.iter().rev() {
        let f = freqs[s] as u64;
        let bound = ((LOW as u64 >> PROB_BITS) << 16) * f;
        while x >= bound {
            words.push(x as u16);
            x >>= 16;
        }
        x = ((x / f) << PROB_BITS) + x % f + cum[s] as u64;
    }
    words.push(x as u16);
    words.push((x >> 16) as u16);
    words.reverse();
    let mut out = Vec::with_capacity(20 + 4 * cols + 2 * m + 2 * words.len() + bits.len());
    out.extend((cols as u32).to_le_bytes());
    scales.iter().for_each(|s| out.extend(s.to_le_bytes()));
    out.extend((m as u32).to_le_bytes());
    out.extend((raw as u32).to_le_bytes());
    freqs.iter().for_each(|f| out.extend(f.to_le_bytes()));
    out.extend((words.len() as u32).to_le_bytes());
    words.iter().for_each(|w| out.extend(w.to_le_bytes()));
    out.extend(bits);
    out
}

/// Frequencies of `m` symbols summing to 2^12, each seen one at least 1,
/// close to their counts in `symbols`.
fn frequencies(symbols: &[usize], m: usize) -> Vec<u16> {
    let total = 1u64 << PROB_BITS;
    let mut counts = vec![0u64; m];
    symbols.iter().for_each(|&s| counts[s] += 1);
    let n = symbols.len().max(1) as u64;
    let mut freqs: Vec<u64> = counts
        .iter()
        .map(|&c| match c {
            0 => 0,
            c => (c * total / n).max(1),
        })
        .collect();
    // no symbol at all (an empty tensor): any valid table
    if symbols.is_empty() {
        freqs[m / 2] = total;
    }
    // settle the rounding on the commonest symbols
    loop {
        let sum: u64 = freqs.iter().sum();
        if sum == total {
            break;
        }
        let top = (0..m).max_by_key(|&s| freqs[s]).expect("m > 0");
        if sum > total {
            let over = (sum - total).min(freqs[top] - 1);
            freqs[top] -= over.max(1);
        } else {
            freqs[top] += total - sum;
        }
    }
    freqs.into_iter().map(|f| f as u16).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coded_values_decode_to_their_quantised_selves() {
        let values: Vec<f32> = (0..3000)
            .map(|i| ((i * 7919 % 1000) as f32 - 500.0) * 1e-3)
            .collect();
        for top in [1, 7, 127, 128, 1000, 4095, 16383] {
            let block = encode(&values, 12, top);
            let (back, used) = decode(&block, values.len()).unwrap();
            assert_eq!(used, block.len());
            for (i, (&v, &b)) in values.iter().zip(&back).enumerate() {
                let step = values
                    .iter()
                    .skip(i % 12)
                    .step_by(12)
                    .fold(0f32, |m, x| m.max(x.abs()))
                    / top as f32;
                assert!(
                    (v - b).abs() <= step * 0.5 + 1e-6,
                    "value {i}: {v} coded as {b} (step {step})"
                );
            }
        }
    }

    #[test]
    fn damaged_blocks_are_errors_not_panics() {
        let values: Vec<f32> = (0..500).map(|i| (i as f32).sin()).collect();
        for top in [127, 2047] {
            let block = encode(&values, 5, top);
            for cut in [0, 3, 10, block.len() / 2, block.len() - 1] {
                assert!(decode(&block[..cut], values.len()).is_err(), "cut at {cut}");
            }
            for i in (0..block.len()).step_by(7) {
                let mut bad = block.clone();
                bad[i] ^= 0x5a;
                // a flipped scale still decodes (to other values); nothing panics
                let _ = decode(&bad, values.len());
            }
            assert!(
                decode(&block, values.len() + 5).is_err(),
                "more values than coded"
            );
        }
    }
}
