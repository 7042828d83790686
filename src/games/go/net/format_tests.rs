use super::*;

/// A coded tensor's bytes (module doc), its stream given as words.
fn coded(cols: u32, scales: &[f32], freqs: &[u16], words: &[u16]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in [CODED, cols] {
        out.extend(v.to_le_bytes());
    }
    out.extend(scales.iter().flat_map(|x| x.to_le_bytes()));
    out.extend((freqs.len() as u32).to_le_bytes());
    out.extend(freqs.iter().flat_map(|x| x.to_le_bytes()));
    out.resize(out.len().div_ceil(4) * 4, 0);
    out.extend((words.len() as u32).to_le_bytes());
    out.extend(words.iter().flat_map(|x| x.to_le_bytes()));
    out.resize(out.len().div_ceil(4) * 4, 0);
    out
}

/// `symbols` coded by rANS with `freqs`, as the exporter codes them
/// (`tools/teacher/coding.py`): the decoder's words.
fn encode(symbols: &[u8], freqs: &[u16]) -> Vec<u16> {
    let starts: Vec<u32> = freqs
        .iter()
        .scan(0, |at, &f| {
            *at += f as u32;
            Some(*at - f as u32)
        })
        .collect();
    let (mut x, mut out) = (LOW, Vec::new());
    for &s in symbols.iter().rev() {
        let f = freqs[s as usize] as u32;
        if x as u64 >= (1u64 << (32 - PROB_BITS)) * f as u64 {
            out.push(x as u16);
            x >>= 16;
        }
        x = ((x / f) << PROB_BITS) + x % f + starts[s as usize];
    }
    out.extend([x as u16, (x >> 16) as u16]);
    out.reverse();
    out
}

#[test]
fn a_coded_tensor_reads_as_its_values_times_their_scales() {
    // five symbols for -2 ..= 2, the middle ones likelier; 3 columns
    let freqs = [250, 1000, 1596, 1000, 250];
    let mut s = 5u64;
    let symbols: Vec<u8> = (0..300)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
            let r = (s >> 52) as u32; // 0 .. 2^12
            let mut at = 0;
            freqs
                .iter()
                .position(|&f| {
                    at += f as u32;
                    r < at
                })
                .unwrap() as u8
        })
        .collect();
    let scales = [0.5, 0.25, -1.0];
    let words = encode(&symbols, &freqs);
    // about the entropy (2.1 bits a value), not a byte a value
    assert!(words.len() * 16 < symbols.len() * 3, "{}", words.len());
    let bytes = coded(3, &scales, &freqs, &words);
    let mut r = Reader::new(&bytes).unwrap();
    let got = r.tensor(symbols.len()).unwrap();
    assert!(r.done());
    let want: Vec<f32> = symbols
        .iter()
        .enumerate()
        .map(|(i, &q)| (q as i32 - 2) as f32 * scales[i % 3])
        .collect();
    assert_eq!(got, want);
}

#[test]
fn a_plain_tensor_reads_as_its_floats() {
    let mut bytes = PLAIN.to_le_bytes().to_vec();
    bytes.extend([1.5f32, -2.0].iter().flat_map(|x| x.to_le_bytes()));
    let mut r = Reader::new(&bytes).unwrap();
    assert_eq!(r.tensor(2).unwrap(), [1.5, -2.0]);
    assert!(r.done());
}

#[test]
fn a_bad_coded_tensor_is_refused_with_its_reason() {
    let freqs = [1024, 2048, 1024];
    let symbols = [0, 1, 1, 2, 1, 0, 1, 2, 1, 1];
    let words = encode(&symbols, &freqs);
    let read = |bytes: &[u8], n: usize| Reader::new(bytes).and_then(|mut r| r.tensor(n));
    let good = coded(1, &[1.0], &freqs, &words);
    assert_eq!(read(&good, 10).unwrap()[..4], [-1.0, 0.0, 0.0, 1.0]);
    let refused = |bytes: &[u8], n: usize, why: &str| {
        let e = read(bytes, n).expect_err("refused");
        assert!(e.contains(why), "{e}");
    };
    // one symbol more or fewer than were coded, or a word astray
    refused(&good, 11, "");
    refused(&good, 9, "decode to their count");
    let mut wrong = words.clone();
    wrong[1] ^= 0x0100;
    refused(&coded(1, &[1.0], &freqs, &wrong), 10, "");
    refused(&coded(1, &[1.0], &[1024, 2048, 1023], &words), 10, "sum");
    refused(&coded(1, &[1.0], &[2048, 2048], &words), 10, "odd count");
    refused(&coded(3, &[1.0; 3], &freqs, &words), 10, "3 scales for 10");
    refused(&coded(1, &[1.0], &freqs, &words[..1]), 10, "end early");
    refused(&good[..good.len() - 4], 10, "ends early");
    refused(&[7, 0, 0, 0], 1, "unknown kind 7");
}
