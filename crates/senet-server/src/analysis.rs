//! Analysis over HTTP (issue 19): the review's analysis of a finished game, computed once in
//! the background and kept, and the stateless valuation of any position.
//!
//! The analysis itself is `senet_bots::analysis`; this module runs it off the async
//! workers, bounds its cost (node budgets, a limit on analyses running at once), and reports
//! progress while it runs.

use crate::service::Failure;
use crate::store::Store;
use crate::wire::{AnalysisDone, AnalysisReply, AnalysisRunning, Done, Running};
use senet_bots::analysis::PositionValue;
use senet_bots::analysis::{self, Options};
use senet_rules::{Record, RuleSet};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Whole-game analyses running at once; more wait in turn (the page shows them queued).
pub const MAX_RUNNING: usize = 2;

/// Finished analyses kept in memory at most (the oldest are dropped; they are read back
/// from the store, or recomputed, on demand).
pub const MAX_KEPT: usize = 2_000;

/// Bytes of finished analyses kept in memory at most (a 400-event game's analysis is about
/// 250 KB), whatever their count.
pub const MAX_KEPT_BYTES: usize = 128 << 20;

/// Analyses one client may have waiting or running at once (429 beyond).
pub const MAX_PER_CLIENT: usize = 2;

/// The longest record analysed, in events: a game to the turn cap of the default options
/// plays fewer (issue 36: a colluded game of 2,809 decisions made a 1.87 MB analysis).
pub const MAX_EVENTS: usize = 4_000;

/// One game's analysis: running (with progress) or done.
struct Job {
    /// Events analysed so far.
    done: Arc<AtomicUsize>,
    /// Events of the record.
    total: usize,
    /// The analysis as JSON, or why it failed, once finished.
    result: Option<Result<Arc<str>, String>>,
    /// When it was asked for (for dropping the oldest).
    stamp: u64,
    /// Who asked for it, while it waits or runs.
    client: Option<crate::service::Client>,
}

impl Job {
    fn bytes(&self) -> usize {
        match &self.result {
            Some(Ok(a)) => a.len(),
            _ => 0,
        }
    }
}

/// The analyses of the server's games.
pub struct Analyses {
    jobs: Arc<Mutex<HashMap<String, Job>>>,
    running: Arc<tokio::sync::Semaphore>,
    clock: AtomicUsize,
}

impl Default for Analyses {
    fn default() -> Analyses {
        Analyses {
            jobs: Arc::new(Mutex::new(HashMap::new())),
            running: Arc::new(tokio::sync::Semaphore::new(MAX_RUNNING)),
            clock: AtomicUsize::new(0),
        }
    }
}

impl Analyses {
    fn jobs(&self) -> std::sync::MutexGuard<'_, HashMap<String, Job>> {
        lock(&self.jobs)
    }

    /// The analysis of game `id` whose finished record is `rec`: `{"status": "done",
    /// "analysis": ...}` once computed (in memory, or kept in `store` by this or another
    /// server), else `{"status": "running", "done": N, "total": M}` (starting it if needed;
    /// `done` is 0 while it waits for a free slot). A finished analysis is kept in the store.
    pub async fn get_or_start(
        &self,
        store: Arc<dyn Store>,
        client: crate::service::Client,
        id: &str,
        rec: Record,
    ) -> Result<AnalysisReply, Failure> {
        if rec.events.len() > MAX_EVENTS {
            return Err(Failure::Unprocessable(format!(
                "this game has {} events; games of more than {MAX_EVENTS} are not analysed \
                 here (its record can be analysed with `senet analyze`)",
                rec.events.len()
            )));
        }
        let nevents = rec.events.len() as u32;
        let known = self.jobs().contains_key(id);
        if !known {
            let (st, key) = (store.clone(), id.to_string());
            let kept = tokio::task::spawn_blocking(move || st.analysis(&key, nevents))
                .await
                .map_err(|e| Failure::Internal(format!("store task failed: {e}")))??;
            if let Some(body) = kept {
                let stamp = self.clock.fetch_add(1, Ordering::Relaxed) as u64;
                let v = done_reply(&body);
                self.jobs().entry(id.to_string()).or_insert(Job {
                    done: Arc::new(AtomicUsize::new(nevents as usize)),
                    total: nevents as usize,
                    result: Some(Ok(Arc::from(body))),
                    stamp,
                    client: None,
                });
                return Ok(v);
            }
        }
        let stamp = self.clock.fetch_add(1, Ordering::Relaxed) as u64;
        let mut jobs = self.jobs();
        if let Some(j) = jobs.get_mut(id) {
            j.stamp = stamp;
            return Ok(match &j.result {
                Some(Ok(a)) => done_reply(a),
                Some(Err(e)) => return Err(Failure::Internal(format!("the analysis failed: {e}"))),
                None => running_reply(j),
            });
        }
        let mine = jobs
            .values()
            .filter(|j| j.result.is_none() && j.client == Some(client))
            .count();
        if mine >= MAX_PER_CLIENT {
            return Err(Failure::Busy(format!(
                "you have {mine} analyses under way; ask again when one is done"
            )));
        }
        trim(&mut jobs, MAX_KEPT - 1, MAX_KEPT_BYTES);
        let rules: RuleSet = rec
            .rules
            .parse()
            .map_err(|e: senet_rules::Error| Failure::Internal(e.to_string()))?;
        let done = Arc::new(AtomicUsize::new(0));
        let job = Job {
            done: done.clone(),
            total: rec.events.len(),
            result: None,
            stamp,
            client: Some(client),
        };
        let first = running_reply(&job);
        jobs.insert(id.to_string(), job);
        drop(jobs);
        let running = self.running.clone();
        let key = id.to_string();
        let jobs = self.jobs.clone();
        tokio::spawn(async move {
            let permit = running.acquire_owned().await;
            let result = tokio::task::spawn_blocking(move || {
                // The default options: their depths within the `expert` budget, so no search runs long.
                let opt = Options::for_rules(rules);
                analysis::analyze(&rec, &opt, &mut |d, _| done.store(d, Ordering::Relaxed))
                    .map(|a| Arc::<str>::from(serde_json::to_string(&a).unwrap_or_default()))
                    .map_err(|e| e.to_string())
            })
            .await
            .unwrap_or_else(|e| Err(format!("the analysis task failed: {e}")));
            drop(permit);
            if let Ok(body) = &result {
                // Kept for later requests and other servers; if storing fails, the analysis
                // is still served from memory and stored again after a restart recomputes it.
                let (body, key) = (body.clone(), key.clone());
                let _ =
                    tokio::task::spawn_blocking(move || store.put_analysis(&key, nevents, &body))
                        .await;
            }
            let mut jobs = lock(&jobs);
            if let Some(j) = jobs.get_mut(&key) {
                j.result = Some(result);
                j.client = None;
            }
            trim(&mut jobs, MAX_KEPT, MAX_KEPT_BYTES);
        });
        Ok(first)
    }
}

