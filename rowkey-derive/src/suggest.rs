//! "Did you mean ...?" for misspelled attributes and options.

/// The candidate closest to `word`, if it is close enough to be a typo.
pub fn nearest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (edit_distance(word, c), *c))
        .filter(|(d, c)| *d <= (c.len() / 3).max(1) + usize::from(c.len() > 5))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// The message tail for an unknown `word`: the suggestion or the list.
pub fn hint(word: &str, candidates: &[&str]) -> String {
    match nearest(word, candidates) {
        Some(c) => format!("did you mean `{c}`?"),
        None => format!("expected one of: {}", candidates.join(", ")),
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_typos_only() {
        let c = ["width", "fill", "align"];
        assert_eq!(nearest("widht", &c), Some("width"));
        assert_eq!(nearest("fil", &c), Some("fill"));
        assert_eq!(nearest("zzzzz", &c), None);
        assert_eq!(nearest("desc_tz", &["desc_ts", "desc"]), Some("desc_ts"));
    }
}
