//! Which edges can synchronise on which channel, computed once.

use crate::model::typed::Dir;
use crate::network::{ChannelIndex, Process};

/// `(process, edge)` pairs per channel element and direction. Edges whose
/// channel index depends on data are kept apart and matched at run time.
#[derive(Clone, Debug, Default)]
pub struct SyncTable {
    pub senders: Vec<Vec<(u32, u32)>>,
    pub receivers: Vec<Vec<(u32, u32)>>,
    pub dynamic_senders: Vec<(u32, u32)>,
    pub dynamic_receivers: Vec<(u32, u32)>,
}

impl SyncTable {
    pub fn new(processes: &[Process], channels: usize) -> Self {
        let mut t = SyncTable { senders: vec![Vec::new(); channels], receivers: vec![Vec::new(); channels], ..Default::default() };
        for (p, proc_) in processes.iter().enumerate() {
            for (e, edge) in proc_.edges.iter().enumerate() {
                let Some(s) = &edge.sync else { continue };
                let id = (p as u32, e as u32);
                match (&s.channel, s.dir) {
                    (ChannelIndex::Fixed(c), Dir::Send) => t.senders[*c as usize].push(id),
                    (ChannelIndex::Fixed(c), Dir::Receive) => t.receivers[*c as usize].push(id),
                    (ChannelIndex::Dynamic { .. }, Dir::Send) => t.dynamic_senders.push(id),
                    (ChannelIndex::Dynamic { .. }, Dir::Receive) => t.dynamic_receivers.push(id),
                }
            }
        }
        t
    }
}
