//! `sat_collision replay` (`sat_collision::replay`): bags written here
//! with `bag::BagWriter` replayed through the node's core, the outputs
//! checked message by message; bad bags; the command line.

mod bad_input;
mod cli;
mod common;
mod example;
mod nav2_bag;
mod sources;
