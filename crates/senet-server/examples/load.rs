//! The load test of `senet serve` (bounded, loopback only): client threads play many
//! hot-seat games at once through the HTTP API with random legal moves, against in-process
//! servers on a SQLite file or a PostgreSQL database; prints accepted moves per second and
//! latencies.
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

#[path = "../tests/support/load.rs"]
mod load;
#[path = "../tests/support/pg.rs"]
mod pg;

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
    let r = load::run(&plan, &dir);
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
    let met = per_s >= 2000.0 && r.quantile_ms(0.99) < 20.0 && r.errors == 0;
    println!(
        "bar (>= 2000 accepted moves/s, p99 < 20 ms, no error): {}",
        if met { "met" } else { "NOT met" }
    );
}
