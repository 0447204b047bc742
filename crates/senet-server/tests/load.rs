//! A short, bounded loopback load run (debug build): many games at once through the HTTP
//! API, no request fails, and the database holds exactly the moves that were acknowledged.
//! The measurement itself is `cargo run --release -p senet-server --example load`.

mod support {
    pub mod load;
}

use senet_server::store::StoredEvent;
use senet_server::{SqliteStore, Store};

#[test]
fn concurrent_games_lose_no_acknowledged_move() {
    let dir = std::env::temp_dir().join(format!("senet-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plan = support::load::Plan {
        clients: 4,
        games_per_client: 4,
        seconds: 3.0,
        max_moves: 3_000,
        rules: "kendall5".into(),
        postgres: None,
        servers: 1,
    };
    let r = support::load::run(&plan, &dir);
    assert_eq!(r.errors, 0, "{r:?}");
    assert!(r.moves > 100, "{} moves", r.moves);
    assert!(r.created >= 16);
    let store = SqliteStore::open(&dir.join("load.sqlite")).unwrap();
    let mut total = 0;
    for (id, accepted) in &r.accepted {
        let g = store
            .load(id)
            .unwrap()
            .expect("every created game is stored");
        let stored = g
            .events
            .iter()
            .filter(|e| matches!(e, StoredEvent::Move(_)))
            .count() as u64;
        assert_eq!(stored, *accepted, "game {id}");
        total += stored;
    }
    assert_eq!(total, r.moves);
    std::fs::remove_dir_all(&dir).unwrap();
}
