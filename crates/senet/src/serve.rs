//! `senet serve`: starts the browser game (crate `senet-server`) on a SQLite file or a
//! PostgreSQL database.

use std::io::Write;
use std::net::IpAddr;
use std::time::Duration;

/// Arguments of `senet serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// The database: a SQLite file (created and migrated on start), or a PostgreSQL URL
    /// (postgres://USER@HOST/DB or postgresql://...), which several servers may share.
    #[arg(long, default_value = "senet.sqlite")]
    db: String,
    /// API requests per second allowed to one client address, sustained (0: no limit).
    #[arg(long, default_value_t = 50.0, value_name = "N")]
    rate: f64,
    /// API requests one client address may make in a burst.
    #[arg(long, default_value_t = 200, value_name = "N")]
    burst: u32,
    /// A reverse proxy's address (repeatable): for its requests the client address is read
    /// from the X-Forwarded-For header it sets (the rightmost entry that is not a trusted
    /// proxy; an entry there that is no address, like `unknown`, is a client of its own,
    /// never the proxy).
    #[arg(long = "trusted-proxy", value_name = "IP")]
    trusted_proxies: Vec<IpAddr>,
    /// Open connections at most, WebSockets included; when full, the oldest idle one is
    /// closed to make room. Default: sized from the process's descriptor limit (printed).
    #[arg(long, value_name = "N")]
    max_connections: Option<usize>,
    /// Open connections at most from one client address (a trusted proxy's are not
    /// counted). Default: an eighth of --max-connections, at least 8.
    #[arg(long, value_name = "N")]
    max_per_address: Option<usize>,
    /// Open WebSockets (live game watchers) at most. Default: half of --max-connections.
    #[arg(long, value_name = "N")]
    max_websockets: Option<usize>,
    /// Seconds a client has to send a request's headers, or to start its next request on
    /// an idle keep-alive connection.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    header_timeout: f64,
    /// An address that may read GET /metrics besides loopback ones (repeatable): a
    /// Prometheus server on another machine.
    #[arg(long = "metrics-from", value_name = "IP")]
    metrics_from: Vec<IpAddr>,
    /// New players (visitors without a session) one client address may make an hour (0: no
    /// limit).
    #[arg(long, default_value_t = 20, value_name = "N")]
    players_per_hour: u32,
    /// Accounts one client address may make an hour (each costs an Argon2 hash; 0: no
    /// limit).
    #[arg(long, default_value_t = 5, value_name = "N")]
    accounts_per_hour: u32,
    /// Seeks and quick-pairing requests one client address may make an hour (0: no limit).
    #[arg(long, default_value_t = 60, value_name = "N")]
    seeks_per_hour: u32,
    /// Open seeks from one client address at once, over every server on the database (0: no
    /// limit).
    #[arg(long, default_value_t = 6, value_name = "N")]
    open_seeks_per_address: u32,
    /// Puzzles per rule set to make in the background on start when the database holds
    /// fewer (from the exact tables and self-play; docs/puzzles.md; 0: none).
    #[arg(long, default_value_t = 40, value_name = "N")]
    puzzles: usize,
}

/// The server's limits from the arguments, checked; the connection caps not given are sized
/// from `nofile`, the process's descriptor limit (512 connections where it is unknown).
fn limits(a: &ServeArgs, nofile: Option<u64>) -> Result<senet_server::Limits, String> {
    if !(a.rate.is_finite() && a.rate >= 0.0) {
        return Err(format!(
            "--rate must be a number of requests per second, 0 or more, got {}",
            a.rate
        ));
    }
    if a.burst == 0 {
        return Err(format!(
            "--burst must be at least 1 request, got {}",
            a.burst
        ));
    }
    for (flag, v) in [
        ("--max-connections", a.max_connections),
        ("--max-per-address", a.max_per_address),
        ("--max-websockets", a.max_websockets),
    ] {
        if v == Some(0) {
            return Err(format!("{flag} must be at least 1"));
        }
    }
    let (total, per_address, websockets) = match (a.max_connections, nofile) {
        (Some(n), _) => senet_server::http::caps_for_connections(n),
        (None, Some(nofile)) => senet_server::http::caps_for_descriptors(nofile),
        (None, None) => senet_server::http::caps_for_connections(512),
    };
    if !(a.header_timeout.is_finite() && (0.1..=3600.0).contains(&a.header_timeout)) {
        return Err(format!(
            "--header-timeout must be from 0.1 to 3600 seconds, got {}",
            a.header_timeout
        ));
    }
    Ok(senet_server::Limits {
        per_second: a.rate,
        burst: a.burst,
        trusted_proxies: a.trusted_proxies.clone(),
        max_connections: total,
        max_per_address: a.max_per_address.unwrap_or(per_address),
        max_websockets: a.max_websockets.unwrap_or(websockets),
        header_timeout: Duration::from_secs_f64(a.header_timeout),
        metrics_from: a.metrics_from.clone(),
        per_address: senet_server::service::AddressLimits {
            players: a.players_per_hour,
            accounts: a.accounts_per_hour,
            seeks: a.seeks_per_hour,
            open_seeks: a.open_seeks_per_address,
            window: Duration::from_secs(3600),
        },
        puzzles: a.puzzles,
        ..senet_server::Limits::default()
    })
}

