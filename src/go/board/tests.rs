use super::Heads;

/// The packed set against a plain list, over every order of inserting
/// up to four of a few heads chosen to share bits and lanes.
#[test]
fn heads_behave_as_a_set() {
    let pool = [1u16, 2, 3, 0x100, 0x101, 0x3FF, 0x2FF];
    for a in pool {
        for b in pool {
            for c in pool {
                for d in pool {
                    let mut heads = Heads::new();
                    let mut list: Vec<u16> = Vec::new();
                    for h in [a, b, c, d] {
                        assert_eq!(heads.insert(h), !list.contains(&h));
                        if !list.contains(&h) {
                            list.push(h);
                        }
                    }
                    assert_eq!(heads.iter().collect::<Vec<_>>(), list);
                    for x in pool {
                        assert_eq!(heads.contains(x), list.contains(&x), "{x} in {list:?}");
                    }
                }
            }
        }
    }
}
