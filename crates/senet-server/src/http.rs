//! The connection layer of `senet serve`: accepts TCP connections and serves HTTP/1.1 on
//! them with hyper, within [`Limits`]:
//! - a cap on open connections, WebSockets included (a WebSocket keeps its connection's
//!   place until it closes), and a cap per client address (not for a trusted proxy's
//!   address, behind which many clients share one); when either cap is full, the oldest
//!   *idle* connection (no request in flight, not a WebSocket) of that address, or of all,
//!   is closed to make room, and only when none is idle is the new connection closed;
//! - a deadline for a request's headers that also closes idle keep-alive connections
//!   (hyper's `header_read_timeout`), and, in [`crate::api::router`], deadlines for the body
//!   and the whole request (tower-http), the WebSockets' own cap and their ping deadline.

use crate::api::Limits;
use axum::extract::connect_info::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tower::ServiceExt;

/// One open connection, as the caps see it.
struct Conn {
    ip: IpAddr,
    opened: Instant,
    /// Requests in flight.
    busy: AtomicUsize,
    /// Upgraded to a WebSocket (never idle in the caps' sense: its own ping deadline
    /// closes a dead one).
    upgraded: AtomicBool,
    /// Told to close (it was the oldest idle connection when room was needed).
    close: Notify,
}

impl Conn {
    fn idle(&self) -> bool {
        self.busy.load(Ordering::Acquire) == 0 && !self.upgraded.load(Ordering::Acquire)
    }
}

#[derive(Default)]
struct Table {
    next: u64,
    open: HashMap<u64, Arc<Conn>>,
    per_ip: HashMap<IpAddr, usize>,
}

impl Table {
    fn remove(&mut self, id: u64) -> Option<Arc<Conn>> {
        let c = self.open.remove(&id)?;
        if let Some(n) = self.per_ip.get_mut(&c.ip) {
            *n -= 1;
            if *n == 0 {
                self.per_ip.remove(&c.ip);
            }
        }
        Some(c)
    }

