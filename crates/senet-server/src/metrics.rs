//! What an operator watches (issue 56, `docs/deploy.md`): the server's counters and gauges
//! in Prometheus's text format at `GET /metrics`, and `GET /healthz`.
//!
//! The metrics are kept per [`crate::Service`] in a registry of their own (the `prometheus`
//! crate), so that two services in one process (tests, or two servers in one load run)
//! never mix their counts. Counted where they happen:
//! - requests by route, method and status, and their latency: the HTTP layer's middleware
//!   (`api.rs`), with the route's pattern (`/api/games/{id}/move`), never the raw path;
//! - events appended (moves and throws) and database errors: [`CountingStore`], the store
//!   every service writes through;
//! - open WebSockets, searches queued and running, games in memory: read when scraped.

use crate::store::{
    GameMeta, SeriesMeta, Snapshot, Store, StoreError, StoredEvent, StoredGame, StoredSeries,
    Summary,
};
use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};
use std::sync::Arc;

/// The server's metrics (names start `senet_`).
pub struct Metrics {
    registry: Registry,
    /// `senet_http_requests_total{route, method, status}`.
    pub requests: IntCounterVec,
    /// `senet_http_request_duration_seconds{route}`.
    pub latency: HistogramVec,
    /// `senet_events_appended_total{kind}`: moves and throws committed to the database.
    pub events: IntCounterVec,
    /// `senet_moves_appended_total`: moves committed to the database.
    pub moves: IntCounter,
    /// `senet_database_errors_total{kind}`: store calls that failed (`unavailable`,
    /// `backend`, `corrupt`; a lost race, `conflict`, is counted too, as its own kind).
    pub db_errors: IntCounterVec,
    /// `senet_refused_total{reason}`: requests refused by a limit per address (new players,
    /// accounts, seeks) or by a ban.
    pub refused: IntCounterVec,
    /// `senet_websockets_open{kind}` (`game`, `lobby`), set when scraped.
    pub websockets: IntGaugeVec,
    /// `senet_searches_queued`, set when scraped.
    pub searches_queued: IntGauge,
    /// `senet_searches_running`, set when scraped.
    pub searches_running: IntGauge,
    /// `senet_searches_total`: bot searches started (bot moves, hints, values).
    pub searches: IntCounter,
    /// `senet_games_in_memory`, set when scraped.
    pub games_in_memory: IntGauge,
    /// `senet_shutting_down`: 1 once the server was told to stop.
    pub shutting_down: IntGauge,
}

/// Latency buckets, in seconds: from a cached read (sub-millisecond) to a slow search.
const BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

impl Metrics {
    /// A new set of metrics, all zero.
    pub fn new() -> Metrics {
        let registry = Registry::new();
        // The names and labels are constants: registering them cannot fail.
        fn reg<T: prometheus::core::Collector + Clone + 'static>(r: &Registry, m: T) -> T {
            r.register(Box::new(m.clone()))
                .expect("a constant metric registers once");
            m
        }
        let counter_vec = |name: &str, help: &str, labels: &[&str]| {
            IntCounterVec::new(Opts::new(name, help), labels).expect("a valid metric")
        };
        let gauge = |name: &str, help: &str| IntGauge::new(name, help).expect("a valid metric");
        let counter = |name: &str, help: &str| IntCounter::new(name, help).expect("a valid metric");
        Metrics {
            requests: reg(
                &registry,
                counter_vec(
                    "senet_http_requests_total",
                    "HTTP requests answered, by route pattern, method and status code",
                    &["route", "method", "status"],
                ),
            ),
            latency: reg(
                &registry,
                HistogramVec::new(
                    HistogramOpts::new(
                        "senet_http_request_duration_seconds",
                        "Time to answer an HTTP request, by route pattern",
                    )
                    .buckets(BUCKETS.to_vec()),
                    &["route"],
                )
                .expect("a valid metric"),
            ),
            events: reg(
                &registry,
                counter_vec(
                    "senet_events_appended_total",
                    "Game events (moves and throws) committed to the database",
                    &["kind"],
                ),
            ),
            moves: reg(
                &registry,
                counter(
                    "senet_moves_appended_total",
                    "Moves committed to the database",
                ),
            ),
            db_errors: reg(
                &registry,
                counter_vec(
                    "senet_database_errors_total",
                    "Database calls that failed, by kind (unavailable, backend, corrupt, conflict)",
                    &["kind"],
                ),
            ),
            refused: reg(
                &registry,
                counter_vec(
                    "senet_refused_total",
                    "Requests refused by a limit per address or a ban, by reason",
                    &["reason"],
                ),
            ),
            websockets: reg(
                &registry,
                IntGaugeVec::new(
                    Opts::new(
                        "senet_websockets_open",
                        "Open WebSockets, by kind (game, lobby)",
                    ),
                    &["kind"],
                )
                .expect("a valid metric"),
            ),
            searches_queued: reg(
                &registry,
                gauge(
                    "senet_searches_queued",
                    "Bot searches waiting for their turn",
                ),
            ),
            searches_running: reg(
                &registry,
                gauge("senet_searches_running", "Bot searches running now"),
            ),
            searches: reg(
                &registry,
                counter(
                    "senet_searches_total",
                    "Bot searches started (bot moves, hints, position values)",
                ),
            ),
            games_in_memory: reg(
                &registry,
                gauge("senet_games_in_memory", "Games held in the server's memory"),
            ),
            shutting_down: reg(
                &registry,
                gauge(
                    "senet_shutting_down",
                    "1 once the server was told to stop (SIGTERM) and is finishing requests",
                ),
            ),
            registry,
        }
    }

    /// Every metric in Prometheus's text exposition format (version 0.0.4).
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        // Encoding into memory fails only on a metric family without samples' names,
        // which the constant families above never are.
        let _ = TextEncoder::new().encode(&self.registry.gather(), &mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Counts a failed store call.
    pub fn db_error(&self, e: &StoreError) {
        let kind = match e {
            StoreError::Unavailable(_) => "unavailable",
            StoreError::Backend(_) => "backend",
            StoreError::Corrupt(_) => "corrupt",
            StoreError::Conflict => "conflict",
            // A game ID drawn twice: retried by the caller, not an error of the database.
            StoreError::Exists => return,
        };
        self.db_errors.with_label_values(&[kind]).inc();
    }
}

