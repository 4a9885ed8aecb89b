//! The `bag` fuzz target's input and invariants, shared by
//! `fuzz/fuzz_targets/bag.rs` (included there with `#[path]`) and the
//! stable replay of its corpus (`tests/bag/fuzz_corpus.rs`).
//!
//! An input that starts with MCAP's magic is a bag: read through
//! `bag::read_mcap` to its end or its error, each record decoded. Any
//! other input is one message: its first byte picks the type among
//! `bag::KNOWN_TYPES`, the rest is the CDR. Invariants: nothing panics;
//! a message that decodes has JSON, and encoding it, decoding that and
//! encoding again gives the same bytes.

use sat_collision::bag::{self, Message};

/// MCAP's magic, the first 8 bytes of a file.
pub const MCAP_MAGIC: &[u8] = b"\x89MCAP0\r\n";

/// Records read at most from one input (a fuzzer's bags are small).
const MAX_RECORDS: usize = 10_000;

/// Checks one fuzzer input.
pub fn check_bag_bytes(data: &[u8]) {
    if data.starts_with(MCAP_MAGIC) {
        let messages = bag::read_mcap("fuzz.mcap", std::io::Cursor::new(data.to_vec()));
        for record in messages.take(MAX_RECORDS) {
            let Ok(record) = record else { break };
            if let Ok(Some(message)) = record.decode() {
                check_message(&message);
            }
        }
    } else if let Some((&pick, cdr)) = data.split_first() {
        let name = bag::KNOWN_TYPES[usize::from(pick) % bag::KNOWN_TYPES.len()];
        if let Ok(Some(message)) = Message::decode(name, cdr) {
            assert_eq!(message.type_name(), name);
            check_message(&message);
        }
    }
}

fn check_message(message: &Message) {
    serde_json::to_vec(message).expect("a decoded message has JSON");
    let bytes = message.encode().expect("a decoded message encodes");
    let again = Message::decode(message.type_name(), &bytes)
        .expect("its encoding decodes")
        .expect("of a known type");
    assert_eq!(
        again.encode().as_deref(),
        Some(&bytes[..]),
        "{}",
        message.type_name()
    );
}
