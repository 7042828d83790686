//! Reading a weight file: little-endian words, and the tensors of the
//! `TGPOLNN5` format, each decoded once when the file is read.
//!
//! A tensor of n values starts with a tag (u32). Tag 0: the n values as
//! f32. Tag 1, coded: the number of columns c (u32, dividing n), one
//! scale a column (f32), the symbol count m (u32, odd, at most 255), the
//! m symbols' frequencies (u16, summing to 2^12, zero-padded to whole
//! words), the number of 16-bit words of the stream (u32) and the stream
//! (zero-padded to whole words): n symbols coded by rANS, a 32-bit state
//! (its high half first) renormalised 16 bits at a time. Value i is its
//! symbol minus (m - 1) / 2, times the scale of column i mod c: weights
//! quantised to a few bits with a scale an output channel, at about the
//! entropy of those integers. `tools/teacher/coding.py` writes them.

/// Frequencies sum to 2^PROB_BITS.
const PROB_BITS: u32 = 12;
/// The least state between symbols: a state below it reads a word.
const LOW: u32 = 1 << 16;
const PLAIN: u32 = 0;
const CODED: u32 = 1;

/// The bytes of a weight file past its header, read in whole words.
pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Result<Self, String> {
        if !bytes.len().is_multiple_of(4) {
            return Err(format!(
                "{} bytes after the header: not whole words",
                bytes.len()
            ));
        }
        Ok(Reader { bytes, at: 0 })
    }

    /// The bytes not read yet (a value section after the layers).
    pub(super) fn rest(&self) -> &'a [u8] {
        &self.bytes[self.at..]
    }

    /// Whether every byte has been read.
    pub(super) fn done(&self) -> bool {
        self.at == self.bytes.len()
    }

    /// The next `n` bytes, and the padding after them to a whole word.
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let padded = n.checked_add(3).ok_or("the file ends early")? / 4 * 4;
        if padded > self.bytes.len() - self.at {
            return Err("the file ends early".into());
        }
        let out = &self.bytes[self.at..self.at + n];
        self.at += padded;
        Ok(out)
    }

    pub(super) fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn f32s(&mut self, n: usize) -> Result<Vec<f32>, String> {
        let bytes = self.take(n.checked_mul(4).ok_or("the file ends early")?)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    fn u16s(&mut self, n: usize) -> Result<Vec<u16>, String> {
        let bytes = self.take(n.checked_mul(2).ok_or("the file ends early")?)?;
        Ok(bytes
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect())
    }

    /// The next tensor, of `n` values (format in the module doc).
    pub(super) fn tensor(&mut self, n: usize) -> Result<Vec<f32>, String> {
        match self.u32()? {
            PLAIN => self.f32s(n),
            CODED => {
                let cols = self.u32()? as usize;
                if cols == 0 || !n.is_multiple_of(cols) {
                    return Err(format!("{cols} scales for {n} values"));
                }
                let scales = self.f32s(cols)?;
                let m = self.u32()? as usize;
                if m.is_multiple_of(2) || m > 255 {
                    return Err(format!("{m} symbols: not an odd count up to 255"));
                }
                let freqs = self.u16s(m)?;
                let len = self.u32()? as usize;
                rans(&self.u16s(len)?, &freqs, n, (m / 2) as i32, &scales)
            }
            tag => Err(format!("a tensor of unknown kind {tag}")),
        }
    }
}

/// The `n` values that `words` code with the frequencies `freqs`, each its
/// symbol minus `half` times its column's scale; an error unless they
/// decode to exactly that many, back to the state the coder started from.
fn rans(
    words: &[u16],
    freqs: &[u16],
    n: usize,
    half: i32,
    scales: &[f32],
) -> Result<Vec<f32>, String> {
    const MASK: u32 = (1 << PROB_BITS) - 1;
    // each slot's symbol, its frequency less one and the slot's place
    // within the symbol's: one load a value (12 bits each, 32 in all)
    let mut slots = Vec::with_capacity(1 << PROB_BITS);
    for (s, &f) in freqs.iter().enumerate() {
        let f = f as u32;
        slots.extend((0..f).map(|i| s as u32 | (f - 1) << 8 | i << 20));
    }
    if slots.len() != 1 << PROB_BITS {
        return Err("the coder's frequencies do not sum to its total".into());
    }
    let [high, low, rest @ ..] = words else {
        return Err("the coded weights end early".into());
    };
    let mut x = (*high as u32) << 16 | *low as u32;
    let mut rest = rest.iter();
    let mut out = Vec::with_capacity(n);
    let mut col = 0;
    for _ in 0..n {
        let e = slots[(x & MASK) as usize];
        // below 2^32: the slot's place is below its frequency, at most 2^12
        x = ((e >> 8 & MASK) + 1) * (x >> PROB_BITS) + (e >> 20);
        if x < LOW {
            let next = rest.next().ok_or("the coded weights end early")?;
            x = x << 16 | *next as u32;
        }
        out.push(((e & 0xff) as i32 - half) as f32 * scales[col]);
        col += 1;
        if col == scales.len() {
            col = 0;
        }
    }
    if x != LOW || rest.next().is_some() {
        return Err("the coded weights do not decode to their count".into());
    }
    Ok(out)
}

#[cfg(test)]
#[path = "format_tests.rs"]
mod tests;
