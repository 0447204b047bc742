//! The OpenAPI document against the server: real responses of a scripted session (every
//! endpoint, successes and refusals) are validated against the schemas the document gives
//! for their path, method and status; the enums of rule sets and levels are the server's;
//! the router's API routes are the document's paths, with the same methods.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use senet_server::api::API_ROUTES;
use senet_server::{router, Limits, Service, SqliteStore};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use tower::ServiceExt;

mod support {
    pub mod online;
    pub mod records;
}
use support::online::{seek_and_accept, Browser};

/// The JSON types a schema's `type` allows (a name or a list of names; none: any).
fn types(schema: &Value) -> Vec<&str> {
    match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Whether `v` is of the JSON type `t`.
fn is_type(t: &str, v: &Value, at: &str) -> Result<bool, String> {
    Ok(match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        // JSON Schema: any number whose fraction is zero (`3.0` too).
        "integer" => v.as_f64().is_some_and(|f| f.fract() == 0.0),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        _ => return Err(format!("{at}: unknown type {t} in the document")),
    })
}

/// JSON Schema's equality: numbers by value (`2.0` is `2`), anything else as JSON.
fn same(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// Validates `v` against `schema` (the subset of OpenAPI 3.1 / JSON Schema the generated
/// document uses: `$ref`, `allOf`/`anyOf`/`oneOf`, `if`/`then`/`else`, `type` as a name or a
/// list, `enum`, `const`, `minimum`/`maximum`, `minLength`/`maxLength`, `required`,
/// `properties`, `additionalProperties`, `items` (a schema or `false`), `prefixItems`,
/// `minItems`/`maxItems`, and 3.0's `nullable`); returns the first mismatch with its place.
fn validate(doc: &Value, schema: &Value, v: &Value, at: &str) -> Result<(), String> {
    if let Some(r) = schema["$ref"].as_str() {
        let name = r
            .strip_prefix("#/components/schemas/")
            .ok_or_else(|| format!("{at}: a $ref outside the schemas: {r}"))?;
        let target = &doc["components"]["schemas"][name];
        if !target.is_object() {
            return Err(format!("{at}: $ref to a missing schema {name}"));
        }
        validate(doc, target, v, at)?;
    }
    for s in schema["allOf"].as_array().into_iter().flatten() {
        validate(doc, s, v, at)?;
    }
    if let Some(any) = schema["anyOf"].as_array() {
        if !any.iter().any(|s| validate(doc, s, v, at).is_ok()) {
            return Err(format!("{at}: {v} matches none of anyOf"));
        }
    }
    if let Some(one) = schema["oneOf"].as_array() {
        let results: Vec<Result<(), String>> =
            one.iter().map(|s| validate(doc, s, v, at)).collect();
        let n = results.iter().filter(|r| r.is_ok()).count();
        if n != 1 {
            let why: Vec<String> = results.into_iter().filter_map(Result::err).collect();
            return Err(format!(
                "{at}: {v} matches {n} of the {} schemas of oneOf, not one ({why:?})",
                one.len()
            ));
        }
    }
    if let Some(cond) = schema.get("if") {
        let branch = if validate(doc, cond, v, at).is_ok() {
            schema.get("then")
        } else {
            schema.get("else")
        };
        if let Some(b) = branch {
            validate(doc, b, v, at)?;
        }
    }
    if let Some(c) = schema.get("const") {
        if !same(c, v) {
            return Err(format!("{at}: {v} is not {c}"));
        }
    }
    if let Some(t) = v.as_str() {
        let n = t.chars().count() as u64;
        if schema["minLength"].as_u64().is_some_and(|m| n < m)
            || schema["maxLength"].as_u64().is_some_and(|m| n > m)
        {
            return Err(format!("{at}: {t:?} has {n} characters, out of the bounds"));
        }
    }
    let ts = types(schema);
    if v.is_null() {
        let allowed = ts.is_empty() || ts.contains(&"null") || schema["nullable"] == true;
        if !allowed {
            return Err(format!("{at}: null, but not nullable"));
        }
    } else if !ts.is_empty() {
        let mut ok = false;
        for t in &ts {
            ok |= is_type(t, v, at)?;
        }
        if !ok {
            return Err(format!("{at}: {v} is not of type {ts:?}"));
        }
    }
    if let Some(e) = schema["enum"].as_array() {
        if !e.iter().any(|x| same(x, v)) {
            return Err(format!("{at}: {v} is not one of {e:?}"));
        }
    }
    if let Some(n) = v.as_f64() {
        if schema["minimum"].as_f64().is_some_and(|m| n < m)
            || schema["maximum"].as_f64().is_some_and(|m| n > m)
        {
            return Err(format!("{at}: {n} is out of range"));
        }
    }
    if let Some(o) = v.as_object() {
        for r in schema["required"].as_array().into_iter().flatten() {
            let r = r.as_str().unwrap();
            if !o.contains_key(r) {
                return Err(format!("{at}: the required field {r} is missing"));
            }
        }
        for (k, x) in o {
            match schema["properties"].get(k) {
                Some(s) => validate(doc, s, x, &format!("{at}.{k}"))?,
                None => match &schema["additionalProperties"] {
                    Value::Bool(false) => {
                        return Err(format!("{at}: the field {k} is not in the document"))
                    }
                    s @ Value::Object(_) => validate(doc, s, x, &format!("{at}.{k}"))?,
                    _ => {}
                },
            }
        }
    }
    if let Some(a) = v.as_array() {
        let prefix = schema["prefixItems"]
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        for (i, x) in a.iter().enumerate() {
            let place = format!("{at}[{i}]");
            match (prefix.get(i), &schema["items"]) {
                (Some(s), _) => validate(doc, s, x, &place)?,
                (None, Value::Bool(false)) => {
                    return Err(format!("{place}: more items than the document allows"))
                }
                (None, s @ Value::Object(_)) => validate(doc, s, x, &place)?,
                (None, _) => {}
            }
        }
        if schema["minItems"]
            .as_u64()
            .is_some_and(|m| (a.len() as u64) < m)
            || schema["maxItems"]
                .as_u64()
                .is_some_and(|m| (a.len() as u64) > m)
        {
            return Err(format!("{at}: {} items", a.len()));
        }
    }
    Ok(())
}

/// The document's path template for a request path.
fn template<'a>(doc: &'a Value, path: &str) -> Option<&'a str> {
    let path = path.split('?').next().unwrap();
    // A path of its own (`/api/games/import`) before a template it also fits.
    if let Some((t, _)) = doc["paths"].as_object()?.get_key_value(path) {
        return Some(t);
    }
    let segs: Vec<&str> = path.split('/').collect();
    doc["paths"]
        .as_object()?
        .keys()
        .map(String::as_str)
        .find(|t| {
            let ts: Vec<&str> = t.split('/').collect();
            ts.len() == segs.len()
                && ts
                    .iter()
                    .zip(&segs)
                    .all(|(a, b)| a == b || (a.starts_with('{') && a.ends_with('}')))
        })
}

