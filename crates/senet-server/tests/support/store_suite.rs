//! The `Store` conformance suite: the same checks for every backend (SQLite in
//! `tests/store.rs`, PostgreSQL in `tests/postgres.rs`).

use senet_server::store::{
    GameMeta, Seat, SeriesLink, SeriesMeta, Snapshot, Store, StoreError, StoredEvent,
};

pub fn meta(id: &str) -> GameMeta {
    GameMeta {
        id: id.into(),
        rules: "kendall5".into(),
        options: vec!["cap=500".into()],
        seed: u64::MAX - 3,
        seed_hash: "h".into(),
        mode: "online".into(),
        seats: [Seat::Human, Seat::Human],
        token_hashes: [Some("t1".into()), None],
        invite: Some("code".into()),
        created: 5,
        series: None,
        page_throws: false,
    }
}

pub fn snap(moves: u32) -> Snapshot {
    Snapshot {
        position: "p".into(),
        state: "throw".into(),
        player: Some(1),
        moves,
        updated: 7 + moves as i64,
        clock: None,
        deadline: None,
    }
}

/// Every check of the suite, on an empty store.
pub fn check(s: &dyn Store) {
    games_round_trip_and_appends_are_sequence_checked(s);
    series_keep_their_games_in_order(s);
    invites_are_claimed_once_and_revoked_only_while_open(s);
    analyses_are_kept_for_the_events_they_analysed(s);
    racing_appends_are_each_decided_once(s);
    a_game_ended_by_a_result_takes_no_more_events(s);
}

/// A game ended otherwise than by its rules (a resignation on one server) refuses an append
/// made at its event count (a move on another server that had not heard of it yet): the
/// append would put the ended game back in play, never to be rated or counted as over.
fn a_game_ended_by_a_result_takes_no_more_events(s: &dyn Store) {
    use senet_server::players::{self, GameResult};
    s.create(&meta("ended"), &[], &snap(0)).unwrap();
    let resign = GameResult {
        winner: Some(2),
        reason: "resign".into(),
    };
    assert!(players::finish(s, "ended", 0, &resign, None, 9).unwrap());
    assert_eq!(
        s.append("ended", 0, &[StoredEvent::Throw("3".into())], &snap(0)),
        Err(StoreError::Conflict)
    );
    assert!(s.load("ended").unwrap().unwrap().events.is_empty());
    let r = players::run(s, |tx| {
        tx.rows("SELECT state FROM games WHERE id = $1", &["ended".into()])
    })
    .unwrap();
    assert_eq!(r[0][0].text(), Some("over"), "the game stays over");
}

