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

/// Edit distance counting a swap of two neighbouring letters as one edit
/// (optimal string alignment), so `widht` is one typo from `width`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // d[i][j]: distance between a[..i] and b[..j].
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j - 1] + cost)
                .min(d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
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