struct Checker {
    app: Router,
    doc: Value,
    checked: std::collections::BTreeSet<String>,
}

impl Checker {
    /// Sends a request and validates its answer against the document.
    async fn call(
        &mut self,
        method: &str,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut r = Request::builder().method(method).uri(uri);
        if let Some(t) = token {
            r = r.header("authorization", format!("Bearer {t}"));
        }
        let req = r
            .header("content-type", "application/json")
            .body(
                body.clone()
                    .map_or(Body::empty(), |b| Body::from(b.to_string())),
            )
            .unwrap();
        let res = self.app.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let ctype = res
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_string());
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        let t = template(&self.doc, uri).unwrap_or_else(|| panic!("{uri} is not documented"));
        let op = &self.doc["paths"][t][method.to_lowercase()];
        assert!(op.is_object(), "{method} {t} is not documented");
        let resp = &op["responses"][status.as_str()];
        assert!(
            resp.is_object(),
            "{method} {uri}: status {status} is not documented ({v})"
        );
        if let Some(s) = resp["content"]["application/json"].get("schema") {
            assert_eq!(ctype.as_deref(), Some("application/json"), "{method} {uri}");
            if let Err(e) = validate(&self.doc, s, &v, "response") {
                panic!("{method} {uri} {status}: {e}\n{v}");
            }
        }
        // The request body, when the call is meant to succeed, matches the document too.
        if status.is_success() {
            if let (Some(b), Some(s)) = (
                &body,
                op["requestBody"]["content"]["application/json"].get("schema"),
            ) {
                if let Err(e) = validate(&self.doc, s, b, "request") {
                    panic!("{method} {uri}: {e}");
                }
            }
        }
        self.checked
            .insert(format!("{method} {t} {}", status.as_u16()));
        (status, v)
    }
}