/// The content type of [`Metrics::render`].
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// A store that counts what goes through it: events appended and errors.
pub struct CountingStore {
    inner: Arc<dyn Store>,
    metrics: Arc<Metrics>,
}

impl CountingStore {
    /// `inner`, counted into `metrics`.
    pub fn new(inner: Arc<dyn Store>, metrics: Arc<Metrics>) -> CountingStore {
        CountingStore { inner, metrics }
    }

    fn count<T>(&self, r: Result<T, StoreError>) -> Result<T, StoreError> {
        if let Err(e) = &r {
            self.metrics.db_error(e);
        }
        r
    }

    fn appended(&self, events: &[StoredEvent]) {
        for e in events {
            let kind = match e {
                StoredEvent::Throw(_) => "throw",
                StoredEvent::Move(_) => {
                    self.metrics.moves.inc();
                    "move"
                }
            };
            self.metrics.events.with_label_values(&[kind]).inc();
        }
    }
}

impl Store for CountingStore {
    fn create(
        &self,
        meta: &GameMeta,
        events: &[StoredEvent],
        snap: &Snapshot,
    ) -> Result<(), StoreError> {
        let r = self.count(self.inner.create(meta, events, snap));
        if r.is_ok() {
            self.appended(events);
        }
        r
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.count(self.inner.load(id))
    }

    fn append(
        &self,
        id: &str,
        first_seq: u32,
        events: &[StoredEvent],
        snap: &Snapshot,
    ) -> Result<(), StoreError> {
        let r = self.count(self.inner.append(id, first_seq, events, snap));
        if r.is_ok() {
            self.appended(events);
        }
        r
    }

    fn summaries(&self, ids: &[String]) -> Result<Vec<Summary>, StoreError> {
        self.count(self.inner.summaries(ids))
    }

    fn create_series(
        &self,
        series: &SeriesMeta,
        game: &GameMeta,
        events: &[StoredEvent],
        snap: &Snapshot,
    ) -> Result<(), StoreError> {
        let r = self.count(self.inner.create_series(series, game, events, snap));
        if r.is_ok() {
            self.appended(events);
        }
        r
    }

    fn load_series(&self, id: &str) -> Result<Option<StoredSeries>, StoreError> {
        self.count(self.inner.load_series(id))
    }

    fn claim(
        &self,
        id: &str,
        seat: u8,
        series_seat: u8,
        code_hash: &str,
        token_hash: &str,
    ) -> Result<bool, StoreError> {
        self.count(
            self.inner
                .claim(id, seat, series_seat, code_hash, token_hash),
        )
    }

    fn set_invite(&self, id: &str, seat: u8, code_hash: Option<&str>) -> Result<bool, StoreError> {
        self.count(self.inner.set_invite(id, seat, code_hash))
    }

    fn analysis(&self, id: &str, nevents: u32) -> Result<Option<String>, StoreError> {
        self.count(self.inner.analysis(id, nevents))
    }

    fn put_analysis(&self, id: &str, nevents: u32, body: &str) -> Result<(), StoreError> {
        self.count(self.inner.put_analysis(id, nevents, body))
    }

    fn transaction(
        &self,
        f: &mut dyn FnMut(&mut dyn crate::sql::Tx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.count(self.inner.transaction(f))
    }

    fn watch(
        &self,
        on_change: Box<dyn Fn(Option<String>) + Send + Sync>,
    ) -> Result<(), StoreError> {
        self.count(self.inner.watch(on_change))
    }
}
