//! Puzzles through the API (issue 57): the next puzzle is one not tried, near the player's
//! puzzle rating; an answer is judged with every move's win chance; the first answer moves
//! both Glicko-2 ratings and a later one nothing; the daily puzzle is fixed for the day; every
//! bad request is refused in words; attempts and ratings are the same on SQLite after a
//! reopen.

mod support {
    pub mod online;
    pub mod records;
}

use axum::http::StatusCode;
use senet_bots::puzzle::{self, Puzzle};
use senet_rules::RuleSet;
use senet_server::puzzles::{self as stored, NewPuzzle};
use senet_server::service::{new_puzzle, puzzle_id, starting_rating};
use senet_server::{router, Limits, Service, SqliteStore, Store};
use serde_json::{json, Value};
use std::sync::Arc;
use support::online::Browser;

fn limits() -> Limits {
    Limits {
        per_second: 0.0,
        ..Limits::default()
    }
}

/// A few real puzzles of `rules` (the generator's, seeded).
fn make(rules: RuleSet, n: usize) -> Vec<Puzzle> {
    let ps = puzzle::generate(rules, 7, n);
    assert!(!ps.is_empty(), "no {} puzzle generated", rules.id());
    ps
}

fn store_them(store: &dyn Store, ps: &[Puzzle]) {
    let rows: Vec<NewPuzzle> = ps.iter().map(new_puzzle).collect();
    let n = stored::insert(store, &rows, 0).unwrap();
    assert_eq!(n as usize, rows.len());
    // Storing them again adds nothing (another server made the same ones).
    assert_eq!(stored::insert(store, &rows, 0).unwrap(), 0);
}

fn find<'a>(ps: &'a [Puzzle], id: &str) -> &'a Puzzle {
    ps.iter()
        .find(|p| puzzle_id(p) == id)
        .expect("a stored puzzle")
}

fn is_error(r: &(StatusCode, Value), status: StatusCode, needle: &str) {
    assert_eq!(r.0, status, "{}", r.1);
    let e = r.1["error"].as_str().unwrap_or_default();
    assert!(e.contains(needle), "{e:?} lacks {needle:?}");
}

