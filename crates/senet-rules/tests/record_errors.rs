//! Issue 14: a malformed record is refused in words that name what is wrong (no "untagged
//! enum", no Rust type names), for records and series records alike.

use senet_rules::{Record, Series};

fn refused(text: &str) -> String {
    let e = Record::from_json(text).unwrap_err().to_string();
    for rust in ["untagged", "u32", "u64", "Some("] {
        assert!(!e.contains(rust), "{rust} in {e:?}");
    }
    e
}

#[test]
fn a_malformed_event_is_named_with_what_an_event_is() {
    let e = refused(
        r#"{"format":"senet-record/1","rules":"kendall5","events":[{"throw":"3"},{"throw":3}]}"#,
    );
    assert!(e.contains(r#"event 2 is {"throw":3}"#), "{e}");
    assert!(e.contains(r#"{"throw": "4"} or {"move": "10-14"}"#), "{e}");
    let e = refused(r#"{"format":"senet-record/1","rules":"kendall5","events":[{"move":14}]}"#);
    assert!(e.contains("event 1 is"), "{e}");
    let e = refused(r#"{"format":"senet-record/1","rules":"kendall5","seed":-1,"events":[]}"#);
    assert!(e.contains("expected a whole number"), "{e}");
    let e = refused(r#"{"format":"senet-record/1","rules":"kendall5","events":[],"extra":1}"#);
    assert!(e.contains("unknown field `extra`"), "{e}");
}

#[test]
fn a_malformed_series_record_is_refused_in_words() {
    let e = Series::from_json(
        r#"{"format":"senet-series/1","rules":"kendall5","target":{"points":"x"},"games":[]}"#,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("expected a whole number from 0 to 4294967295"),
        "{e}"
    );
    let e = Series::from_json(
        r#"{"format":"senet-series/1","rules":"kendall5","target":{"games":2},"games":[{"first":1,"record":{"format":"senet-record/1","rules":"kendall5","events":[{"throw":[]}]}}]}"#,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("game 1, event 1 is"), "{e}");
    assert!(!e.contains("untagged"), "{e}");
}
