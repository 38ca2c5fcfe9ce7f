//! `--shard I/N`: a stable partition of the selected classes by a hash of each class's name,
//! so that shards run on separate machines and a class added elsewhere moves no other class.

use super::select::Selected;

/// Shard `index` (from 1) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// Parses `I/N` with 1 ≤ I ≤ N (the error says what is wrong, for clap to print).
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("`{s}` is not I/N with 1 <= I <= N (e.g. 2/4)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The shard (from 1) of `count` that holds the class `class` (binary name, Java form):
    /// the CRC-32 of its name modulo `count`, the same on every machine and release.
    pub fn of(class: &str, count: u32) -> u32 {
        crc32fast::hash(class.as_bytes()) % count.max(1) + 1
    }

    /// Whether this shard holds `class`.
    pub fn holds(&self, class: &str) -> bool {
        Shard::of(class, self.count) == self.index
    }

    /// The part of a selection this shard runs and reports: its targets and its left-out classes.
    pub fn apply(&self, mut s: Selected) -> Selected {
        s.jobs.retain(|j| self.holds(&j.class));
        s.left_out.retain(|l| self.holds(&l.class));
        s
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn parses_only_valid_shards() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "1/0", "x/2", "2", "1/-1", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_class_is_in_exactly_one_shard() {
        let names: Vec<String> = (0..200).map(|i| format!("p.C{i}")).collect();
        for count in [1, 2, 3, 7] {
            for n in &names {
                let holders = (1..=count).filter(|i| Shard { index: *i, count }.holds(n)).count();
                assert_eq!(holders, 1, "{n} in {holders} of {count} shards");
            }
        }
        // The hash is fixed: a class keeps its shard across releases and machines.
        assert_eq!(Shard::of("whole.Counter", 2), crc32fast::hash(b"whole.Counter") % 2 + 1);
    }
}