/// Drops the oldest finished analyses until at most `count` are kept and they hold at most
/// `bytes` (analyses waiting or running stay).
fn trim(jobs: &mut HashMap<String, Job>, count: usize, bytes: usize) {
    let mut total: usize = jobs.values().map(Job::bytes).sum();
    let mut n = jobs.len();
    if n <= count && total <= bytes {
        return;
    }
    let mut finished: Vec<(u64, String, usize)> = jobs
        .iter()
        .filter(|(_, j)| j.result.is_some())
        .map(|(id, j)| (j.stamp, id.clone(), j.bytes()))
        .collect();
    finished.sort_unstable();
    for (_, id, b) in finished {
        if n <= count && total <= bytes {
            break;
        }
        jobs.remove(&id);
        n -= 1;
        total -= b;
    }
}

fn lock(m: &Mutex<HashMap<String, Job>>) -> std::sync::MutexGuard<'_, HashMap<String, Job>> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn done_reply(a: &str) -> AnalysisReply {
    AnalysisReply::Done(AnalysisDone {
        status: Done::Done,
        analysis: serde_json::from_str(a).unwrap_or(serde_json::Value::Null),
    })
}

fn running_reply(j: &Job) -> AnalysisReply {
    AnalysisReply::Running(AnalysisRunning {
        status: Running::Running,
        done: j.done.load(Ordering::Relaxed),
        total: j.total,
    })
}

/// The body of `POST /api/value`.
#[derive(serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ValueRequest {
    /// A position string.
    #[schema(min_length = 1)]
    pub position: String,
    /// The throw, when the position holds none (e.g. `4` or `3-5`).
    pub throw: Option<String>,
    /// The search depth of the decisions in throws (default: the rule set's analysis depth;
    /// at most that depth: 5 on the stick rule sets, 2 on pyramid and parker).
    pub depth: Option<u32>,
}

/// Values one position without any game: every legal move's win chance, or awaiting a throw
/// every throw's value and luck. Bounded: at most the rule set's analysis depth, and the
/// `expert` level's node budget shared by the searches.
pub fn value(req: &ValueRequest) -> Result<PositionValue, Failure> {
    // The same code as the page's engine (issue 54): `senet_bots::analysis::value_bounded`.
    analysis::value_bounded(&req.position, req.throw.as_deref(), req.depth)
        .map_err(Failure::Unprocessable)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(stamp: u64, bytes: usize) -> Job {
        Job {
            done: Arc::new(AtomicUsize::new(1)),
            total: 1,
            result: Some(Ok(Arc::from("x".repeat(bytes)))),
            stamp,
            client: None,
        }
    }

    /// Kept analyses are capped by their bytes as well as their count, the oldest dropped
    /// first, and one still running is never dropped (issue 36).
    #[test]
    fn kept_analyses_are_capped_by_bytes_oldest_first() {
        let mut jobs = HashMap::new();
        for i in 0..5u64 {
            jobs.insert(format!("g{i}"), finished(i, 100));
        }
        jobs.insert(
            "running".into(),
            Job {
                result: None,
                client: Some("10.0.0.1".parse().unwrap()),
                ..finished(0, 0)
            },
        );
        trim(&mut jobs, 100, 250);
        let mut kept: Vec<&String> = jobs.keys().collect();
        kept.sort();
        assert_eq!(kept, ["g3", "g4", "running"]);
        trim(&mut jobs, 2, 1 << 20);
        assert!(jobs.contains_key("running") && jobs.contains_key("g4") && jobs.len() == 2);
    }

    /// A record longer than [`MAX_EVENTS`] is refused in words before any work.
    #[tokio::test]
    async fn a_game_too_long_to_analyse_is_refused_in_words() {
        let rec = Record {
            format: senet_rules::record::FORMAT.into(),
            rules: "kendall5".into(),
            options: Default::default(),
            seed: None,
            start: None,
            events: vec![senet_rules::Event::Throw { throw: "1".into() }; MAX_EVENTS + 1],
            result: None,
        };
        let store = Arc::new(crate::SqliteStore::in_memory().unwrap());
        let r = Analyses::default()
            .get_or_start(store, "10.0.0.1".parse().unwrap(), "g", rec)
            .await;
        match r {
            Err(Failure::Unprocessable(m)) => assert!(m.contains("4000"), "{m}"),
            Err(f) => panic!("{}", f.message()),
            Ok(_) => panic!("a 4,001-event game was analysed"),
        }
    }
}
