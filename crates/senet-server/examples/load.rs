//! The load test of `senet serve` (bounded, loopback only): client threads play many
//! hot-seat games at once through the HTTP API with random legal moves, against in-process
//! servers on a SQLite file or a PostgreSQL database; prints accepted moves per second,
//! latencies, where the CPU went (client threads, servers, the PostgreSQL cluster, the rest of
//! the machine) and, on PostgreSQL, the transactions and WAL flushes.
//!
//!     cargo run --release -p senet-server --example load -- [--clients 8] [--games 8]
//!         [--seconds 20] [--max-moves 200000] [--rules kendall5]
//!         [--postgres | --postgres-options "-c NAME=VALUE ..." | --db postgres://...]
//!         [--servers N]
//!
//! `--postgres` starts a throwaway PostgreSQL cluster (as `tests/postgres.rs` does, but with
//! PostgreSQL's default durability); `--postgres-options` starts one with these server options;
//! `--servers N` runs N servers on the one database, client `c` on server `c % N`.
//!
//! Figures and the machine they were measured on: docs/performance.md.

#[path = "../tests/support/cpu.rs"]
mod cpu;
#[path = "../tests/support/load.rs"]
mod load;
#[path = "../tests/support/pg.rs"]
mod pg;
use cpu::Cpu;

