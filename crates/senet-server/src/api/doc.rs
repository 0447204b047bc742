//! The OpenAPI document of the API, generated once from the handlers' `#[utoipa::path]`
//! annotations and the types of [`crate::wire`] (and the rule and analysis types they hold),
//! then finished in one place ([`finish`]): the description, the seat token's security
//! scheme, the values the server accepts for the lobby's choices, and `additionalProperties:
//! false` on every object, so that a field the document does not name is an error.

use crate::wire::{LiveMessage, LobbyMessage, Notice};
use serde_json::{json, Value};
use std::sync::OnceLock;
use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(
    paths(
        super::healthz,
        super::metrics,
        super::openapi,
        super::rules,
        super::rules_page,
        super::create,
        super::import,
        super::list,
        super::game,
        super::throw,
        super::play,
        super::hint,
        super::record,
        super::review,
        super::throws,
        super::ws,
        super::next,
        super::series,
        super::series_record,
        super::claim,
        super::reinvite,
        super::revoke,
        super::analysis,
        super::value,
        super::online::me,
        super::online::new_me,
        super::online::rename,
        super::online::delete_me,
        super::online::my_data,
        super::online::report,
        super::online::account,
        super::online::login,
        super::online::logout,
        super::online::password,
        super::online::seeks,
        super::online::new_seek,
        super::online::cancel_seek,
        super::online::accept,
        super::online::pairing,
        super::online::live_games,
        super::online::lobby_ws,
        super::online::resign,
        super::online::abort,
        super::online::claim_win,
        super::online::rematch,
        super::online::player,
        super::online::leaderboard,
        super::challenges::challenge,
        super::challenges::list,
        super::challenges::accept,
        super::challenges::decline,
        super::challenges::withdraw,
        super::puzzles::next,
        super::puzzles::daily,
        super::puzzles::puzzle,
        super::puzzles::solve,
        super::tournaments::create,
        super::tournaments::list,
        super::tournaments::get,
        super::tournaments::join,
        super::tournaments::leave,
        super::tournaments::start,
    ),
    components(schemas(LiveMessage, Notice, LobbyMessage))
)]
struct ApiDoc;

const TITLE: &str = "senet serve API";

const DESCRIPTION: &str = "The JSON API of `senet serve`, used by its own web page. Games are \
created in the lobby; each human seat gets a secret token, sent as `Authorization: Bearer TOKEN` \
for every change. The server throws from a per-game seed whose SHA-256 commitment (`seed_hash`) \
is published at the start and whose seed is revealed at the end (see /api/games/{id}/throws). \
Every accepted change is committed to the database before it is answered. Errors are \
`{\"error\": MESSAGE}` with a 4xx status; a refused request changes nothing. Limits (defaults; \
`senet serve --help` sets them): request bodies up to 16 KiB (413; 1 MiB for POST /api/games/import); 50 API requests per second \
per client address with bursts of 200 (429 with Retry-After; behind a proxy given by \
--trusted-proxy the client is the X-Forwarded-For address); a request's headers within 10 s, \
its body within 10 s (408), the whole request within 30 s (408); at most 512 open connections; \
at most 200 live (WebSocket) connections per game and 20 per client address (429). Request \
bodies are JSON objects; unknown fields are refused (400); a number field takes any whole \
number, also written with a fraction of zero (`3.0`). A change to a game is checked in this \
order, the first failure answering: a malformed Authorization header (400), the game (404), \
its authority (401 no token, 403 not a seat token of this game), its sequence (`seq`: 400 \
missing or unreadable, 409 stale), then its content (400 other fields, 409 out of turn or phase, 422 an \
illegal move). A database out of reach answers 503 with Retry-After. Bot replies are played in the \
background after the answer: watch the WebSocket (or GET the game) for them. This document is \
generated from the server's own types (utoipa); WebSocket messages are `LiveMessage`.";

/// The OpenAPI document (JSON), made on first use.
pub fn openapi_document() -> &'static str {
    static DOC: OnceLock<String> = OnceLock::new();
    DOC.get_or_init(|| {
        let doc = serde_json::to_value(ApiDoc::openapi()).map(|mut d| {
            finish(&mut d);
            d
        });
        match doc.and_then(|d| serde_json::to_string_pretty(&d)) {
            Ok(text) => text,
            Err(e) => {
                json!({ "error": format!("the OpenAPI document cannot be made: {e}") }).to_string()
            }
        }
    })
}

