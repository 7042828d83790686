//! Game records: the main line of an SGF game (FF[4]), as the arena writes
//! it and as other programs do, read into its size, players and moves; and
//! a collection (`(;...)(;...)`, one file of many games) split into its games.

use super::Color;

/// A game record's size, players and moves.
pub struct Record {
    pub size: usize,
    pub black: String,
    pub white: String,
    pub moves: Vec<(Color, Option<(usize, usize)>)>,
    /// Stones set up before the first move (AB, AW: handicap stones).
    pub setup: Vec<(Color, (usize, usize))>,
    /// The komi (KM), if given.
    pub komi: Option<f32>,
    /// Who plays first after the setup (PL), if given.
    pub to_play: Option<Color>,
    /// For each move, the point a teacher prefers in the position before
    /// it, if the record says (the private property `TM` in the move's
    /// node, as `tools/teacher/to_sgf.py` writes it).
    pub teacher: Vec<Option<(usize, usize)>>,
}

/// Reads the main line of an SGF game: SZ, KM, PB, PW, the stones set up
/// before the first move (AB, AW), who plays first (PL) and the B/W moves. Other setup (AE, or
/// AB/AW after a move) is refused. Readers that replay the moves alone
/// must refuse a record with `setup` stones themselves.
pub fn read_sgf(text: &str) -> Result<Record, String> {
    let mut rec = Record {
        size: 19,
        black: String::new(),
        white: String::new(),
        moves: Vec::new(),
        teacher: Vec::new(),
        setup: Vec::new(),
        komi: None,
        to_play: None,
    };
    let body = text.trim_start();
    if !body.starts_with("(;") {
        return Err("not an SGF game: it does not start with \"(;\"".into());
    }
    let chars: Vec<char> = body.chars().collect();
    let (mut i, mut depth, mut ident) = (0, 0, String::new());
    while i < chars.len() {
        let c = chars[i];
        match c {
            '(' => {
                depth += 1;
                // a variation after the main line: the main line is done
                if depth > 1 {
                    break;
                }
            }
            ')' => break,
            ';' => ident.clear(),
            '[' => {
                let mut value = String::new();
                i += 1;
                while i < chars.len() && chars[i] != ']' {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        i += 1;
                    }
                    value.push(chars[i]);
                    i += 1;
                }
                if i == chars.len() {
                    return Err("a property value is not closed with ']'".into());
                }
                property(&mut rec, &ident, &value)?;
            }
            c if c.is_ascii_uppercase() => {
                // a new identifier, unless this continues the one before a
                // run of values
                if i == 0 || !chars[i - 1].is_ascii_uppercase() {
                    ident.clear();
                }
                ident.push(c);
            }
            _ => {}
        }
        i += 1;
    }
    Ok(rec)
}

/// The games of an SGF collection, each the text of one game tree
/// (`(;...)` with its variations), in file order. A file of one game is a
/// collection of one. Text other than white space between the games, a
/// game not closed, or no game at all is an error.
pub fn games(text: &str) -> Result<Vec<&str>, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    // a byte-order mark, as some editors write, is not text
    let mut i = if text.starts_with('\u{feff}') { 3 } else { 0 };
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let n = out.len() + 1;
        if c != b'(' {
            return Err(format!(
                "game {n}: expected '(' at byte {i}, found {:?}",
                text[i..].chars().next().unwrap_or(' ')
            ));
        }
        let end = tree_end(bytes, i).map_err(|e| format!("game {n}: {e}"))?;
        out.push(&text[i..end]);
        i = end;
    }
    if out.is_empty() {
        return Err("no SGF game in it".into());
    }
    Ok(out)
}

/// The games of the collection `text`, read from `path`, each with its
/// name in messages and records: `path` when the file holds one game,
/// `path#K` (the Kth in the file) when it holds more.
pub fn named_games<'a>(path: &str, text: &'a str) -> Result<Vec<(String, &'a str)>, String> {
    let all = games(text).map_err(|e| format!("{path}: {e}"))?;
    let one = all.len() == 1;
    Ok(all
        .into_iter()
        .enumerate()
        .map(|(k, g)| {
            let name = if one {
                path.to_string()
            } else {
                format!("{path}#{}", k + 1)
            };
            (name, g)
        })
        .collect())
}