/// Serves until Ctrl-C or SIGTERM; returns the process exit code.
pub fn run(args: ServeArgs) -> i32 {
    let nofile = senet_server::http::raise_descriptor_limit();
    let limits = match limits(&args, nofile) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return 1;
        }
    };
    let shown = senet_server::db_display(&args.db);
    let caps = (
        limits.max_connections,
        limits.max_per_address,
        limits.max_websockets,
    );
    let explicit = args.max_connections.is_some();
    let result = rt.block_on(senet_server::serve(
        &args.addr,
        &args.db,
        limits,
        move |addr| {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(
                out,
                "senet serve: listening on http://{addr}/ (database {shown})"
            );
            let _ = writeln!(
                out,
                "senet serve: at most {} connections, {} per address, {} WebSockets ({})",
                caps.0,
                caps.1,
                caps.2,
                match (explicit, nofile) {
                    (true, _) => "as given".to_string(),
                    (false, Some(n)) => format!("from a descriptor limit of {n}"),
                    (false, None) => "the descriptor limit is unknown".to_string(),
                }
            );
            let _ = out.flush();
        },
        shutdown(),
    ));
    match result {
        Ok(()) => {
            // Whoever started the server may have stopped reading its output: no panic.
            let mut out = std::io::stdout().lock();
            let _ = writeln!(
                out,
                "senet serve: stopped (requests in flight finished, live connections told to reconnect)"
            );
            let _ = out.flush();
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        serve: ServeArgs,
    }

    fn parse(args: &[&str]) -> Result<senet_server::Limits, String> {
        let cli = Cli::try_parse_from(std::iter::once("serve").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
        limits(&cli.serve, Some(1024))
    }

    #[test]
    fn limits_come_from_the_command_line() {
        let l = parse(&[
            "--rate",
            "5",
            "--burst",
            "20",
            "--trusted-proxy",
            "10.0.0.1",
            "--trusted-proxy",
            "::1",
            "--max-connections",
            "64",
            "--header-timeout",
            "2.5",
        ])
        .unwrap();
        assert_eq!((l.per_second, l.burst, l.max_connections), (5.0, 20, 64));
        assert_eq!(
            l.trusted_proxies,
            [
                "10.0.0.1".parse::<IpAddr>().unwrap(),
                "::1".parse().unwrap()
            ]
        );
        assert_eq!(l.header_timeout, Duration::from_millis(2500));
        let d = parse(&[]).unwrap();
        assert_eq!((d.per_second, d.burst), (50.0, 200));
        assert_eq!(
            d.per_address,
            senet_server::service::AddressLimits::default()
        );
        let p = parse(&["--players-per-hour", "0", "--open-seeks-per-address", "2"]).unwrap();
        assert_eq!((p.per_address.players, p.per_address.open_seeks), (0, 2));
        // Caps not given come from the descriptor limit (1,024 here): room is kept for
        // the database and the process's own descriptors.
        assert_eq!(
            (d.max_connections, d.max_per_address, d.max_websockets),
            (896, 112, 448)
        );
        let c = parse(&["--max-per-address", "5", "--max-websockets", "7"]).unwrap();
        assert_eq!((c.max_per_address, c.max_websockets), (5, 7));
        assert!(d.trusted_proxies.is_empty());
        for (args, needle) in [
            (&["--rate=-1"][..], "--rate must be"),
            (&["--burst", "0"][..], "--burst must be at least 1"),
            (&["--max-connections", "0"][..], "--max-connections"),
            (&["--max-per-address", "0"][..], "--max-per-address"),
            (&["--max-websockets", "0"][..], "--max-websockets"),
            (&["--header-timeout", "0"][..], "--header-timeout"),
            (
                &["--trusted-proxy", "proxy.local"][..],
                "invalid IP address",
            ),
        ] {
            let e = parse(args).unwrap_err();
            assert!(e.contains(needle), "{args:?}: {e}");
        }
    }
}
