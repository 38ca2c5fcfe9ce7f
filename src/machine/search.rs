//! Search orders: which pending state runs next.

use std::collections::VecDeque;

use crate::config::SearchOrder as Order;

/// A worklist of pending states.
pub trait SearchOrder<T> {
    /// Adds the successors of one step, in program order (the first is the preferred one).
    fn push_all(&mut self, items: Vec<T>);
    fn pop(&mut self) -> Option<T>;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Depth-first: the first successor runs next.
pub struct Dfs<T>(Vec<T>);

impl<T> SearchOrder<T> for Dfs<T> {
    fn push_all(&mut self, items: Vec<T>) {
        self.0.extend(items.into_iter().rev());
    }
    fn pop(&mut self) -> Option<T> {
        self.0.pop()
    }
    fn len(&self) -> usize {
        self.0.len()
    }
}

/// Breadth-first: states run in the order they were created.
pub struct Bfs<T>(VecDeque<T>);

impl<T> SearchOrder<T> for Bfs<T> {
    fn push_all(&mut self, items: Vec<T>) {
        self.0.extend(items);
    }
    fn pop(&mut self) -> Option<T> {
        self.0.pop_front()
    }
    fn len(&self) -> usize {
        self.0.len()
    }
}

/// The worklist for a configured order.
pub fn worklist<'a, T: 'a>(order: Order) -> Box<dyn SearchOrder<T> + 'a> {
    match order {
        Order::Dfs => Box::new(Dfs(Vec::new())),
        Order::Bfs => Box::new(Bfs(VecDeque::new())),
    }
}
