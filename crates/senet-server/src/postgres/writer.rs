//! The appender of a [`PgStore`](super::PgStore): every [`Store::append`] of the server
//! goes through one connection, on a thread of its own, that commits the appends arriving
//! together as one transaction (group commit: one WAL flush for all of them).
//!
//! An append is one prepared statement ([`APPEND`]): it checks the sequence and updates the
//! game row, inserts the events and sends the change notification, so an append alone is one
//! round trip to the database (Bind, Execute, Sync) and commits on its own. Appends that arrive
//! while a transaction is being committed wait, and the next batch sends `BEGIN`, their
//! statements, one notification naming all their games and `COMMIT` pipelined, in one write:
//! one round trip, one flush and one notice for the batch (a game whose append was refused
//! is named too; the other servers then reread it for nothing).
//! Each caller is answered only once the transaction holding its append has committed, so an
//! acknowledged append is as durable as before (`synchronous_commit` as the server has it).
//!
//! Within a batch the appends run in the order of their game IDs, so two servers' batches lock
//! the game rows they share in the same order and cannot deadlock; one append losing the race
//! for its sequence number ([`StoreError::Conflict`]) is a result, not an error, and does not
//! disturb the rest of its batch. Should a statement fail, the batch is rolled back whole
//! and its appends are retried one by one, so that only the failing one fails; a lost
//! connection fails the batch (whether it committed is then unknown, as for any lost
//! connection), and after a lost connection or any error the next batch connects afresh.
//!
//! Why it matters: `NOTIFY` takes a lock, held through the commit's WAL flush, that serialises
//! the commits of every notifying transaction in the cluster, so with one transaction per
//! append no two appends ever shared a flush, whatever the number of connections; the
//! appends a batch holds share one flush and one turn at that lock.

use crate::store::{Snapshot, StoreError, StoredEvent};
use std::future::Future;
use std::pin::Pin;
use std::sync::mpsc::{sync_channel, SyncSender};
use std::task::Poll;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio_postgres::{Client, NoTls, Statement};

/// The most appends committed together.
const MAX_BATCH: usize = 256;

/// The append, one statement (`{channel}` is [`super::CHANNEL`]; `$10` may be null when the
/// batch notifies for all): `$1` game, `$2` its events stored so far (the sequence number
/// of the first new one), `$3`/`$4` the new events' kinds and values, `$5`..`$9` the new
/// snapshot, `$10` the notification's payload, `$11`/`$12` the clock's state (kept when
/// null) and deadline. Returns the rows updated (0: another writer appended first, or
/// another server ended the game first by a resignation, a flag, an abort or a claim: its
/// `result` is set, and an append then would overwrite the game's ended state), events
/// inserted and notifications sent.
const APPEND: &str = "
WITH moved AS (
    UPDATE games SET nevents = $2 + cardinality($3::text[]), position = $5, state = $6,
        player = $7, moves = $8, updated = $9, clock_state = COALESCE($11, clock_state),
        deadline = $12
    WHERE id = $1 AND nevents = $2 AND result IS NULL
    RETURNING id
), added AS (
    INSERT INTO events (game, seq, kind, value)
    SELECT moved.id, $2 + e.n - 1, e.kind, e.value
    FROM moved, unnest($3::text[], $4::text[]) WITH ORDINALITY AS e(kind, value, n)
    RETURNING seq
), told AS (
    SELECT pg_notify('{channel}', $10) FROM moved WHERE $10 IS NOT NULL
)
SELECT (SELECT count(*) FROM moved), (SELECT count(*) FROM added), (SELECT count(*) FROM told)";

/// A batch's notification of its games (`SERVER GAME GAME ...`; see `super::listen`).
const NOTIFY: &str = "SELECT pg_notify('{channel}', $1)";

/// The longest notification payload sent (PostgreSQL's limit is 8,000 bytes); a batch whose
/// games do not fit sends several.
const MAX_PAYLOAD: usize = 7_000;

/// One append waiting for its transaction.
struct Job {
    id: String,
    first: u32,
    events: Vec<StoredEvent>,
    snap: Snapshot,
    done: SyncSender<Result<(), StoreError>>,
}

