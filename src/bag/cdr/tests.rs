use super::*;

fn le(body: &[u8]) -> Vec<u8> {
    let mut data = vec![0, 1, 0, 0];
    data.extend_from_slice(body);
    data
}

fn be(body: &[u8]) -> Vec<u8> {
    let mut data = vec![0, 0, 0, 0];
    data.extend_from_slice(body);
    data
}

#[test]
fn alignment_is_relative_to_the_byte_after_the_header() {
    // u8 at 0, then a u32 at 4 (3 bytes of padding), then an f64 at 8.
    let mut body = vec![7, 0xAA, 0xAA, 0xAA];
    body.extend_from_slice(&0x0102_0304u32.to_le_bytes());
    body.extend_from_slice(&1.5f64.to_le_bytes());
    let data = le(&body);
    let mut r = CdrReader::new(&data).unwrap();
    assert_eq!(r.u8().unwrap(), 7);
    assert_eq!(r.u32().unwrap(), 0x0102_0304);
    assert_eq!(r.position(), 8);
    assert_eq!(r.f64().unwrap(), 1.5);
    assert_eq!(r.remaining(), 0);
    r.finish().unwrap();

    // A u32 then an f64: 4 bytes of padding before the f64 (8-aligned).
    let mut body = 9u32.to_le_bytes().to_vec();
    body.extend_from_slice(&[0; 4]);
    body.extend_from_slice(&(-2.0f64).to_le_bytes());
    let data = le(&body);
    let mut r = CdrReader::new(&data).unwrap();
    assert_eq!(u32::read(&mut r).unwrap(), 9);
    assert_eq!(f64::read(&mut r).unwrap(), -2.0);
}

#[test]
fn both_byte_orders_read_the_same_values() {
    let mut l = Vec::new();
    let mut b = Vec::new();
    l.extend_from_slice(&(-3i16).to_le_bytes());
    b.extend_from_slice(&(-3i16).to_be_bytes());
    l.extend_from_slice(&[0, 0]);
    b.extend_from_slice(&[0, 0]);
    l.extend_from_slice(&0.25f32.to_le_bytes());
    b.extend_from_slice(&0.25f32.to_be_bytes());
    l.extend_from_slice(&u64::MAX.wrapping_sub(5).to_le_bytes());
    b.extend_from_slice(&u64::MAX.wrapping_sub(5).to_be_bytes());
    l.extend_from_slice(&3u32.to_le_bytes());
    b.extend_from_slice(&3u32.to_be_bytes());
    l.extend_from_slice(b"ab\0");
    b.extend_from_slice(b"ab\0");
    for data in [le(&l), be(&b)] {
        let mut r = CdrReader::new(&data).unwrap();
        assert_eq!(i16::read(&mut r).unwrap(), -3);
        assert_eq!(f32::read(&mut r).unwrap(), 0.25);
        assert_eq!(u64::read(&mut r).unwrap(), u64::MAX - 5);
        assert_eq!(String::read(&mut r).unwrap(), "ab");
        r.finish().unwrap();
    }
}

#[test]
fn reads_past_the_end_are_errors_not_panics() {
    for body in [&[][..], &[1][..], &[1, 0, 0][..]] {
        let data = le(body);
        let mut r = CdrReader::new(&data).unwrap();
        assert_eq!(r.u32().unwrap_err().kind, CdrErrorKind::Truncated);
    }
    // Padding itself past the end.
    let data = le(&[1, 2]);
    let mut r = CdrReader::new(&data).unwrap();
    r.u8().unwrap();
    assert_eq!(r.f64().unwrap_err().kind, CdrErrorKind::Truncated);
    // A string whose length runs past the end.
    let data = le(&[10, 0, 0, 0, b'a']);
    let mut r = CdrReader::new(&data).unwrap();
    assert_eq!(r.string().unwrap_err().kind, CdrErrorKind::Truncated);
    // Less than a header.
    for data in [&[][..], &[0, 1, 0][..]] {
        assert_eq!(
            CdrReader::new(data).unwrap_err().kind,
            CdrErrorKind::Truncated
        );
    }
}

#[test]
fn only_plain_cdr_is_read() {
    // XCDR2 (00 07), parameter lists (00 03), garbage.
    for head in [[0u8, 7], [0, 3], [1, 1], [0xff, 0xff]] {
        let data = [head[0], head[1], 0, 0, 1, 2, 3, 4];
        assert_eq!(
            CdrReader::new(&data).unwrap_err().kind,
            CdrErrorKind::Encapsulation(head[0], head[1])
        );
    }
}