    /// Closes the oldest idle connection (of `ip`, if given); false if none is idle.
    fn evict_oldest_idle(&mut self, ip: Option<IpAddr>) -> bool {
        let oldest = self
            .open
            .iter()
            .filter(|(_, c)| ip.is_none_or(|ip| c.ip == ip) && c.idle())
            .min_by_key(|(id, c)| (c.opened, **id))
            .map(|(id, _)| *id);
        match oldest.and_then(|id| self.remove(id)) {
            Some(c) => {
                c.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// The open connections and their caps.
pub struct Conns {
    table: Mutex<Table>,
    max_total: usize,
    max_per_address: usize,
    proxies: Vec<IpAddr>,
}

impl Conns {
    /// The caps of `limits`.
    pub fn new(limits: &Limits) -> Arc<Conns> {
        Arc::new(Conns {
            table: Mutex::new(Table::default()),
            max_total: limits.max_connections.max(1),
            max_per_address: limits.max_per_address.max(1),
            proxies: limits.trusted_proxies.clone(),
        })
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        // A panic while the lock was held leaves a table that is still consistent (each
        // change is one insert or remove): carry on with it.
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Open connections now that are not WebSockets.
    fn open_http(&self) -> usize {
        let t = self.table();
        t.open
            .values()
            .filter(|c| !c.upgraded.load(Ordering::Acquire))
            .count()
    }

    /// Makes room for a connection from `ip` (closing the oldest idle ones as needed) and
    /// takes it; `None` when the caps are full of busy connections.
    fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<Slot> {
        let mut t = self.table();
        if !self.proxies.contains(&ip)
            && t.per_ip.get(&ip).copied().unwrap_or(0) >= self.max_per_address
            && !t.evict_oldest_idle(Some(ip))
        {
            return None;
        }
        if t.open.len() >= self.max_total && !t.evict_oldest_idle(None) {
            return None;
        }
        let id = t.next;
        t.next += 1;
        let conn = Arc::new(Conn {
            ip,
            opened: Instant::now(),
            busy: AtomicUsize::new(0),
            upgraded: AtomicBool::new(false),
            close: Notify::new(),
        });
        t.open.insert(id, conn.clone());
        *t.per_ip.entry(ip).or_insert(0) += 1;
        Some(Slot {
            id,
            conn,
            conns: self.clone(),
        })
    }
}

/// A connection's place under the caps, given back when the last holder drops it: the
/// connection's task, and a WebSocket that outlives its upgrade request.
pub struct Slot {
    id: u64,
    conn: Arc<Conn>,
    conns: Arc<Conns>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.conns.table().remove(self.id);
    }
}

/// The connection a request came on (a request extension): a WebSocket handler keeps it
/// for the socket's life and marks it upgraded.
#[derive(Clone)]
pub struct ConnSlot(Arc<Slot>);

impl ConnSlot {
    /// Marks the connection a WebSocket (no longer idle between requests).
    pub fn upgraded(&self) {
        self.0.conn.upgraded.store(true, Ordering::Release);
    }
}

/// Counts a request in flight on its connection while it lives.
struct Busy(Arc<Slot>);

impl Busy {
    fn new(slot: &Arc<Slot>) -> Busy {
        slot.conn.busy.fetch_add(1, Ordering::AcqRel);
        Busy(slot.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.conn.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then lets open requests finish
/// (for at most 10 s).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: &Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let conns = Conns::new(limits);
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(());
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            a = listener.accept() => match a {
                Ok(a) => a,
                Err(_) => {
                    // Out of descriptors or a connection reset before accept: wait a little
                    // rather than spin.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(slot) = conns.admit(peer.ip()) else {
            drop(stream); // the caps are full of busy connections: closed at once
            continue;
        };
        let slot = Arc::new(slot);
        let _ = stream.set_nodelay(true);
        let (app, for_requests) = (app.clone(), slot.clone());
        let svc = tower::service_fn(move |mut req: axum::http::Request<hyper::body::Incoming>| {
            // In flight (not idle) until answered.
            let busy = Busy::new(&for_requests);
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut().insert(ConnSlot(for_requests.clone()));
            let app = app.clone();
            async move {
                let r = app.oneshot(req.map(axum::body::Body::new)).await;
                drop(busy);
                r
            }
        });
        let conn = http
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(svc))
            .with_upgrades();
        let mut stop = stop_rx.clone();
        tokio::spawn(async move {
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stop.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
                _ = slot.conn.close.notified() => {
                    // Room was needed and this connection was the oldest idle one.
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(slot);
        });
    }
    drop(listener);
    let _ = stop_tx.send(());
    // Let open requests finish, for at most 10 s (WebSockets end with the process).
    let deadline = Instant::now() + Duration::from_secs(10);
    while conns.open_http() > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}

/// The caps that go with `connections`: `(connections, per address, WebSockets)`: an
/// eighth of them per address (at least 8), half of them WebSockets.
pub fn caps_for_connections(connections: usize) -> (usize, usize, usize) {
    let total = connections.max(1);
    (total, (total / 8).max(8).min(total), (total / 2).max(1))
}

/// Caps sized from the process's descriptor limit (see [`caps_for_connections`]).
/// Descriptors beyond the connections are kept for the database (SQLite's files or
/// PostgreSQL's connections), the listener and the process's own.
pub fn caps_for_descriptors(nofile: u64) -> (usize, usize, usize) {
    const RESERVED: u64 = 128;
    caps_for_connections(nofile.saturating_sub(RESERVED).clamp(16, 1 << 20) as usize)
}

/// Raises the process's soft limit on open descriptors to its hard limit (at most
/// 1,048,576), as servers do, and returns the soft limit then in force; `None` where it
/// cannot be read.
pub fn raise_descriptor_limit() -> Option<u64> {
    match rlimit::increase_nofile_limit(1 << 20) {
        Ok(n) => Some(n),
        Err(_) => rlimit::getrlimit(rlimit::Resource::NOFILE)
            .ok()
            .map(|(soft, _)| soft),
    }
}
