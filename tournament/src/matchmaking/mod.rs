//! Which games are played and by whom: the deterministic schedule, the run (workers,
//! resume, the SPRT's stop), its shards over several machines and their merge.

pub mod merge;
pub mod runner;
pub mod schedule;
pub mod shard;