/// Finishes the generated document: see the module's description.
fn finish(doc: &mut Value) {
    doc["info"] = json!({
        "title": TITLE,
        "version": "1",
        "description": DESCRIPTION,
        "license": doc["info"]["license"].clone(),
    });
    doc["components"]["securitySchemes"] = json!({
        "seat": {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": TOKEN_FORMAT,
            "description": format!("a seat token from POST /api/games (`tokens`) or from claiming an invite (`token`): {TOKEN_FORMAT}, sent as `Authorization: Bearer TOKEN`; a header in another form, or a token over 128 characters, is refused (400)"),
        }
    });
    // The choices the server accepts, from the rules and bots crates; the service checks
    // them (with an explanation in words) rather than serde.
    let rules: Vec<Value> = senet_rules::RuleSet::ALL
        .iter()
        .map(|r| r.id().into())
        .collect();
    let levels: Vec<Value> = senet_bots::play::levels()
        .iter()
        .map(|&l| l.into())
        .collect();
    let with_null = |mut v: Vec<Value>| {
        v.push(Value::Null);
        Value::Array(v)
    };
    let schemas = &mut doc["components"]["schemas"];
    let new_game = &mut schemas["NewGame"]["properties"];
    new_game["rules"]["enum"] = Value::Array(rules.clone());
    new_game["mode"]["enum"] = json!(crate::service::MODES);
    new_game["bot"]["enum"] = with_null(levels.clone());
    new_game["seat"]["enum"] = json!([1, 2, null]);
    new_game["starts"]["enum"] =
        with_null(crate::service::STARTS.iter().map(|&s| s.into()).collect());
    let import = &mut schemas["ImportGame"]["properties"];
    import["mode"]["enum"] = json!(crate::service::import::IMPORT_MODES);
    import["bot"]["enum"] = with_null(levels);
    import["seat"]["enum"] = json!([1, 2, null]);
    schemas["State"]["properties"]["rules"]["enum"] = Value::Array(rules);
    // A series target's bounds (`Target::check`).
    for t in schemas["Target"]["oneOf"]
        .as_array_mut()
        .into_iter()
        .flatten()
    {
        let props = &mut t["properties"];
        for (name, max) in [
            ("points", 100_000),
            ("games", senet_rules::series::MAX_GAMES),
        ] {
            if let Some(p) = props.get_mut(name) {
                p["minimum"] = 1.into();
                p["maximum"] = max.into();
            }
        }
    }
    // utoipa tags each operation with its module's name; the API has no groups. Every
    // operation that reads or writes the database may find it out of reach: 503.
    if let Some(paths) = doc["paths"].as_object_mut() {
        for op in paths.values_mut().filter_map(Value::as_object_mut) {
            for o in op.values_mut().filter_map(Value::as_object_mut) {
                o.remove("tags");
                if let Some(r) = o.get_mut("responses").and_then(Value::as_object_mut) {
                    if r.contains_key("500") {
                        r.insert("503".into(), unavailable());
                    }
                }
            }
        }
    }
    strict(doc);
    // After `strict`: these subschemas constrain fields of NewGame, they do not close it.
    // The service's rule (`Service::create`): mode `bot` needs `bot`, a level; the other
    // modes take none (422 otherwise).
    let new_game = &mut doc["components"]["schemas"]["NewGame"];
    new_game["if"] = json!({ "properties": { "mode": { "const": "bot" } }, "required": ["mode"] });
    new_game["then"] =
        json!({ "required": ["bot"], "properties": { "bot": { "type": "string" } } });
    new_game["else"] = json!({ "properties": { "bot": { "type": "null" } } });
    let d = new_game["description"].as_str().unwrap_or("").to_string();
    new_game["description"] = format!(
        "{d}{}Mode `bot` needs `bot` (a level); modes `hotseat` and `online` take no `bot` (422 otherwise).",
        if d.is_empty() { "" } else { " " }
    )
    .into(); // The same rule for an uploaded game (`Service::import`); a hot-seat game takes no `seat`
             // either.
    let import = &mut doc["components"]["schemas"]["ImportGame"];
    import["if"] = json!({ "properties": { "mode": { "const": "bot" } }, "required": ["mode"] });
    import["then"] = json!({ "required": ["bot"], "properties": { "bot": { "type": "string" } } });
    import["else"] =
        json!({ "properties": { "bot": { "type": "null" }, "seat": { "type": "null" } } });
    let d = import["description"].as_str().unwrap_or("").to_string();
    import["description"] = format!(
        "{d}{}Mode `bot` needs `bot` (a level) and takes `seat`; mode `hotseat` takes neither (422 otherwise).",
        if d.is_empty() { "" } else { " " }
    )
    .into();
}

/// The form of the seat tokens the server mints (`random_token` in the service).
const TOKEN_FORMAT: &str = "32 lowercase hexadecimal digits";

/// The 503 response: the database is out of reach for a moment (`Failure::Unavailable`).
fn unavailable() -> Value {
    json!({
        "description": "the server is busy: its database cannot be reached just now; nothing was changed, and the same request may succeed after Retry-After seconds",
        "headers": { "Retry-After": { "description": "seconds to wait", "schema": { "type": "integer", "minimum": 1 } } },
        "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } },
    })
}

/// Sets `additionalProperties: false` on every object schema with properties that says
/// nothing of other fields.
fn strict(v: &mut Value) {
    match v {
        Value::Object(o) => {
            if o.contains_key("properties") && !o.contains_key("additionalProperties") {
                o.insert("additionalProperties".into(), Value::Bool(false));
            }
            for x in o.values_mut() {
                strict(x);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(strict),
        _ => {}
    }
}