/// The end (one past its `)`) of the game tree opening at `start`; the
/// brackets inside property values, escaped or not, do not count.
fn tree_end(bytes: &[u8], start: usize) -> Result<usize, String> {
    let (mut depth, mut i) = (0usize, start);
    while i < bytes.len() {
        match bytes[i] {
            b'[' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b']' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if i >= bytes.len() {
                    return Err("a property value is not closed with ']'".into());
                }
            }
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    Err("not closed with ')'".into())
}

/// Two SGF letters as a point `(x, y)` (`aa` the top left), on a board of
/// any size up to 26; `None` unless the text is exactly that.
pub fn point(text: &[u8]) -> Option<(usize, usize)> {
    match text {
        [x, y] if x.is_ascii_lowercase() && y.is_ascii_lowercase() => {
            Some(((x - b'a') as usize, (y - b'a') as usize))
        }
        _ => None,
    }
}

fn property(rec: &mut Record, ident: &str, value: &str) -> Result<(), String> {
    match ident {
        "SZ" => {
            rec.size = value
                .trim()
                .parse()
                .ok()
                .filter(|n| (1..=crate::go::MAX_SIZE).contains(n))
                .ok_or_else(|| format!("SZ[{value}]: not a supported square size"))?;
        }
        "PB" => rec.black = value.to_string(),
        "PW" => rec.white = value.to_string(),
        "KM" => {
            let komi = value.trim().parse::<f32>().ok().filter(|k| k.is_finite());
            rec.komi = Some(komi.ok_or_else(|| format!("KM[{value}]: not a komi"))?);
        }
        "PL" if rec.moves.is_empty() => {
            rec.to_play = Some(match value.trim() {
                "B" | "b" => Color::Black,
                "W" | "w" => Color::White,
                _ => return Err(format!("PL[{value}]: not a colour")),
            });
        }
        "AB" | "AW" if rec.moves.is_empty() => {
            let color = if ident == "AB" {
                Color::Black
            } else {
                Color::White
            };
            let p = point(value.as_bytes())
                .filter(|&(x, y)| x < rec.size && y < rec.size)
                .ok_or_else(|| format!("{ident}[{value}]: not a point of the board"))?;
            rec.setup.push((color, p));
        }
        "AB" | "AW" | "AE" => {
            return Err(format!(
                "{ident}: setup stones are supported only before the first move"
            ))
        }
        "B" | "W" => {
            let color = if ident == "B" {
                Color::Black
            } else {
                Color::White
            };
            let point = match value.as_bytes() {
                [] => None,
                [x, y] if rec.size <= 19 && (x, y) == (&b't', &b't') => None,
                text => Some(point(text).ok_or_else(|| format!("{ident}[{value}]: not a move"))?),
            };
            // a move off the game's own board is a broken record (SZ comes
            // first, as the pass `tt` above already assumes)
            let point = match point {
                Some((x, y)) if x >= rec.size || y >= rec.size => {
                    let n = rec.moves.len() + 1;
                    return Err(format!(
                        "move {n}, {ident}[{value}]: off the {0}x{0} board",
                        rec.size
                    ));
                }
                p => p,
            };
            rec.moves.push((color, point));
            rec.teacher.push(None);
        }
        "TM" => {
            let point =
                point(value.as_bytes()).ok_or_else(|| format!("TM[{value}]: not a point"))?;
            let n = rec.moves.len();
            match rec.teacher.last_mut() {
                Some(t) if point.0 < rec.size && point.1 < rec.size => *t = Some(point),
                Some(_) => return Err(format!("move {n}, TM[{value}]: off the board")),
                None => return Err("TM before the first move".into()),
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgf_main_line_moves_and_players_are_read() {
        let r =
            read_sgf("(;GM[1]SZ[9]PB[a]PW[b\\]c]C[x;y(z)];B[cc]C[1];W[]\n;B[tt](;W[aa])(;W[bb]))")
                .unwrap();
        assert_eq!(
            (r.size, r.black.as_str(), r.white.as_str()),
            (9, "a", "b]c")
        );
        assert_eq!(
            r.moves,
            vec![
                (Color::Black, Some((2, 2))),
                (Color::White, None),
                (Color::Black, None),
            ]
        );
        assert!(read_sgf("GM[1]").is_err());
        assert!(read_sgf("(;SZ[9];B[cc").is_err());
        assert!(read_sgf("(;SZ[9];B[cc]AB[dd])").is_err());
        assert!(read_sgf("(;SZ[9]AE[cc];B[dd])").is_err());
        assert!(read_sgf("(;SZ[9]AB[jj])").is_err());
        let h = read_sgf("(;SZ[9]KM[0.5]AB[cc][gg]AW[ee];W[dd])").unwrap();
        assert_eq!(h.komi, Some(0.5));
        assert_eq!(
            h.setup,
            vec![
                (Color::Black, (2, 2)),
                (Color::Black, (6, 6)),
                (Color::White, (4, 4))
            ]
        );
        assert_eq!(h.to_play, None);
        let p = read_sgf("(;SZ[9]AB[cc]AW[dd]PL[B])").unwrap();
        assert_eq!(p.to_play, Some(Color::Black));
        assert!(read_sgf("(;SZ[9]AB[cc]PL[X])").is_err());
        assert!(read_sgf("(;SZ[99])").is_err());
        assert!(read_sgf("(;B[c])").is_err());
        let off = read_sgf("(;SZ[9];B[cc];W[ji])").err().unwrap();
        assert!(off.contains("move 2, W[ji]: off the 9x9 board"), "{off}");
    }

    #[test]
    fn a_collection_splits_into_its_games() {
        let two = "(;SZ[9]C[a (b) ;c \\] (];B[cc](;W[dd])(;W[ee]))\n\n(;SZ[5];B[aa])\n";
        let g = games(two).unwrap();
        assert_eq!(
            g,
            vec![
                "(;SZ[9]C[a (b) ;c \\] (];B[cc](;W[dd])(;W[ee]))",
                "(;SZ[5];B[aa])"
            ]
        );
        assert_eq!(read_sgf(g[1]).unwrap().size, 5);
        assert_eq!(games("\u{feff}(;SZ[9])").unwrap(), vec!["(;SZ[9])"]);
        let names: Vec<String> = named_games("m.sgf", two)
            .unwrap()
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(names, ["m.sgf#1", "m.sgf#2"]);
        assert_eq!(named_games("m.sgf", "(;)").unwrap()[0].0, "m.sgf");
        assert!(named_games("m.sgf", "x")
            .unwrap_err()
            .starts_with("m.sgf: game 1"));
        for (bad, says) in [
            ("", "no SGF game"),
            (" \n", "no SGF game"),
            ("(;SZ[9]) x", "game 2: expected '('"),
            ("(;SZ[9])(;B[aa]", "game 2: not closed with ')'"),
            ("(;SZ[9];C[x)", "game 1: a property value is not closed"),
        ] {
            let e = games(bad).unwrap_err();
            assert!(e.contains(says), "{bad:?}: {e}");
        }
    }

    #[test]
    fn a_teacher_move_belongs_to_its_node_s_move() {
        let r = read_sgf("(;SZ[9];B[cc]TM[dd];W[ee];B[ff]TM[aa])").unwrap();
        assert_eq!(r.teacher, vec![Some((3, 3)), None, Some((0, 0))]);
        assert!(read_sgf("(;SZ[9]TM[dd];B[cc])").is_err());
        assert!(read_sgf("(;SZ[9];B[cc]TM[jj])").is_err());
        assert!(read_sgf("(;SZ[9];B[cc]TM[])").is_err());
    }
}