#[tokio::test]
async fn puzzles_are_served_near_the_rating_judged_and_rated_once() {
    let store: Arc<SqliteStore> = Arc::new(SqliteStore::in_memory().unwrap());
    let mut ps = make(RuleSet::Kendall5, 3);
    ps.extend(make(RuleSet::Parker, 2));
    store_them(&*store, &ps);
    let app = router(Service::new(store.clone()), limits());

    // Anyone may read a puzzle; its values come only with the answer.
    let mut anon = Browser::new(&app);
    let (s, z) = anon.call("GET", "/api/puzzles/next", None).await;
    assert_eq!(s, StatusCode::OK, "{z}");
    assert!(
        z.get("moves").is_none() && !z.to_string().contains("chance"),
        "{z}"
    );
    assert_eq!(z["you"], Value::Null);
    let (s, z2) = anon
        .call(
            "GET",
            &format!("/api/puzzles/{}", z["id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(z2["position"], z["position"]);
    is_error(
        &anon
            .call(
                "POST",
                &format!("/api/puzzles/{}/solve", z["id"].as_str().unwrap()),
                Some(json!({"move": "x"})),
            )
            .await,
        StatusCode::UNAUTHORIZED,
        "POST /api/me",
    );

    let mut b = Browser::join(&app).await;
    let (s, z) = b
        .call("GET", "/api/puzzles/next?rules=kendall5", None)
        .await;
    assert_eq!(s, StatusCode::OK, "{z}");
    assert_eq!(z["rules"], "kendall5");
    assert_eq!(z["you"]["rating"], 1500);
    assert_eq!(z["you"]["provisional"], true);
    let id = z["id"].as_str().unwrap().to_string();
    let p = find(&ps, &id);
    assert_eq!(z["throw"], p.throw.as_str());
    let legal: Vec<&str> = z["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    let mut want: Vec<&str> = p.moves.iter().map(|m| m.mv.as_str()).collect();
    let mut have = legal.clone();
    want.sort();
    have.sort();
    assert_eq!(
        have, want,
        "the puzzle's moves are the position's legal moves"
    );

    // Bad answers change nothing.
    is_error(
        &b.call(
            "POST",
            &format!("/api/puzzles/{id}/solve"),
            Some(json!({"move": "99-98"})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "not a legal move here; the legal moves are",
    );
    is_error(
        &b.send(
            "POST",
            &format!("/api/puzzles/{id}/solve"),
            Some(json!({"move": p.best})),
            false,
        )
        .await,
        StatusCode::FORBIDDEN,
        "X-CSRF-Token",
    );
    is_error(
        &b.call(
            "POST",
            &format!("/api/puzzles/{id}/solve"),
            Some(json!({"mv": p.best})),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "",
    );
    is_error(
        &b.call(
            "POST",
            "/api/puzzles/nosuch/solve",
            Some(json!({"move": p.best})),
        )
        .await,
        StatusCode::NOT_FOUND,
        "no puzzle \"nosuch\"",
    );

    // The best move solves it: the player wins against the puzzle.
    let (s, r) = b
        .call(
            "POST",
            &format!("/api/puzzles/{id}/solve"),
            Some(json!({"move": p.best})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["solved"], true);
    assert_eq!(r["rated"], true);
    assert_eq!(r["best"], p.best.as_str());
    assert_eq!(r["moves"].as_array().unwrap().len(), p.moves.len());
    assert!(
        r["moves"][0]["chance"].as_f64().unwrap() - r["moves"][1]["chance"].as_f64().unwrap()
            >= puzzle::MARGIN - 1e-12
    );
    assert_eq!(r["rating_before"], 1500);
    let after = r["rating_after"].as_i64().unwrap();
    assert!(after > 1500, "{r}");
    assert!(
        r["puzzle_rating"].as_i64().unwrap() < starting_rating(p).round() as i64,
        "{r}"
    );
    assert_eq!(r["you"]["tried"], 1);
    assert_eq!(r["you"]["solved"], 1);
    // A second answer is judged but not rated.
    let (_, again) = b
        .call(
            "POST",
            &format!("/api/puzzles/{id}/solve"),
            Some(json!({"move": p.best})),
        )
        .await;
    assert_eq!(again["rated"], false);
    assert_eq!(again["rating_after"].as_i64(), Some(after));
    assert_eq!(again["you"]["tried"], 1);

    // The player's data export holds the answer and the rating.
    let (s, data) = b.call("GET", "/api/me/data", None).await;
    assert_eq!(s, StatusCode::OK, "{data}");
    assert_eq!(data["puzzles"][0]["puzzle"], id.as_str());
    assert_eq!(data["puzzles"][0]["solved"], true);
    assert_eq!(data["puzzle_rating"]["rating"].as_i64(), Some(after));
    assert_eq!(data["challenges"]["incoming"], json!([]));

    // The next kendall5 puzzle is another one; a wrong answer loses rating.
    let (_, z) = b
        .call("GET", "/api/puzzles/next?rules=kendall5", None)
        .await;
    let id2 = z["id"].as_str().unwrap().to_string();
    assert_ne!(id2, id, "a tried puzzle is not offered again");
    let p2 = find(&ps, &id2);
    let wrong = &p2.moves.last().unwrap().mv;
    let (_, r) = b
        .call(
            "POST",
            &format!("/api/puzzles/{id2}/solve"),
            Some(json!({"move": wrong})),
        )
        .await;
    assert_eq!(r["solved"], false, "{r}");
    assert!(r["rating_after"].as_i64().unwrap() < after, "{r}");
    assert_eq!(r["you"]["tried"], 2);

    // Once every puzzle of a rule set is tried, it says so.
    let (_, z) = b
        .call("GET", "/api/puzzles/next?rules=kendall5", None)
        .await;
    let id3 = z["id"].as_str().unwrap().to_string();
    let best3 = find(&ps, &id3).best.clone();
    b.call(
        "POST",
        &format!("/api/puzzles/{id3}/solve"),
        Some(json!({"move": best3})),
    )
    .await;
    is_error(
        &b.call("GET", "/api/puzzles/next?rules=kendall5", None)
            .await,
        StatusCode::NOT_FOUND,
        "no puzzle of kendall5 is left",
    );
    let (s, z) = b.call("GET", "/api/puzzles/next", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(z["rules"], "parker", "the untried ones of any rule set");

    // Filters refused in words.
    is_error(
        &b.call("GET", "/api/puzzles/next?rules=chess", None).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "chess",
    );
    is_error(
        &b.call("GET", "/api/puzzles/next?theme=fork", None).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "the themes are: water",
    );
    is_error(
        &b.call("GET", "/api/puzzles/next?colour=red", None).await,
        StatusCode::BAD_REQUEST,
        "",
    );
    is_error(
        &b.call("GET", "/api/puzzles/zzz", None).await,
        StatusCode::NOT_FOUND,
        "no puzzle",
    );

    // The daily puzzle: the same for everyone, flagged.
    let (s, d) = b.call("GET", "/api/puzzles/daily", None).await;
    assert_eq!(s, StatusCode::OK, "{d}");
    assert_eq!(d["daily"], true);
    let (_, d2) = anon.call("GET", "/api/puzzles/daily", None).await;
    assert_eq!(d2["id"], d["id"]);
    let (_, d3) = anon
        .call(
            "GET",
            &format!("/api/puzzles/{}", d["id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(d3["daily"], true);
}

#[tokio::test]
async fn no_puzzles_yet_is_said_in_words() {
    let app = router(
        Service::new(Arc::new(SqliteStore::in_memory().unwrap())),
        limits(),
    );
    let mut b = Browser::join(&app).await;
    is_error(
        &b.call("GET", "/api/puzzles/daily", None).await,
        StatusCode::NOT_FOUND,
        "no puzzle yet",
    );
    is_error(
        &b.call("GET", "/api/puzzles/next", None).await,
        StatusCode::NOT_FOUND,
        "no puzzle at all",
    );
}

#[tokio::test]
async fn a_players_puzzle_rating_and_attempts_outlive_a_restart() {
    let dir = std::env::temp_dir().join(format!("senet-puzzles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("p.sqlite");
    let _ = std::fs::remove_file(&path);
    let ps = make(RuleSet::Kendall5, 2);
    let (cookie, csrf, id) = {
        let store = Arc::new(SqliteStore::open(&path).unwrap());
        store_them(&*store, &ps);
        let app = router(Service::new(store), limits());
        let mut b = Browser::join(&app).await;
        let (_, z) = b.call("GET", "/api/puzzles/next", None).await;
        let id = z["id"].as_str().unwrap().to_string();
        let best = find(&ps, &id).best.clone();
        let (_, r) = b
            .call(
                "POST",
                &format!("/api/puzzles/{id}/solve"),
                Some(json!({"move": best})),
            )
            .await;
        assert_eq!(r["solved"], true);
        (b.cookie.clone(), b.csrf.clone(), id)
    };
    let store = Arc::new(SqliteStore::open(&path).unwrap());
    let app = router(Service::new(store), limits());
    let mut b = Browser::new(&app);
    b.cookie = cookie;
    b.csrf = csrf;
    let (_, z) = b.call("GET", "/api/puzzles/next", None).await;
    assert_ne!(z["id"].as_str().unwrap(), id, "the attempt was kept");
    assert!(z["you"]["rating"].as_i64().unwrap() > 1500, "{z}");
    assert_eq!(z["you"]["tried"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_finished_games_blunders_become_puzzles_once() {
    let store: Arc<SqliteStore> = Arc::new(SqliteStore::in_memory().unwrap());
    let svc = Service::new(store.clone());
    let app = router(svc.clone(), limits());
    let mut b = Browser::join(&app).await;
    // A game of random moves, played to its end (uploaded as a page's offline game); with
    // this seed three of its decisions lost 10 points or more (most of a Senet game's
    // decisions are closer than that).
    let (rec, _) = support::records::random_game(RuleSet::Kendall5, 1);
    let rec: Value = serde_json::from_str(&rec.to_json()).unwrap();
    let (s, c) = b
        .call(
            "POST",
            "/api/games/import",
            Some(json!({ "record": rec, "mode": "hotseat" })),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let id = c["id"].as_str().unwrap();
    let made = svc.mine_games(10).await;
    assert!(made >= 1, "the game's blunders became puzzles");
    assert_eq!(svc.mine_games(10).await, 0, "a game is looked at once");
    // They are served like the others, with the game as their source.
    let (s, z) = b.call("GET", "/api/puzzles/next", None).await;
    assert_eq!(s, StatusCode::OK, "{z}");
    let row = stored::get(&*store, z["id"].as_str().unwrap())
        .unwrap()
        .unwrap();
    let p: Puzzle = serde_json::from_str(&row.data).unwrap();
    assert_eq!(p.source, format!("game:{id}"));
    puzzle::check(&p).unwrap();
}