#[tokio::test]
async fn real_responses_match_the_openapi_document() {
    let svc = Service::new(Arc::new(SqliteStore::in_memory().unwrap()));
    let app = router(
        svc.clone(),
        Limits {
            per_second: 0.0,
            ..Limits::default()
        },
    );
    let doc: Value = serde_json::from_str(senet_server::api::openapi_document()).unwrap();
    let mut c = Checker {
        app,
        doc: doc.clone(),
        checked: Default::default(),
    };

    // The enums of rule sets and levels are the server's.
    let (_, rules) = c.call("GET", "/api/rules", None, None).await;
    let ids: Vec<Value> = rules["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].clone())
        .collect();
    assert_eq!(
        doc["components"]["schemas"]["NewGame"]["properties"]["rules"]["enum"],
        Value::Array(ids)
    );
    let mut levels = rules["levels"].as_array().unwrap().clone();
    levels.push(Value::Null); // "bot" may be null (no bot)
    assert_eq!(
        doc["components"]["schemas"]["NewGame"]["properties"]["bot"]["enum"],
        Value::Array(levels)
    );

    // Objects are closed: a field the document does not name fails, at any depth.
    let schema = &doc["paths"]["/api/rules"]["get"]["responses"]["200"]["content"]
        ["application/json"]["schema"];
    validate(&doc, schema, &rules, "rules").unwrap();
    for place in [
        "/surprise",
        "/rules/0/surprise",
        "/rules/0/options/0/surprise",
    ] {
        let mut v = rules.clone();
        let (parent, field) = place.rsplit_once('/').unwrap();
        v.pointer_mut(parent).unwrap()[field] = json!(1);
        let e = validate(&doc, schema, &v, "rules").unwrap_err();
        assert!(e.contains("surprise"), "{place}: {e}");
    }

    c.call("GET", "/api/openapi.json", None, None).await;
    // Issue 32: every rule set's rules page (with its demonstrations), and an unknown one.
    for id in rules["rules"].as_array().unwrap() {
        let id = id["id"].as_str().unwrap();
        let (s, p) = c.call("GET", &format!("/api/rules/{id}"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{p}");
        assert!(!p["sections"].as_array().unwrap().is_empty(), "{id}");
    }
    // Issue 32: parker's view carries each player's path (P1), an optional field the
    // document names; the 30-square tracks leave it out.
    let board = &doc["components"]["schemas"]["BoardView"];
    assert!(board["properties"]["paths"].is_object(), "{board}");
    assert!(!board["required"]
        .as_array()
        .unwrap()
        .contains(&json!("paths")));
    let (_, p) = c.call("GET", "/api/rules/parker", None, None).await;
    let paths = p["start"]["paths"].as_array().unwrap();
    assert_eq!(paths.len(), 2);
    assert!(paths.iter().all(|x| x.as_array().unwrap().len() == 20));
    let (_, k) = c.call("GET", "/api/rules/kendall", None, None).await;
    assert!(k["start"].get("paths").is_none(), "{}", k["start"]);
    let mut bad = p.clone();
    bad["start"]["paths"] = json!([["a1"]]);
    let schema = &doc["paths"]["/api/rules/{id}"]["get"]["responses"]["200"]["content"]
        ["application/json"]["schema"];
    assert!(validate(&doc, schema, &bad, "parker").is_err());
    validate(&doc, schema, &p, "parker").unwrap();
    let (s, e) = c.call("GET", "/api/rules/chess", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(e["error"].as_str().unwrap().contains("chess"), "{e}");
    // A hot-seat game played to its end, with its record, review and throws.
    let (s, g) = c
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({ "rules": "kendall5", "mode": "hotseat" })),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let id = g["id"].as_str().unwrap().to_string();
    let tokens = g["tokens"].clone();
    let mut st = g["state"].clone();
    let mut n = 0;
    while st["status"]["state"] != "over" {
        let tok = tokens[st["status"]["player"].to_string()]
            .as_str()
            .unwrap()
            .to_string();
        let r = if st["status"]["state"] == "throw" {
            c.call(
                "POST",
                &format!("/api/games/{id}/throw"),
                Some(&tok),
                Some(json!({ "seq": st["seq"] })),
            )
            .await
        } else {
            if n % 50 == 1 {
                c.call("GET", &format!("/api/games/{id}/hint"), Some(&tok), None)
                    .await;
            }
            let m = st["legal"][0]["move"].clone();
            c.call(
                "POST",
                &format!("/api/games/{id}/move"),
                Some(&tok),
                Some(json!({ "move": m, "seq": st["seq"] })),
            )
            .await
        };
        assert_eq!(r.0, StatusCode::OK, "{}", r.1);
        st = r.1;
        n += 1;
    }
    c.call("GET", &format!("/api/games/{id}"), None, None).await;
    c.call("GET", &format!("/api/games/{id}/review?at=3"), None, None)
        .await;
    c.call("GET", &format!("/api/games/{id}/throws"), None, None)
        .await;
    // The finished game's analysis: running (202) until done (200).
    let mut done = false;
    for _ in 0..600 {
        let (s, _) = c
            .call("GET", &format!("/api/games/{id}/analysis"), None, None)
            .await;
        if s == StatusCode::OK {
            done = true;
            break;
        }
        assert_eq!(s, StatusCode::ACCEPTED);
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(done, "the analysis did not finish in a minute");
    c.call("GET", &format!("/api/games?ids={id},nosuch"), None, None)
        .await;
    // The finished game uploaded as if played offline (its record without the seed), in
    // both modes; its throws cannot be checked (409). Refusals: a seed, no record.
    let (_, mut rec) = c
        .call("GET", &format!("/api/games/{id}/record"), None, None)
        .await;
    let seed = rec.as_object_mut().unwrap().remove("seed");
    assert!(seed.is_some(), "{rec}");
    for body in [
        json!({ "record": rec, "mode": "hotseat" }),
        json!({ "record": rec, "mode": "bot", "bot": "expert", "seat": 2 }),
    ] {
        let (s, up) = c.call("POST", "/api/games/import", None, Some(body)).await;
        assert_eq!(s, StatusCode::CREATED, "{up}");
        assert_eq!(up["state"]["page_throws"], true);
        let uid = up["id"].as_str().unwrap();
        let (s, _) = c
            .call("GET", &format!("/api/games/{uid}/throws"), None, None)
            .await;
        assert_eq!(s, StatusCode::CONFLICT);
        c.call("GET", &format!("/api/games/{uid}"), None, None)
            .await;
    }
    let mut seeded = rec.clone();
    seeded["seed"] = seed.unwrap();
    let (s, _) = c
        .call(
            "POST",
            "/api/games/import",
            None,
            Some(json!({ "record": seeded, "mode": "hotseat" })),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let (s, _) = c
        .call(
            "POST",
            "/api/games/import",
            None,
            Some(json!({ "mode": "hotseat" })),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    // Refusals.
    let t1 = tokens["1"].as_str().unwrap();
    for (m, u, tok, b) in [
        (
            "POST",
            format!("/api/games/{id}/throw"),
            Some(t1),
            Some(json!({ "seq": 0 })),
        ),
        ("POST", format!("/api/games/{id}/throw"), None, None),
        ("POST", format!("/api/games/{id}/throw"), Some("abc"), None),
        (
            "POST",
            format!("/api/games/{id}/move"),
            Some(t1),
            Some(json!({ "mv": 1 })),
        ),
        ("GET", "/api/games/nosuch".to_string(), None, None),
        // Not a WebSocket handshake; a query given twice: JSON errors too.
        ("GET", format!("/api/games/{id}/ws"), None, None),
        ("GET", "/api/games?ids=a&ids=b".to_string(), None, None),
        (
            "GET",
            format!("/api/games/{id}/review?at=99999"),
            None,
            None,
        ),
        (
            "POST",
            "/api/games".to_string(),
            None,
            Some(json!({ "rules": "chess", "mode": "hotseat" })),
        ),
        (
            "POST",
            "/api/games".to_string(),
            None,
            Some(json!({ "rules": "kendall" })),
        ),
    ] {
        let (s, v) = c.call(m, &u, tok, b).await;
        assert!(s.is_client_error(), "{m} {u}: {s} {v}");
    }
    // An online game: claim, a second claim, revoke and renew.
    let (_, o) = c
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({ "rules": "kendall", "mode": "online", "seat": 2 })),
        )
        .await;
    let oid = o["id"].as_str().unwrap().to_string();
    let ot = o["tokens"]["2"].as_str().unwrap().to_string();
    // Its creator watches live: every WebSocket message is checked below.
    let me: std::net::IpAddr = [127, 0, 0, 1].into();
    let mut sub = svc
        .subscribe(me, &oid, senet_server::service::Who::token(Some(&ot)))
        .await
        .unwrap();
    let code = o["invite"]
        .as_str()
        .unwrap()
        .split("claim=")
        .nth(1)
        .unwrap()
        .to_string();
    c.call(
        "DELETE",
        &format!("/api/games/{oid}/invite"),
        Some(&ot),
        None,
    )
    .await;
    let (_, inv) = c
        .call("POST", &format!("/api/games/{oid}/invite"), Some(&ot), None)
        .await;
    let code2 = inv["invite"]
        .as_str()
        .unwrap()
        .split("claim=")
        .nth(1)
        .unwrap()
        .to_string();
    c.call(
        "POST",
        &format!("/api/games/{oid}/claim"),
        None,
        Some(json!({ "code": code })),
    )
    .await;
    let (s, _) = c
        .call(
            "POST",
            &format!("/api/games/{oid}/claim"),
            None,
            Some(json!({ "code": code2 })),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    c.call(
        "POST",
        &format!("/api/games/{oid}/claim"),
        None,
        Some(json!({ "code": code2 })),
    )
    .await;
    c.call(
        "DELETE",
        &format!("/api/games/{oid}/invite"),
        Some(&ot),
        None,
    )
    .await;
    // A series against a bot, with its next game.
    let (_, sg) = c.call("POST", "/api/games", None, Some(json!({ "rules": "kendall5", "mode": "bot", "bot": "beginner", "series": { "games": 2 } }))).await;
    let sid = sg["series"].as_str().unwrap().to_string();
    let gid = sg["id"].as_str().unwrap().to_string();
    c.call("GET", &format!("/api/series/{sid}"), None, None)
        .await;
    c.call(
        "POST",
        &format!("/api/games/{gid}/next"),
        Some(sg["tokens"]["1"].as_str().unwrap()),
        Some(json!({ "seq": 0 })),
    )
    .await;
    c.call("GET", "/api/series/nosuch", None, None).await;

    // Issue 19: the stateless valuation, and the analysis of a game not over.
    let pos = "kendall5 ....XX...................X..O. off=2,4 turn=1 throw=- dec=40";
    c.call("POST", "/api/value", None, Some(json!({ "position": pos })))
        .await;
    c.call(
        "POST",
        "/api/value",
        None,
        Some(json!({ "position": pos, "throw": "3" })),
    )
    .await;
    c.call(
        "POST",
        "/api/value",
        None,
        Some(json!({ "position": "nonsense" })),
    )
    .await;
    c.call(
        "POST",
        "/api/value",
        None,
        Some(json!({ "position": pos, "x": 1 })),
    )
    .await;
    c.call("GET", &format!("/api/games/{gid}/analysis"), None, None)
        .await;

    // The live messages: the state, presence, and the invite's changes.
    let live = json!({ "$ref": "#/components/schemas/LiveMessage" });
    let mut kinds = BTreeSet::new();
    let mut msgs: Vec<String> = vec![sub.first.clone()];
    while let Ok(m) = sub.rx.try_recv() {
        msgs.push(m.to_string());
    }
    for m in msgs {
        let v: Value = serde_json::from_str(&m).unwrap();
        if let Err(e) = validate(&doc, &live, &v, "message") {
            panic!("WebSocket: {e}\n{v}");
        }
        kinds.insert(v["type"].as_str().unwrap().to_string());
    }
    svc.unsubscribe(&sub).await;
    assert_eq!(
        kinds,
        ["invite", "presence", "state"]
            .into_iter()
            .map(String::from)
            .collect()
    );

    for must in [
        "POST /api/value 200",
        "POST /api/value 400",
        "POST /api/value 422",
        "GET /api/games/{id}/analysis 409",
        "GET /api/games/{id}/analysis 202",
        "GET /api/games/{id}/analysis 200",
        "GET /api/games/{id}/hint 200",
        "GET /api/games/{id}/ws 400",
        "GET /api/games 400",
        "POST /api/games 201",
        "POST /api/games 400",
        "POST /api/games 422",
        "POST /api/games/{id}/throw 200",
        "POST /api/games/{id}/move 200",
        "POST /api/games/{id}/claim 200",
        "POST /api/games/{id}/claim 409",
        "DELETE /api/games/{id}/invite 200",
        "POST /api/games/{id}/invite 200",
        "GET /api/games/{id}/review 200",
        "GET /api/games/{id}/throws 200",
        "GET /api/games/{id}/throws 409",
        "POST /api/games/import 201",
        "POST /api/games/import 400",
        "POST /api/games/import 422",
        "GET /api/series/{id} 200",
        "POST /api/games/{id}/next 409",
    ] {
        assert!(
            c.checked.contains(must),
            "{must} was not exercised: {:?}",
            c.checked
        );
    }
}

/// The methods the document gives each path.
fn documented(doc: &Value) -> BTreeMap<String, BTreeSet<String>> {
    const METHODS: [&str; 8] = [
        "get", "put", "post", "delete", "options", "head", "patch", "trace",
    ];
    doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(p, item)| {
            let ms = item
                .as_object()
                .unwrap()
                .keys()
                .filter(|k| METHODS.contains(&k.as_str()))
                .cloned()
                .collect();
            (p.clone(), ms)
        })
        .collect()
}

#[tokio::test]
async fn every_api_route_is_documented_with_the_methods_it_serves() {
    let doc: Value = serde_json::from_str(senet_server::api::openapi_document()).unwrap();
    // The router's API table and the document name the same paths and methods: a handler
    // routed without a `#[utoipa::path]` annotation (or documented but not routed) fails here.
    let routed: BTreeMap<String, BTreeSet<String>> = API_ROUTES
        .iter()
        .chain(senet_server::api::OPERATOR_ROUTES)
        .map(|(p, ms)| (p.to_string(), ms.iter().map(|m| m.to_string()).collect()))
        .collect();
    assert_eq!(routed, documented(&doc));

    // The table is what the router serves: each route answers its methods (not the API's
    // fallback, not 405) and refuses the others with 405.
    let app = router(
        Service::new(Arc::new(SqliteStore::in_memory().unwrap())),
        Limits {
            per_second: 0.0,
            ..Limits::default()
        },
    );
    for (path, methods) in API_ROUTES {
        let uri = path.replace("{id}", "nosuch");
        for m in ["GET", "POST", "PUT", "DELETE", "PATCH"] {
            let req = Request::builder()
                .method(m)
                .uri(&uri)
                .body(Body::empty())
                .unwrap();
            let res = app.clone().oneshot(req).await.unwrap();
            let status = res.status();
            let bytes = res.into_body().collect().await.unwrap().to_bytes();
            let text = String::from_utf8_lossy(&bytes);
            if methods.contains(&m.to_lowercase().as_str()) {
                assert!(
                    status != StatusCode::METHOD_NOT_ALLOWED && !text.contains("no endpoint"),
                    "{m} {uri} is in the table but not served: {status} {text}"
                );
            } else {
                assert_eq!(
                    status,
                    StatusCode::METHOD_NOT_ALLOWED,
                    "{m} {uri} is served but not in the table"
                );
            }
        }
    }

    // Every operation documents the refusals every API route can give: the rate limit (429)
    // and, with a body, a malformed (400), too large (413) or late (408) one; every error is
    // an Error; every operation has a summary.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (m, op) in item.as_object().unwrap() {
            let codes = &op["responses"];
            assert!(op["summary"].is_string(), "{m} {path} has no summary");
            // The operator's routes outside /api/ are not rate limited.
            let mut needed = if path.starts_with("/api/") {
                vec!["429"]
            } else {
                vec![]
            };
            if op.get("requestBody").is_some() {
                needed.extend(["400", "408", "413"]);
            }
            for c in needed {
                assert!(codes.get(c).is_some(), "{m} {path} does not document {c}");
            }
            for (c, r) in codes.as_object().unwrap() {
                // `/healthz` answers its own body when unhealthy (503): what a load balancer
                // and an operator read.
                if (c.starts_with('4') || c.starts_with('5')) && path != "/healthz" {
                    assert_eq!(
                        r["content"]["application/json"]["schema"]["$ref"],
                        "#/components/schemas/Error",
                        "{m} {path} {c}"
                    );
                }
            }
        }
    }
}

/// The request body schema of an operation, resolved.
fn request_schema<'a>(doc: &'a Value, method: &str, path: &str) -> &'a Value {
    let s = &doc["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"];
    match s["$ref"].as_str() {
        Some(r) => &doc["components"]["schemas"][r.trim_start_matches("#/components/schemas/")],
        None => s,
    }
}

