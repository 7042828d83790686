//! The 8 symmetries of a board, numbered as KataGo numbers them
//! (`SymmetryHelpers` in KataGo's `cpp/neuralnet/nninputs.cpp`): bit 0
//! flips the rows (y), bit 1 the columns (x), bit 2 transposes, applied in
//! that order. A net may be evaluated on any of them: [`apply`] transforms
//! the inputs as `copyInputsWithSymmetry` does, [`restore`] brings a
//! spatial output back as `copyOutputsWithSymmetry` does (the inverse), so
//! that averaging over symmetries or picking one at random matches KataGo.
//!
//! Rectangular boards work too: a transpose swaps width and height (as
//! KataGo's `getSymLoc` does; its copies, on a square padded buffer, do
//! the same to the board inside it).

use super::inputs::{Features, SPATIAL};

/// Number of symmetries; 0 is the identity.
pub const COUNT: usize = 8;

/// The size of a `width` x `height` board under symmetry `s`.
pub fn sym_size(s: usize, width: usize, height: usize) -> (usize, usize) {
    if s & 4 != 0 {
        (height, width)
    } else {
        (width, height)
    }
}

/// Where the point (`x`, `y`) of a `width` x `height` board goes under
/// symmetry `s` (KataGo's `getSymLoc`).
pub fn sym_point(s: usize, width: usize, height: usize, x: usize, y: usize) -> (usize, usize) {
    debug_assert!(s < COUNT && x < width && y < height);
    let x = if s & 2 != 0 { width - 1 - x } else { x };
    let y = if s & 1 != 0 { height - 1 - y } else { y };
    if s & 4 != 0 {
        (y, x)
    } else {
        (x, y)
    }
}

/// The symmetry that undoes `s` (KataGo's `invert`: the two transposes
/// with one flip undo each other, the others themselves).
pub fn invert(s: usize) -> usize {
    match s {
        5 => 6,
        6 => 5,
        s => s,
    }
}

/// The features of the board transformed by `s`: each plane's point
/// (x, y) moves to [`sym_point`]; the globals stay.
pub fn apply(s: usize, f: &Features) -> Features {
    let (w, h) = (f.width, f.height);
    let (sw, sh) = sym_size(s, w, h);
    let area = w * h;
    let mut out = Features::new(sw, sh);
    out.global = f.global;
    for y in 0..h {
        for x in 0..w {
            let (tx, ty) = sym_point(s, w, h, x, y);
            let (from, to) = (y * w + x, ty * sw + tx);
            for k in 0..SPATIAL {
                out.spatial[k * area + to] = f.spatial[k * area + from];
            }
        }
    }
    out
}