/// The appender: a thread with its connection and a queue of appends.
pub(super) struct Writer {
    jobs: Option<UnboundedSender<Job>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Writer {
    /// Starts the thread; it connects with `config` on the first append (and again after a
    /// lost connection). `me` names this server in the change notifications.
    pub(super) fn start(config: tokio_postgres::Config, me: String) -> Result<Writer, StoreError> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| StoreError::Backend(format!("cannot start the writer: {e}")))?;
        let (tx, rx) = unbounded_channel();
        let thread = std::thread::Builder::new()
            .name("senet-pg-writer".into())
            .spawn(move || rt.block_on(run(config, me, rx)))
            .map_err(|e| StoreError::Backend(format!("cannot start the writer: {e}")))?;
        Ok(Writer {
            jobs: Some(tx),
            thread: Some(thread),
        })
    }

    /// Appends (see [`crate::store::Store::append`]) and waits until it is committed.
    pub(super) fn append(
        &self,
        id: &str,
        first: u32,
        events: &[StoredEvent],
        snap: &Snapshot,
    ) -> Result<(), StoreError> {
        let stopped = || StoreError::Backend("the PostgreSQL writer has stopped".into());
        let (done, answer) = sync_channel(1);
        let job = Job {
            id: id.to_string(),
            first,
            events: events.to_vec(),
            snap: snap.clone(),
            done,
        };
        self.jobs
            .as_ref()
            .ok_or_else(stopped)?
            .send(job)
            .map_err(|_| stopped())?;
        answer.recv().map_err(|_| stopped())?
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        // Closing the queue ends the thread once the appends queued before are answered.
        drop(self.jobs.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The connection and its prepared statements.
struct Conn {
    client: Client,
    append: Statement,
    notify: Statement,
}

async fn connect(config: &tokio_postgres::Config) -> Result<Conn, StoreError> {
    let (client, connection) = config.connect(NoTls).await.map_err(super::cannot_connect)?;
    tokio::spawn(async move {
        let _ = connection.await;
    });
    let sql = APPEND.replace("{channel}", super::CHANNEL);
    let append = client.prepare(&sql).await.map_err(super::backend)?;
    let sql = NOTIFY.replace("{channel}", super::CHANNEL);
    let notify = client.prepare(&sql).await.map_err(super::backend)?;
    Ok(Conn {
        client,
        append,
        notify,
    })
}

/// The thread's loop: takes every append queued (up to [`MAX_BATCH`]), commits them, answers
/// each, and again, until the queue is closed.
async fn run(config: tokio_postgres::Config, me: String, mut rx: UnboundedReceiver<Job>) {
    let mut conn: Option<Conn> = None;
    while let Some(job) = rx.recv().await {
        let mut batch = vec![job];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        // Game ID order: see the module's comment.
        batch.sort_by(|a, b| a.id.cmp(&b.id));
        let results = commit(&mut conn, &config, &me, &batch).await;
        for (job, r) in batch.into_iter().zip(results) {
            let _ = job.done.send(r);
        }
    }
}

/// The statement's parameters for one append.
struct Params<'a> {
    id: &'a str,
    first: i32,
    kinds: Vec<&'a str>,
    values: Vec<&'a str>,
    snap: &'a Snapshot,
    player: Option<i16>,
    moves: i32,
    /// The payload of the statement's own notification (an append alone).
    note: Option<String>,
}

impl<'a> Params<'a> {
    fn of(j: &'a Job, note: Option<String>) -> Params<'a> {
        let (kinds, values) = j
            .events
            .iter()
            .map(|e| match e {
                StoredEvent::Throw(t) => ("throw", t.as_str()),
                StoredEvent::Move(m) => ("move", m.as_str()),
            })
            .unzip();
        Params {
            id: &j.id,
            first: j.first as i32,
            kinds,
            values,
            snap: &j.snap,
            player: j.snap.player.map(i16::from),
            moves: j.snap.moves as i32,
            note,
        }
    }

    fn list(&self) -> [&(dyn tokio_postgres::types::ToSql + Sync); 12] {
        [
            &self.id,
            &self.first,
            &self.kinds,
            &self.values,
            &self.snap.position,
            &self.snap.state,
            &self.player,
            &self.moves,
            &self.snap.updated,
            &self.note,
            &self.snap.clock,
            &self.snap.deadline,
        ]
    }

    /// The append's outcome from the statement's row.
    fn outcome(&self, row: &tokio_postgres::Row) -> Result<(), StoreError> {
        let (moved, added, told): (i64, i64, i64) = (row.get(0), row.get(1), row.get(2));
        match moved {
            0 => Err(StoreError::Conflict),
            1 if added == self.kinds.len() as i64 && told == self.note.is_some() as i64 => Ok(()),
            _ => Err(StoreError::Backend(format!(
                "appending to {}: {moved} games updated, {added} events added, {told} notices",
                self.id
            ))),
        }
    }
}

/// An error of a statement as the append's result.
fn failed(e: tokio_postgres::Error) -> StoreError {
    if e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION) {
        // Another writer's events are in place: only possible if it appended first.
        StoreError::Conflict
    } else {
        super::backend(e)
    }
}

/// Commits the batch on the connection (opening one if there is none or it was lost);
/// one result per append, in order.
async fn commit(
    conn: &mut Option<Conn>,
    config: &tokio_postgres::Config,
    me: &str,
    batch: &[Job],
) -> Vec<Result<(), StoreError>> {
    if conn.as_ref().is_none_or(|c| c.client.is_closed()) {
        *conn = None;
        match connect(config).await {
            Ok(c) => *conn = Some(c),
            Err(e) => return batch.iter().map(|_| Err(e.clone())).collect(),
        }
    }
    let Some(c) = conn.as_ref() else {
        unreachable!("connected above")
    };
    let alone_params = |j| Params::of(j, Some(format!("{me} {}", j.id)));
    let results = if batch.len() == 1 {
        vec![alone(c, &alone_params(&batch[0])).await]
    } else {
        let params: Vec<Params> = batch.iter().map(|j| Params::of(j, None)).collect();
        match together(c, &params, &payloads(me, batch)).await {
            Ok(r) => r,
            // Rolled back whole on a live connection: one by one, so only the failing fail.
            Err(Retry::OneByOne) => {
                let mut r = Vec::with_capacity(batch.len());
                for j in batch {
                    r.push(alone(c, &alone_params(j)).await);
                }
                r
            }
            Err(Retry::No(e)) => batch.iter().map(|_| Err(e.clone())).collect(),
        }
    };
    // A lost connection, or one that answered an error other than a refused append (such
    // as the server terminating it, which may arrive as the answer to a request before the
    // connection is seen to close), is not used again: the next batch connects afresh.
    let failed = results
        .iter()
        .any(|r| matches!(r, Err(e) if *e != StoreError::Conflict));
    if c.client.is_closed() || failed {
        *conn = None;
    }
    results
}

/// The notifications of a batch: `SERVER GAME GAME ...`, each game once, each payload at
/// most [`MAX_PAYLOAD`] bytes.
fn payloads(me: &str, batch: &[Job]) -> Vec<String> {
    let mut out = vec![me.to_string()];
    let mut ids: Vec<&str> = batch.iter().map(|j| j.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        let last = out.last_mut().expect("one payload at least");
        if last.len() > me.len() && last.len() + 1 + id.len() > MAX_PAYLOAD {
            out.push(format!("{me} {id}"));
        } else {
            last.push(' ');
            last.push_str(id);
        }
    }
    out
}

/// One append in a transaction of its own: one round trip.
async fn alone(c: &Conn, p: &Params<'_>) -> Result<(), StoreError> {
    let row = c
        .client
        .query_one(&c.append, &p.list())
        .await
        .map_err(failed)?;
    p.outcome(&row)
}

/// Why a batch did not commit.
enum Retry {
    /// A statement failed and the transaction was rolled back: nothing is stored.
    OneByOne,
    /// The connection was lost (whether it committed is unknown) or `BEGIN` failed: this
    /// error for every append.
    No(StoreError),
}

/// The appends in one transaction, pipelined: `BEGIN`, each statement, the notifications
/// (`notes`) and `COMMIT` are sent together and answered together, one round trip.
async fn together(
    c: &Conn,
    params: &[Params<'_>],
    notes: &[String],
) -> Result<Vec<Result<(), StoreError>>, Retry> {
    type Step<'f> = Pin<
        Box<dyn Future<Output = Result<Option<tokio_postgres::Row>, tokio_postgres::Error>> + 'f>,
    >;
    let lists: Vec<_> = params.iter().map(Params::list).collect();
    let mut steps: Vec<Step> = Vec::with_capacity(params.len() + 2);
    steps.push(Box::pin(async {
        c.client.batch_execute("BEGIN").await.map(|()| None)
    }));
    for l in &lists {
        steps.push(Box::pin(async {
            c.client.query_one(&c.append, l).await.map(Some)
        }));
    }
    for n in notes {
        steps.push(Box::pin(async {
            c.client.execute(&c.notify, &[n]).await.map(|_| None)
        }));
    }
    steps.push(Box::pin(async {
        c.client.batch_execute("COMMIT").await.map(|()| None)
    }));
    let mut out = in_order(steps).await.into_iter();
    let lost = |e: tokio_postgres::Error| {
        if c.client.is_closed() {
            Retry::No(super::backend(e))
        } else {
            Retry::OneByOne
        }
    };
    // BEGIN failed on a live connection (it cannot, short of a bug): the statements ran
    // without a transaction, each committed or not on its own, so no retry.
    if let Some(Err(e)) = out.next() {
        return Err(Retry::No(super::backend(e)));
    }
    let rows: Vec<_> = out.by_ref().take(params.len()).collect();
    // A failed statement aborts the transaction (the later ones fail too and COMMIT rolls
    // back), so all must have succeeded: the notifications and COMMIT too.
    for r in out {
        r.map_err(lost)?;
    }
    let mut results = Vec::with_capacity(params.len());
    for (p, r) in params.iter().zip(rows) {
        match r {
            Ok(Some(row)) => results.push(p.outcome(&row)),
            Ok(None) => unreachable!("a statement step answers a row"),
            Err(e) => return Err(lost(e)),
        }
    }
    Ok(results)
}

/// Awaits every future, first polling each in the order given, so that their requests go
/// to the connection in that order (tokio-postgres sends a request when its future is first
/// polled); the outputs in the same order.
async fn in_order<T>(mut futures: Vec<Pin<Box<dyn Future<Output = T> + '_>>>) -> Vec<T> {
    let mut out: Vec<Option<T>> = futures.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (f, o) in futures.iter_mut().zip(out.iter_mut()) {
            if o.is_none() {
                match f.as_mut().poll(cx) {
                    Poll::Ready(v) => *o = Some(v),
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    out.into_iter()
        .map(|o| o.expect("every future is ready"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_notifies_each_game_once_within_postgres_limit() {
        let (done, _answers) = sync_channel(300);
        let job = |id: String| Job {
            id,
            first: 0,
            events: Vec::new(),
            snap: Snapshot {
                position: String::new(),
                state: "throw".into(),
                player: Some(1),
                moves: 0,
                updated: 0,
                clock: None,
                deadline: None,
            },
            done: done.clone(),
        };
        // 300 appends to 250 games with the longest IDs (32 characters), some twice.
        let batch: Vec<Job> = (0..300).map(|i| job(format!("{:032}", i % 250))).collect();
        let me = "0123456789abcdef";
        let notes = payloads(me, &batch);
        assert!(notes.len() > 1, "8,250 bytes do not fit in one");
        let mut named = Vec::new();
        for n in &notes {
            assert!(n.len() <= MAX_PAYLOAD, "{} bytes", n.len());
            let mut parts = n.split(' ');
            assert_eq!(parts.next(), Some(me));
            named.extend(parts.map(String::from));
        }
        let want: Vec<String> = (0..250).map(|i| format!("{i:032}")).collect();
        assert_eq!(named, want, "every game once, in order");
        assert_eq!(payloads(me, &batch[..1]), [format!("{me} {:032}", 0)]);
    }
}