#[tokio::test]
async fn the_document_states_the_rules_the_server_applies_to_requests() {
    // Issue 36: empty `position`/`code` refused without `minLength`, whole-number floats
    // refused though `integer` allows them, the rule "mode bot needs bot" and the token's
    // form missing from the document. Each body below is judged by the document and by the
    // server, which must agree.
    let doc: Value = serde_json::from_str(senet_server::api::openapi_document()).unwrap();
    let app = router(
        Service::new(Arc::new(SqliteStore::in_memory().unwrap())),
        Limits {
            per_second: 0.0,
            ..Limits::default()
        },
    );
    let send = |method: &'static str, uri: String, token: Option<String>, body: Value| {
        let app = app.clone();
        async move {
            let mut r = Request::builder().method(method).uri(uri);
            if let Some(t) = token {
                r = r.header("authorization", format!("Bearer {t}"));
            }
            let req = r
                .header("content-type", "application/json")
                .body(Body::from(body.to_string()))
                .unwrap();
            let res = app.oneshot(req).await.unwrap();
            let s = res.status();
            let b = res.into_body().collect().await.unwrap().to_bytes();
            (
                s,
                serde_json::from_slice::<Value>(&b).unwrap_or(Value::Null),
            )
        }
    };
    let (s, hs) = send(
        "POST",
        "/api/games".into(),
        None,
        json!({ "rules": "kendall5", "mode": "hotseat" }),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    let id = hs["id"].as_str().unwrap().to_string();
    let tok = hs["tokens"]["1"].as_str().unwrap().to_string();
    let (_, online) = send(
        "POST",
        "/api/games".into(),
        None,
        json!({ "rules": "kendall5", "mode": "online" }),
    )
    .await;
    let oid = online["id"].as_str().unwrap().to_string();
    let pos = "kendall5 ....XX...................X..O. off=2,4 turn=1 throw=- dec=40";

    // (method, documented path, URI, token, body, whether both accept it)
    type Case = (
        &'static str,
        &'static str,
        String,
        Option<String>,
        Value,
        bool,
    );
    let (finished, _) = support::records::random_game(senet_rules::RuleSet::Kendall5, 1);
    let finished = serde_json::to_value(&finished).unwrap();
    let cases: Vec<Case> = vec![
        (
            "post",
            "/api/games/import",
            "/api/games/import".into(),
            None,
            json!({ "record": finished, "mode": "bot" }),
            false,
        ),
        (
            "post",
            "/api/games/import",
            "/api/games/import".into(),
            None,
            json!({ "record": finished, "mode": "hotseat", "seat": 1 }),
            false,
        ),
        (
            "post",
            "/api/games/import",
            "/api/games/import".into(),
            None,
            json!({ "record": finished, "mode": "online" }),
            false,
        ),
        (
            "post",
            "/api/games/import",
            "/api/games/import".into(),
            None,
            json!({ "record": finished, "mode": "bot", "bot": "expert", "seat": 2.0 }),
            true,
        ),
        (
            "post",
            "/api/games/import",
            "/api/games/import".into(),
            None,
            json!({ "record": finished, "mode": "hotseat", "bot": null }),
            true,
        ),
        (
            "post",
            "/api/games/import",
            "/api/games/import".into(),
            None,
            json!({ "record": "text", "mode": "hotseat" }),
            false,
        ),
        (
            "post",
            "/api/games",
            "/api/games".into(),
            None,
            json!({ "rules": "kendall5", "mode": "bot" }),
            false,
        ),
        (
            "post",
            "/api/games",
            "/api/games".into(),
            None,
            json!({ "rules": "kendall5", "mode": "bot", "bot": null }),
            false,
        ),
        (
            "post",
            "/api/games",
            "/api/games".into(),
            None,
            json!({ "rules": "kendall5", "mode": "hotseat", "bot": "expert" }),
            false,
        ),
        (
            "post",
            "/api/games",
            "/api/games".into(),
            None,
            json!({ "rules": "kendall5", "mode": "bot", "bot": "expert", "seat": 2.0 }),
            true,
        ),
        (
            "post",
            "/api/games",
            "/api/games".into(),
            None,
            json!({ "rules": "kendall5", "mode": "online", "seat": 1.5 }),
            false,
        ),
        (
            "post",
            "/api/value",
            "/api/value".into(),
            None,
            json!({ "position": "" }),
            false,
        ),
        (
            "post",
            "/api/value",
            "/api/value".into(),
            None,
            json!({ "position": pos, "depth": 1.0 }),
            true,
        ),
        (
            "post",
            "/api/games/{id}/claim",
            format!("/api/games/{oid}/claim"),
            None,
            json!({ "code": "" }),
            false,
        ),
        (
            "post",
            "/api/games/{id}/move",
            format!("/api/games/{id}/move"),
            Some(tok.clone()),
            json!({ "move": "", "seq": 0 }),
            false,
        ),
        (
            "post",
            "/api/games/{id}/throw",
            format!("/api/games/{id}/throw"),
            Some(tok.clone()),
            json!({ "seq": 0.0 }),
            true,
        ),
    ];
    for (method, path, uri, token, body, ok) in cases {
        let schema = request_schema(&doc, method, path);
        assert!(schema.is_object(), "{method} {path}: no request schema");
        let by_doc = validate(&doc, schema, &body, "request");
        let (status, answer) = send(
            if method == "post" { "POST" } else { "GET" },
            uri,
            token,
            body.clone(),
        )
        .await;
        assert_eq!(
            by_doc.is_ok(),
            ok,
            "{path} {body}: the document says {by_doc:?}"
        );
        assert_eq!(
            status.is_success(),
            ok,
            "{path} {body}: the server says {status} {answer}"
        );
        if !ok {
            assert!(status.is_client_error(), "{path} {body}: {status} {answer}");
        }
    }
    let ng = request_schema(&doc, "post", "/api/games");
    assert!(
        ng["description"]
            .as_str()
            .unwrap()
            .contains("Mode `bot` needs `bot`"),
        "{}",
        ng["description"]
    );

    // The seat token's form: what the server mints.
    let seat = &doc["components"]["securitySchemes"]["seat"];
    assert_eq!(seat["scheme"], "bearer");
    assert_eq!(seat["bearerFormat"], "32 lowercase hexadecimal digits");
    for t in [&tok, online["tokens"]["1"].as_str().unwrap()] {
        assert!(
            t.len() == 32
                && t.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
            "{t}"
        );
    }
    // Every operation that can answer 500 can answer 503 (the database out of reach), with
    // Retry-After.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let r = &op["responses"];
            if r.get("500").is_some() {
                assert!(
                    r["503"]["headers"]["Retry-After"].is_object(),
                    "{method} {path}"
                );
            }
        }
    }
}

