//! Zobrist keys, computed at compile time from a fixed seed so that hashes
//! are the same in every run and on every machine.

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Keys for `N` points of each colour: `keys()[colour][point]`.
pub const fn keys<const N: usize>() -> [[u64; N]; 2] {
    let mut table = [[0u64; N]; 2];
    let mut state = 0x7465_6E67_656E_u64; // "tengen"
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < N {
            let (s, z) = splitmix64(state);
            state = s;
            table[c][p] = z;
            p += 1;
        }
        c += 1;
    }
    table
}