/// Writers racing on the same games at once (as two servers, or a server batching appends,
/// do): of two appends at one sequence number exactly one is stored, the other refused,
/// and the game holds exactly the events of the appends that succeeded, in order.
fn racing_appends_are_each_decided_once(s: &dyn Store) {
    const GAMES: usize = 4;
    const PER_GAME: usize = 3;
    const EVENTS: u32 = 30;
    for g in 0..GAMES {
        s.create(&meta(&format!("race{g}")), &[], &snap(0)).unwrap();
    }
    // Each writer appends to its game until it holds EVENTS events, rereading the count
    // after a refusal; it returns the (sequence number, value) of each of its successes.
    let won: Vec<Vec<(usize, u32, String)>> = std::thread::scope(|scope| {
        let writers: Vec<_> = (0..GAMES * PER_GAME)
            .map(|w| {
                scope.spawn(move || {
                    let (g, id) = (w % GAMES, format!("race{}", w % GAMES));
                    let mut mine = Vec::new();
                    let mut seq = 0;
                    while seq < EVENTS {
                        let value = format!("w{w}s{seq}");
                        let ev = [StoredEvent::Move(value.clone())];
                        match s.append(&id, seq, &ev, &snap(seq + 1)) {
                            Ok(()) => {
                                mine.push((g, seq, value));
                                seq += 1;
                            }
                            Err(StoreError::Conflict) => {
                                seq = s.load(&id).unwrap().unwrap().events.len() as u32
                            }
                            Err(e) => panic!("{e}"),
                        }
                    }
                    mine
                })
            })
            .collect();
        writers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    for g in 0..GAMES {
        let mut expected: Vec<(u32, String)> = won
            .iter()
            .flatten()
            .filter(|(wg, _, _)| *wg == g)
            .map(|(_, seq, v)| (*seq, v.clone()))
            .collect();
        expected.sort();
        let seqs: Vec<u32> = expected.iter().map(|e| e.0).collect();
        assert_eq!(
            seqs,
            (0..EVENTS).collect::<Vec<_>>(),
            "game {g}: one winner per seq"
        );
        let stored = s.load(&format!("race{g}")).unwrap().unwrap().events;
        let values: Vec<StoredEvent> = expected
            .into_iter()
            .map(|(_, v)| StoredEvent::Move(v))
            .collect();
        assert_eq!(stored, values, "game {g}: the winners' events, in order");
        let sum = s.summaries(&[format!("race{g}")]).unwrap();
        assert_eq!(sum[0].moves, EVENTS, "the last winner's snapshot");
    }
}

/// Issue 19: a game's analysis is kept once computed, for the number of events it covers.
fn analyses_are_kept_for_the_events_they_analysed(s: &dyn Store) {
    s.create(&meta("an"), &[StoredEvent::Throw("3".into())], &snap(0))
        .unwrap();
    assert_eq!(s.analysis("an", 1).unwrap(), None);
    s.put_analysis("an", 1, "{\"notes\":[]}").unwrap();
    assert_eq!(
        s.analysis("an", 1).unwrap().as_deref(),
        Some("{\"notes\":[]}")
    );
    assert_eq!(s.analysis("an", 2).unwrap(), None, "made for other events");
    s.put_analysis("an", 2, "{\"notes\":[1]}").unwrap();
    assert_eq!(
        s.analysis("an", 2).unwrap().as_deref(),
        Some("{\"notes\":[1]}")
    );
    assert_eq!(s.analysis("an", 1).unwrap(), None, "replaced");
    assert_eq!(s.analysis("nosuch", 1).unwrap(), None);
}

fn games_round_trip_and_appends_are_sequence_checked(s: &dyn Store) {
    s.create(&meta("a"), &[StoredEvent::Throw("3".into())], &snap(0))
        .unwrap();
    assert_eq!(s.create(&meta("a"), &[], &snap(0)), Err(StoreError::Exists));
    s.append("a", 1, &[StoredEvent::Move("1-4".into())], &snap(1))
        .unwrap();
    // A second writer that read the game before that append is refused, nothing changes.
    assert_eq!(
        s.append("a", 1, &[StoredEvent::Move("3-6".into())], &snap(1)),
        Err(StoreError::Conflict)
    );
    assert_eq!(
        s.append("a", 5, &[StoredEvent::Move("3-6".into())], &snap(1)),
        Err(StoreError::Conflict)
    );
    assert_eq!(
        s.append("nosuch", 0, &[StoredEvent::Move("3-6".into())], &snap(1)),
        Err(StoreError::Conflict)
    );
    let g = s.load("a").unwrap().unwrap();
    assert_eq!(g.meta, meta("a"));
    assert_eq!(
        g.events,
        vec![
            StoredEvent::Throw("3".into()),
            StoredEvent::Move("1-4".into())
        ]
    );
    assert_eq!(s.load("zz").unwrap(), None);
    // An uploaded offline game keeps its mark (and its empty seed hash).
    let mut up = meta("up");
    up.page_throws = true;
    up.seed_hash = String::new();
    up.mode = "bot".into();
    up.seats = [Seat::PageBot("expert".into()), Seat::Human];
    up.token_hashes = [None, Some("t2".into())];
    up.invite = None;
    s.create(&up, &[StoredEvent::Throw("3".into())], &snap(1))
        .unwrap();
    assert_eq!(s.load("up").unwrap().unwrap().meta, up);
    assert!(!s.load("a").unwrap().unwrap().meta.page_throws);
    s.create(&meta("b"), &[], &snap(0)).unwrap();
    s.append(
        "b",
        0,
        &[
            StoredEvent::Throw("2".into()),
            StoredEvent::Move("1-3".into()),
        ],
        &snap(3),
    )
    .unwrap();
    let l = s.summaries(&["zz".into(), "a".into(), "b".into()]).unwrap();
    assert_eq!(
        l.iter().map(|x| x.id.as_str()).collect::<Vec<_>>(),
        ["b", "a"],
        "most recently updated first"
    );
    assert_eq!(l[1].moves, 1);
    assert_eq!(l[1].seats, ["human".to_string(), "human".to_string()]);
    // Many appends in a row keep their order.
    for i in 2..40u32 {
        s.append("b", i, &[StoredEvent::Move(format!("m{i}"))], &snap(i))
            .unwrap();
    }
    assert_eq!(s.load("b").unwrap().unwrap().events.len(), 40);
}

fn series_keep_their_games_in_order(s: &dyn Store) {
    let sm = SeriesMeta {
        id: "s1".into(),
        rules: "kendall5".into(),
        options: vec![],
        target: "points:3".into(),
        starts: "alternate".into(),
        mode: "online".into(),
        seats: [Seat::Human, Seat::Bot("casual".into())],
        token_hashes: [Some("a".into()), None],
        created: 9,
    };
    let mut m = meta("g1");
    m.series = Some(SeriesLink {
        id: "s1".into(),
        index: 0,
        first: 1,
    });
    s.create_series(&sm, &m, &[], &snap(0)).unwrap();
    assert_eq!(
        s.create_series(&sm, &meta("g9"), &[], &snap(0)),
        Err(StoreError::Exists)
    );
    // The same place in the series cannot be taken twice.
    let mut m2 = meta("g2");
    m2.series = m.series.clone();
    assert_eq!(s.create(&m2, &[], &snap(0)), Err(StoreError::Exists));
    m2.series.as_mut().unwrap().index = 1;
    m2.series.as_mut().unwrap().first = 2;
    s.create(&m2, &[], &snap(0)).unwrap();
    let got = s.load_series("s1").unwrap().unwrap();
    assert_eq!(got.meta, sm);
    assert_eq!(
        got.games
            .iter()
            .map(|g| (g.id.as_str(), g.first))
            .collect::<Vec<_>>(),
        [("g1", 1), ("g2", 2)]
    );
    assert_eq!(s.load("g2").unwrap().unwrap().meta.series, m2.series);
    assert_eq!(s.load_series("zz").unwrap(), None);
}

fn invites_are_claimed_once_and_revoked_only_while_open(s: &dyn Store) {
    s.create(&meta("i1"), &[], &snap(0)).unwrap();
    assert!(!s.claim("i1", 2, 2, "wrong", "tok").unwrap());
    assert!(s.claim("i1", 2, 2, "code", "tok").unwrap());
    assert!(!s.claim("i1", 2, 2, "code", "tok2").unwrap(), "once only");
    let g = s.load("i1").unwrap().unwrap();
    assert_eq!(g.meta.token_hashes, [Some("t1".into()), Some("tok".into())]);
    assert_eq!(g.meta.invite, None);
    assert!(
        !s.set_invite("i1", 2, Some("new")).unwrap(),
        "the seat is taken"
    );
    // Revoked, then renewed: only the new code claims.
    s.create(&meta("i2"), &[], &snap(0)).unwrap();
    assert!(s.set_invite("i2", 2, None).unwrap());
    assert!(!s.claim("i2", 2, 2, "code", "tok").unwrap());
    assert!(s.set_invite("i2", 2, Some("new")).unwrap());
    assert!(!s.claim("i2", 2, 2, "code", "tok").unwrap());
    assert!(s.claim("i2", 2, 2, "new", "tok").unwrap());
    // A claim in a series' game gives the series seat its token too.
    let mut m = meta("i3");
    m.series = Some(SeriesLink {
        id: "s2".into(),
        index: 0,
        first: 2,
    });
    let sm = SeriesMeta {
        id: "s2".into(),
        rules: "kendall5".into(),
        options: vec![],
        target: "games:3".into(),
        starts: "alternate".into(),
        mode: "online".into(),
        seats: [Seat::Human, Seat::Human],
        token_hashes: [None, Some("t1".into())],
        created: 9,
    };
    s.create_series(&sm, &m, &[], &snap(0)).unwrap();
    assert!(s.claim("i3", 2, 1, "code", "tok3").unwrap());
    let got = s.load_series("s2").unwrap().unwrap();
    assert_eq!(
        got.meta.token_hashes,
        [Some("tok3".into()), Some("t1".into())]
    );
}