/// Validates one answer of `method uri` with `status` against the document.
fn check_answer(doc: &Value, method: &str, uri: &str, status: StatusCode, v: &Value) -> String {
    let t = template(doc, uri).unwrap_or_else(|| panic!("{uri} is not documented"));
    let op = &doc["paths"][t][method.to_lowercase()];
    let resp = &op["responses"][status.as_str()];
    assert!(
        resp.is_object(),
        "{method} {uri}: {status} is not documented ({v})"
    );
    if let Some(s) = resp["content"]["application/json"].get("schema") {
        if let Err(e) = validate(doc, s, v, "response") {
            panic!("{method} {uri} {status}: {e}\n{v}");
        }
    }
    format!("{method} {t} {}", status.as_u16())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn online_play_responses_and_lobby_messages_match_the_openapi_document() {
    let doc: Value = serde_json::from_str(senet_server::api::openapi_document()).unwrap();
    let svc = Service::new(Arc::new(SqliteStore::in_memory().unwrap()));
    let app = router(
        svc.clone(),
        Limits {
            per_second: 0.0,
            ..Limits::default()
        },
    );
    let (mut lobby_first, mut lobby) = svc.lobby_subscribe().await;
    let mut seen = BTreeSet::new();
    let mut a = Browser::new(&app);
    let mut b = Browser::new(&app);
    let seek = json!({"rules": "kendall5", "clock": {"minutes": 5, "increment": 3}});
    let pool = json!({"rules": "kendall5", "rated": false, "clock": {"days": 2}});
    macro_rules! go {
        ($who:expr, $m:expr, $u:expr, $body:expr) => {{
            let u: String = $u;
            let (st, v) = $who.call($m, &u, $body).await;
            seen.insert(check_answer(&doc, $m, &u, st, &v));
            (st, v)
        }};
    }
    go!(a, "GET", "/api/me".into(), None);
    go!(a, "POST", "/api/me".into(), None);
    go!(a, "POST", "/api/me".into(), None);
    go!(b, "POST", "/api/me".into(), None);
    go!(a, "PATCH", "/api/me".into(), Some(json!({"name": "x"})));
    go!(
        a,
        "PATCH",
        "/api/me".into(),
        Some(json!({"name": "Hatshepsut"}))
    );
    go!(
        b,
        "PATCH",
        "/api/me".into(),
        Some(json!({"name": "hatshepsut"}))
    );
    go!(
        a,
        "POST",
        "/api/account".into(),
        Some(json!({"name": "Hatshepsut", "password": "short"}))
    );
    go!(
        a,
        "POST",
        "/api/account".into(),
        Some(json!({"name": "Hatshepsut", "password": "deir el-bahari"}))
    );
    go!(
        Browser::new(&app),
        "POST",
        "/api/login".into(),
        Some(json!({"name": "Hatshepsut", "password": "wrong password"}))
    );
    go!(
        Browser::new(&app),
        "POST",
        "/api/login".into(),
        Some(json!({"name": "Hatshepsut", "password": "deir el-bahari"}))
    );
    go!(
        a,
        "POST",
        "/api/password".into(),
        Some(json!({"old": "wrong password", "new": "new password"}))
    );
    go!(
        a,
        "POST",
        "/api/password".into(),
        Some(json!({"old": "deir el-bahari", "new": "new password"}))
    );
    let (_, sk) = go!(a, "POST", "/api/seeks".into(), Some(seek.clone()));
    go!(
        a,
        "POST",
        "/api/seeks".into(),
        Some(json!({"rules": "kendall5", "clock": {"days": 99}}))
    );
    go!(b, "GET", "/api/seeks".into(), None);
    let sid = sk["id"].as_str().unwrap().to_string();
    go!(a, "POST", format!("/api/seeks/{sid}/accept"), None);
    go!(a, "DELETE", format!("/api/seeks/{sid}"), None);
    go!(a, "DELETE", format!("/api/seeks/{sid}"), None);
    go!(a, "POST", "/api/pairing".into(), Some(pool.clone()));
    go!(b, "POST", "/api/pairing".into(), Some(pool));
    let game = seek_and_accept(&mut a, &mut b, true).await;
    go!(a, "GET", "/api/live".into(), None);
    go!(a, "GET", format!("/api/games/{game}"), None);
    go!(a, "POST", format!("/api/games/{game}/claim-win"), None);
    go!(a, "POST", format!("/api/games/{game}/rematch"), None);
    go!(
        Browser::new(&app),
        "POST",
        format!("/api/games/{game}/resign"),
        None
    );
    go!(a, "POST", format!("/api/games/{game}/resign"), None);
    go!(a, "POST", format!("/api/games/{game}/abort"), None);
    go!(a, "POST", format!("/api/games/{game}/rematch"), None);
    go!(b, "POST", format!("/api/games/{game}/rematch"), None);
    go!(a, "GET", format!("/api/games/{game}"), None);
    let game2 = seek_and_accept(&mut a, &mut b, false).await;
    go!(b, "POST", format!("/api/games/{game2}/abort"), None);
    go!(a, "GET", "/api/players/Hatshepsut".into(), None);
    go!(a, "GET", "/api/players/Nobody".into(), None);
    go!(a, "GET", "/api/leaderboard/kendall5".into(), None);
    go!(a, "GET", "/api/leaderboard/chess".into(), None);
    // Issue 56: reports, a player's data, the health check, deleting oneself.
    let bname = b.me["name"].as_str().unwrap().to_string();
    go!(
        a,
        "POST",
        "/api/reports".into(),
        Some(json!({"player": bname, "game": game, "reason": "stalled on purpose"}))
    );
    go!(
        a,
        "POST",
        "/api/reports".into(),
        Some(json!({"player": "Nobody", "reason": "stalled"}))
    );
    go!(a, "GET", "/api/me/data".into(), None);
    // Issue 57: tournaments (a has an account; b has none).
    let arena = json!({"kind": "arena", "rules": "kendall5", "clock": {"minutes": 3, "increment": 2}, "minutes": 30, "starts_in": 600});
    go!(b, "POST", "/api/tournaments".into(), Some(arena.clone()));
    go!(
        a,
        "POST",
        "/api/tournaments".into(),
        Some(json!({"kind": "arena", "rules": "kendall5", "clock": {"days": 1}, "minutes": 30}))
    );
    let (_, t) = go!(a, "POST", "/api/tournaments".into(), Some(arena));
    let tid = t["info"]["id"].as_str().unwrap().to_string();
    go!(
        a,
        "POST",
        "/api/tournaments".into(),
        Some(
            json!({"kind": "swiss", "rules": "kendall5", "clock": {"days": 1}, "rounds": 2, "invite": [bname]})
        )
    );
    go!(a, "GET", "/api/tournaments".into(), None);
    go!(b, "POST", format!("/api/tournaments/{tid}/join"), None);
    go!(b, "GET", "/api/tournaments".into(), None);
    go!(b, "POST", format!("/api/tournaments/{tid}/start"), None);
    go!(b, "POST", format!("/api/tournaments/{tid}/leave"), None);
    go!(a, "POST", format!("/api/tournaments/{tid}/start"), None);
    go!(a, "POST", format!("/api/tournaments/{tid}/start"), None);
    go!(a, "GET", format!("/api/tournaments/{tid}"), None);
    go!(a, "GET", "/api/tournaments/nosuch".into(), None);
    go!(a, "POST", "/api/tournaments/nosuch/join".into(), None);
    go!(a, "GET", "/healthz".into(), None);
    go!(b, "DELETE", "/api/me".into(), None);
    go!(
        a,
        "POST",
        "/api/logout".into(),
        Some(json!({"everywhere": true}))
    );
    for must in [
        "GET /api/me 401",
        "POST /api/me 201",
        "POST /api/me 200",
        "PATCH /api/me 200",
        "PATCH /api/me 409",
        "PATCH /api/me 422",
        "POST /api/account 200",
        "POST /api/account 422",
        "POST /api/login 200",
        "POST /api/login 401",
        "POST /api/password 200",
        "POST /api/password 403",
        "POST /api/seeks 201",
        "POST /api/seeks 422",
        "GET /api/seeks 200",
        "POST /api/seeks/{id}/accept 409",
        "DELETE /api/seeks/{id} 200",
        "DELETE /api/seeks/{id} 404",
        "POST /api/pairing 202",
        "POST /api/pairing 200",
        "GET /api/live 200",
        "POST /api/games/{id}/claim-win 409",
        "POST /api/games/{id}/resign 200",
        "POST /api/games/{id}/resign 401",
        "POST /api/games/{id}/abort 200",
        "POST /api/games/{id}/abort 409",
        "POST /api/games/{id}/rematch 200",
        "POST /api/games/{id}/rematch 409",
        "GET /api/players/{name} 200",
        "GET /api/players/{name} 404",
        "GET /api/leaderboard/{rules} 200",
        "GET /api/leaderboard/{rules} 404",
        "POST /api/logout 200",
        "POST /api/reports 201",
        "POST /api/reports 404",
        "GET /api/me/data 200",
        "POST /api/tournaments 201",
        "POST /api/tournaments 403",
        "POST /api/tournaments 422",
        "GET /api/tournaments 200",
        "POST /api/tournaments/{id}/join 200",
        "POST /api/tournaments/{id}/join 404",
        "POST /api/tournaments/{id}/leave 200",
        "POST /api/tournaments/{id}/start 200",
        "POST /api/tournaments/{id}/start 403",
        "POST /api/tournaments/{id}/start 409",
        "GET /api/tournaments/{id} 200",
        "GET /api/tournaments/{id} 404",
        "GET /healthz 200",
        "DELETE /api/me 200",
    ] {
        assert!(seen.contains(must), "{must} was not checked: {seen:?}");
    }
    // The lobby's messages: seeks, games, paired.
    let schema = json!({ "$ref": "#/components/schemas/LobbyMessage" });
    while let Ok(m) = lobby.try_recv() {
        lobby_first.push(m);
    }
    let mut kinds = BTreeSet::new();
    for m in lobby_first {
        let v: Value = serde_json::from_str(&m).unwrap();
        if let Err(e) = validate(&doc, &schema, &v, "lobby") {
            panic!("lobby: {e}\n{v}");
        }
        kinds.insert(v["type"].as_str().unwrap().to_string());
    }
    assert!(
        kinds.contains("seeks")
            && kinds.contains("paired")
            && kinds.contains("games")
            && kinds.contains("tournament"),
        "{kinds:?}"
    );
}