#[test]
fn a_sequence_length_is_checked_before_anything_is_allocated() {
    // 4 billion f64s announced, 8 bytes given.
    let mut body = u32::MAX.to_le_bytes().to_vec();
    body.extend_from_slice(&[0; 8]);
    let data = le(&body);
    let mut r = CdrReader::new(&data).unwrap();
    assert_eq!(
        Vec::<f64>::read(&mut r).unwrap_err().kind,
        CdrErrorKind::Truncated
    );
    // Bytes: as many as are left, no more.
    let data = le(&[3, 0, 0, 0, 1, 2, 3]);
    assert_eq!(
        Vec::<u8>::read(&mut CdrReader::new(&data).unwrap()).unwrap(),
        [1, 2, 3]
    );
    let data = le(&[4, 0, 0, 0, 1, 2, 3]);
    assert_eq!(
        Vec::<u8>::read(&mut CdrReader::new(&data).unwrap())
            .unwrap_err()
            .kind,
        CdrErrorKind::Truncated
    );
    // A field's own limit.
    let mut body = 5u32.to_le_bytes().to_vec();
    body.extend_from_slice(&[0; 20]);
    let data = le(&body);
    let mut r = CdrReader::new(&data).unwrap();
    let e = read_field::<Vec<f32>>(&mut r, "ranges", Some(4)).unwrap_err();
    assert_eq!(e.kind, CdrErrorKind::TooLong { len: 5, max: 4 });
    assert_eq!(e.field, Some("ranges"));
    assert_eq!(e.offset, 0);
    // The limit holds for that sequence only: the next one is free.
    let mut r = CdrReader::new(&data).unwrap();
    r.limit_next_sequence(5);
    assert_eq!(Vec::<f32>::read(&mut r).unwrap().len(), 5);
}

#[test]
fn strings_bools_and_trailing_bytes() {
    // Empty string written with its NUL, or with length 0; not UTF-8.
    let data = le(&[
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0xff, b'x', 0,
    ]);
    let mut r = CdrReader::new(&data).unwrap();
    assert_eq!(r.string().unwrap(), "");
    assert_eq!(r.string().unwrap(), "");
    assert_eq!(r.string().unwrap(), "\u{fffd}x");
    let data = le(&[2]);
    assert_eq!(
        bool::read(&mut CdrReader::new(&data).unwrap())
            .unwrap_err()
            .kind,
        CdrErrorKind::Bool(2)
    );
    // Up to 3 bytes of padding after the last field; 4 is another layout.
    let data = le(&[1, 0, 0, 0]);
    let mut r = CdrReader::new(&data).unwrap();
    r.u8().unwrap();
    r.finish().unwrap();
    let data = le(&[1, 0, 0, 0, 0]);
    let mut r = CdrReader::new(&data).unwrap();
    r.u8().unwrap();
    assert_eq!(r.finish().unwrap_err().kind, CdrErrorKind::TrailingBytes(4));
}

#[test]
fn the_writer_aligns_and_pads_as_rclpy_does() {
    let mut w = CdrWriter::new();
    7u8.write(&mut w);
    1.5f64.write(&mut w);
    "héllo".to_owned().write(&mut w);
    vec![1u16, 2].write(&mut w);
    let data = w.finish().unwrap();
    assert_eq!(&data[..4], &[0, 1, 0, 0]);
    assert_eq!(data[4], 7);
    assert_eq!(&data[5..12], &[0; 7]);
    let mut r = CdrReader::new(&data).unwrap();
    assert_eq!(u8::read(&mut r).unwrap(), 7);
    assert_eq!(f64::read(&mut r).unwrap(), 1.5);
    assert_eq!(String::read(&mut r).unwrap(), "héllo");
    assert_eq!(Vec::<u16>::read(&mut r).unwrap(), [1, 2]);
    r.finish().unwrap();
}

#[test]
fn floats_that_are_not_finite_have_names_in_json() {
    let json = |v: f64| serde_json::to_string(&Json(&v)).unwrap();
    assert_eq!(json(f64::NAN), "\"NaN\"");
    assert_eq!(json(f64::INFINITY), "\"Infinity\"");
    assert_eq!(json(f64::NEG_INFINITY), "\"-Infinity\"");
    assert_eq!(json(-0.5), "-0.5");
    assert_eq!(serde_json::to_string(&Json(&0.1f32)).unwrap(), "0.1");
    assert_eq!(
        serde_json::to_string(&Json(&vec![f32::NAN, 1.0])).unwrap(),
        "[\"NaN\",1.0]"
    );
}
