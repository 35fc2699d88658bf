//! A breadth-first queue: node ids by the depth (steps from an initial
//! state) they were reached at, the shallowest first, under the waiting
//! list ([`super::waiting`]) of the one-thread search and of each worker of
//! the parallel search. A plain FIFO would put the states another
//! worker mails late, at
//! a depth this worker has left behind, after all its deeper ones; they
//! would then be expanded after deeper states of their discrete state, and
//! a larger zone reached shallower would cover those only once expanded
//! (fischer 9: 6.6 % more states visited on two workers than on one).

use std::collections::VecDeque;

#[derive(Default)]
pub struct Layers {
    /// `layers[k]`: the ids queued at depth `base + k` (those mailed at a
    /// depth below `base` join the first layer).
    layers: VecDeque<VecDeque<u32>>,
    base: u32,
    len: usize,
}

impl Layers {
    pub fn push(&mut self, depth: u32, id: u32) {
        self.layer(depth).push_back(id);
        self.len += 1;
    }

    /// The layer of `depth` (the first one for a depth already left).
    fn layer(&mut self, depth: u32) -> &mut VecDeque<u32> {
        let k = depth.saturating_sub(self.base) as usize;
        if self.layers.len() <= k {
            self.layers.resize_with(k + 1, VecDeque::new);
        }
        &mut self.layers[k]
    }

    /// Queues `id` ahead of the others of its depth.
    pub fn push_first(&mut self, depth: u32, id: u32) {
        self.layer(depth).push_front(id);
        self.len += 1;
    }

    /// The first id of the shallowest layer, and its depth.
    pub fn pop(&mut self) -> Option<(u32, u32)> {
        self.depth()?;
        let id = self.layers.front_mut()?.pop_front()?;
        self.len -= 1;
        Some((id, self.base))
    }

    /// The depth [`Layers::pop`] would give.
    pub fn depth(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        while self.layers.front().is_some_and(VecDeque::is_empty) {
            self.layers.pop_front();
            self.base += 1;
        }
        Some(self.base)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::Layers;

    fn drain(q: &mut Layers) -> Vec<(u32, u32)> {
        std::iter::from_fn(|| q.pop()).collect()
    }

    #[test]
    fn shallowest_first_and_fifo_within_a_depth() {
        let mut q = Layers::default();
        for (depth, id) in [(2, 20), (0, 1), (1, 10), (2, 21), (0, 2), (1, 11)] {
            q.push(depth, id);
        }
        assert_eq!(drain(&mut q), [(1, 0), (2, 0), (10, 1), (11, 1), (20, 2), (21, 2)]);
        assert!(q.is_empty());
    }

    #[test]
    fn a_late_shallow_state_goes_first() {
        let mut q = Layers::default();
        q.push(3, 30);
        q.push(4, 40);
        assert_eq!(q.pop(), Some((30, 3)));
        // Mailed at a depth the worker has left: ahead of the deeper ones.
        q.push(1, 5);
        q.push(4, 41);
        assert_eq!(drain(&mut q), [(5, 3), (40, 4), (41, 4)]);
    }
}
