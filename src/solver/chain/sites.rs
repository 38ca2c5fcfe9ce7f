//! What the chain has seen of the queries past the recent models, to guess whether the next
//! is likely unsatisfiable: by site, or without one of all queries.

use std::collections::HashMap;

use crate::solver::{SatResult, Site};
use crate::term::IdBuild;

/// [`Sites::refuted_share`]'s whole.
const SHARE_ONE: u32 = 1 << 16;

/// The recent outcomes of the queries past the recent models.
#[derive(Default)]
pub struct Sites {
    /// The recent share of those queries that propagation refuted, in units of
    /// 1/[`SHARE_ONE`]: each such query moves it 1/32 of the way to 0 or 1.
    refuted_share: u32,
    /// By site, whether each of its last queries was unsatisfiable (the lowest bit the
    /// newest), and how many of those there are (at most 8).
    sites: HashMap<Site, (u8, u8), IdBuild>,
}

impl Sites {
    /// Whether more than a third of the recent queries of `site` (or without one, or before
    /// it has any, of all queries) were unsatisfiable.
    pub fn likely_unsat(&self, site: Option<Site>) -> bool {
        match site.and_then(|s| self.sites.get(&s)) {
            Some((bits, n)) => bits.count_ones() * 3 > u32::from(*n),
            None => self.refuted_share * 3 > SHARE_ONE,
        }
    }

    /// Moves the share of refuted queries by one whose answer repair or propagation settled
    /// (`refuted`: propagation refuted it).
    pub fn note(&mut self, refuted: bool) {
        self.refuted_share -= self.refuted_share >> 5;
        if refuted {
            self.refuted_share += SHARE_ONE >> 5;
        }
    }

    /// Records the answer to a query from `site`, if given.
    pub fn record(&mut self, site: Option<Site>, r: &SatResult) {
        if let Some(s) = site {
            let (bits, n) = self.sites.entry(s).or_default();
            *bits = (*bits << 1) | u8::from(matches!(r, SatResult::Unsat));
            *n = (*n + 1).min(8);
        }
    }
}