fn main() {
    let mut plan = load::Plan {
        clients: 8,
        games_per_client: 8,
        seconds: 20.0,
        max_moves: 200_000,
        rules: "kendall5".into(),
        postgres: None,
        servers: 1,
    };
    let mut cluster = false;
    let mut pg_options = String::new();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).cloned().unwrap_or_default();
        let bad = |what: &str| -> ! {
            eprintln!("error: {what} needs a positive number, got {v:?}");
            std::process::exit(2)
        };
        match args[i].as_str() {
            "--clients" => {
                plan.clients = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .unwrap_or_else(|| bad("--clients"))
            }
            "--games" => {
                plan.games_per_client = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .unwrap_or_else(|| bad("--games"))
            }
            "--seconds" => {
                plan.seconds = v
                    .parse()
                    .ok()
                    .filter(|&s: &f64| s > 0.0 && s <= 600.0)
                    .unwrap_or_else(|| bad("--seconds (at most 600)"))
            }
            "--max-moves" => {
                plan.max_moves = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .unwrap_or_else(|| bad("--max-moves"))
            }
            "--rules" => plan.rules = v,
            "--db" if senet_server::is_postgres(&v) => plan.postgres = Some(v),
            "--postgres" => {
                // A throwaway cluster (PostgreSQL's defaults: fsync and synchronous commit on).
                cluster = true;
                i -= 1;
            }
            "--postgres-options" => {
                cluster = true;
                pg_options = v;
            }
            "--servers" => {
                plan.servers = v
                    .parse()
                    .ok()
                    .filter(|&n| (1..=8).contains(&n))
                    .unwrap_or_else(|| bad("--servers (1 to 8)"))
            }
            a => {
                eprintln!(
                    "error: unknown argument {a:?}; see the comment at the top of examples/load.rs"
                );
                std::process::exit(2)
            }
        }
        i += 2;
    }
    let dir = std::env::temp_dir().join(format!("senet-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let pg = cluster.then(|| pg::Cluster::start_with(&pg_options));
    if let Some(pg) = &pg {
        plan.postgres = Some(pg.create_db("load"));
    }
    if plan.servers > 1 && plan.postgres.is_none() {
        eprintln!("error: --servers needs PostgreSQL (--postgres or --db postgres://...)");
        std::process::exit(2)
    }
    let flushes_before = plan.postgres.as_deref().map(wal_counts);
    let before = Cpu::now(pg.as_ref().and_then(|c| c.postmaster_pid()));
    let r = load::run(&plan, &dir);
    // The servers' connections are closed by now; let the backends exit and be reaped.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let after = Cpu::now(pg.as_ref().and_then(|c| c.postmaster_pid()));
    let flushes_after = plan.postgres.as_deref().map(wal_counts);
    drop(pg);
    let _ = std::fs::remove_dir_all(&dir);
    let per_s = r.moves as f64 / r.seconds;
    let req_s = (r.moves + r.throws) as f64 / r.seconds;
    println!(
        "{} clients x {} games ({} concurrent games, {}), {}, {:.1} s",
        plan.clients,
        plan.games_per_client,
        plan.clients * plan.games_per_client,
        plan.rules,
        match &plan.postgres {
            None => "SQLite".to_string(),
            Some(_) => format!("PostgreSQL, {} server(s)", plan.servers),
        },
        r.seconds
    );
    println!(
        "games created {}, finished {}; accepted moves {} ({per_s:.0}/s), throws {}, requests {req_s:.0}/s, errors {}",
        r.created, r.finished, r.moves, r.throws, r.errors
    );
    println!(
        "latency of throw and move requests: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        r.quantile_ms(0.5),
        r.quantile_ms(0.9),
        r.quantile_ms(0.99),
        r.quantile_ms(1.0)
    );
    // Where the CPU went: the client threads, the rest of this process (the servers), the
    // PostgreSQL cluster (every process of it, exited backends included) and everything
    // else on the machine (other people's work), against the cores' capacity over the run.
    let process = after.process - before.process;
    let server = process - r.client_cpu_s;
    let postgres = after.postgres - before.postgres;
    let busy = after.machine - before.machine;
    let wall = after.wall.duration_since(before.wall).as_secs_f64();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let us = |s: f64| s * 1e6 / (r.moves.max(1)) as f64;
    println!(
        "CPU s: clients {:.1}, servers {server:.1}, PostgreSQL {postgres:.1}, rest of the machine {:.1}; capacity {:.1} ({cores} cores x {wall:.1} s)",
        r.client_cpu_s,
        (busy - process - postgres).max(0.0),
        cores as f64 * wall
    );
    println!(
        "CPU per accepted move (throws included): clients {:.0} us, servers {:.0} us, PostgreSQL {:.0} us; load average {} -> {}",
        us(r.client_cpu_s),
        us(server),
        us(postgres),
        before.loadavg,
        after.loadavg
    );
    if let (Some(a), Some(b)) = (flushes_before, flushes_after) {
        let (commits, syncs) = (b.0 - a.0, b.1 - a.1);
        let writes = (r.moves + r.throws) as f64;
        println!(
            "PostgreSQL: {commits} transactions committed in the database, {syncs} WAL flushes in the cluster ({:.1} accepted throws and moves per flush)",
            writes / syncs.max(1) as f64
        );
    }
    // Issue 9's bar (SQLite), and issue 36's for PostgreSQL.
    let p99_bar = if plan.postgres.is_some() { 25.0 } else { 20.0 };
    let met = per_s >= 2000.0 && r.quantile_ms(0.99) < p99_bar && r.errors == 0;
    println!(
        "bar (>= 2000 accepted moves/s, p99 < {p99_bar} ms, no error): {}",
        if met { "met" } else { "NOT met" }
    );
}

/// Transactions committed in the database at `url` and WAL flushes (fsyncs) in its cluster
/// so far, from PostgreSQL's statistics (a backend reports its own when it ends, so read them
/// once the servers' connections are closed).
fn wal_counts(url: &str) -> (i64, i64) {
    let url = url.to_string();
    // On a thread of its own: the blocking client may not run on a tokio worker.
    std::thread::spawn(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
        c.batch_execute("SELECT pg_stat_clear_snapshot()").unwrap();
        let r = c
            .query_one(
                "SELECT xact_commit, (SELECT wal_sync FROM pg_stat_wal)
                 FROM pg_stat_database WHERE datname = current_database()",
                &[],
            )
            .expect("PostgreSQL's statistics");
        (r.get(0), r.get(1))
    })
    .join()
    .unwrap()
}