/// An output plane of the net run on the board transformed by `s`, back
/// in the orientation of the `width` x `height` board: `dst` at (x, y) is
/// `src` at [`sym_point`] of (x, y). Entries past the board's area (the
/// policy's pass) are copied as they are. `src` and `dst` have the same
/// length, at least the area.
pub fn restore<T: Copy>(s: usize, width: usize, height: usize, src: &[T], dst: &mut [T]) {
    assert!(src.len() == dst.len() && src.len() >= width * height);
    let (sw, _) = sym_size(s, width, height);
    for y in 0..height {
        for x in 0..width {
            let (tx, ty) = sym_point(s, width, height, x, y);
            dst[y * width + x] = src[ty * sw + tx];
        }
    }
    let area = width * height;
    dst[area..].copy_from_slice(&src[area..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// KataGo's `copyWithSymmetry` (NCHW, one plane), index for index,
    /// `reverse` for outputs. Square boards only: it skips transposes
    /// otherwise.
    fn kata_copy(src: &[u32], size: usize, s: usize, reverse: bool) -> Vec<u32> {
        let (h_size, w_size) = (size as isize, size as isize);
        let transpose = s & 4 != 0;
        let (mut flip_x, mut flip_y) = (s & 2 != 0, s & 1 != 0);
        if transpose && !reverse {
            std::mem::swap(&mut flip_x, &mut flip_y);
        }
        let (mut h_base, mut h_stride) = (0, w_size);
        let (mut w_base, mut w_stride) = (0, 1);
        if flip_y {
            h_base = (h_size - 1) * h_stride;
            h_stride = -h_stride;
        }
        if flip_x {
            w_base = (w_size - 1) * w_stride;
            w_stride = -w_stride;
        }
        if transpose {
            std::mem::swap(&mut h_stride, &mut w_stride);
        }
        let mut dst = vec![0; src.len()];
        for h in 0..h_size {
            for w in 0..w_size {
                let new = h_base + h * h_stride + w_base + w * w_stride;
                dst[new as usize] = src[(h * w_size + w) as usize];
            }
        }
        dst
    }

    fn numbered(w: usize, h: usize) -> Features {
        let mut f = Features::new(w, h);
        for (i, v) in f.spatial.iter_mut().enumerate() {
            *v = (i * 7 % 251) as u8;
        }
        f.global[5] = 0.375;
        f
    }

    #[test]
    fn inputs_and_outputs_move_as_katago_moves_them() {
        for size in [9, 19] {
            let f = numbered(size, size);
            let area = size * size;
            let plane: Vec<u32> = (0..area as u32).collect();
            for s in 0..COUNT {
                let g = apply(s, &f);
                for k in [0, 5, 21] {
                    let src: Vec<u32> = f.plane(k).iter().map(|&v| v as u32).collect();
                    let want = kata_copy(&src, size, s, false);
                    let got: Vec<u32> = g.plane(k).iter().map(|&v| v as u32).collect();
                    assert_eq!(got, want, "inputs, symmetry {s}, plane {k}, {size}x{size}");
                }
                let mut back = vec![0; area];
                restore(s, size, size, &plane, &mut back);
                assert_eq!(
                    back,
                    kata_copy(&plane, size, s, true),
                    "outputs, symmetry {s}"
                );
            }
        }
    }

    #[test]
    fn a_known_point_maps_as_katago_maps_it() {
        // getSymLoc on 19x19: flip y (18 - 2 = 16), flip x (18 - 3 = 15),
        // then transpose
        let cases = [
            (0, (3, 2)),
            (1, (3, 16)),
            (2, (15, 2)),
            (4, (2, 3)),
            (5, (16, 3)),
        ];
        for (s, want) in cases {
            assert_eq!(sym_point(s, 19, 19, 3, 2), want, "symmetry {s}");
        }
        assert_eq!(sym_point(6, 19, 19, 3, 2), (2, 15));
        assert_eq!(sym_point(7, 19, 19, 3, 2), (16, 15));
        // a stone at (3, 2) is found at the mapped point after `apply`
        let mut f = Features::new(19, 19);
        f.spatial[19 * 19 + 2 * 19 + 3] = 1;
        let g = apply(5, &f);
        assert_eq!(g.at(1, 16, 3), 1);
        assert_eq!(g.plane(1).iter().map(|&v| v as usize).sum::<usize>(), 1);
    }

    #[test]
    fn restore_undoes_apply_and_invert_undoes_each_symmetry() {
        for (w, h) in [(19, 19), (9, 9), (7, 5)] {
            let f = numbered(w, h);
            for s in 0..COUNT {
                let g = apply(s, &f);
                assert_eq!((g.width, g.height), sym_size(s, w, h));
                // an output computed on the transformed board, with a pass
                for k in [1, 18] {
                    let mut src: Vec<u8> = g.plane(k).to_vec();
                    src.push(42);
                    let mut back = vec![0; src.len()];
                    restore(s, w, h, &src, &mut back);
                    assert_eq!(&back[..w * h], f.plane(k), "{w}x{h} symmetry {s} plane {k}");
                    assert_eq!(back[w * h], 42, "the pass stays");
                }
                assert_eq!(apply(invert(s), &g), f, "{w}x{h}: invert({s})");
                if s != 0 {
                    assert_ne!(g, f, "symmetry {s} moves points");
                }
            }
        }
    }
}
