//! `senet serve`: starts the browser game (crate `senet-server`) on a SQLite file.

use std::io::Write;
use std::path::PathBuf;

/// Arguments of `senet serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// The SQLite database file, created and migrated on start.
    #[arg(long, default_value = "senet.sqlite")]
    db: PathBuf,
}

/// Serves until Ctrl-C or SIGTERM; returns the process exit code.
pub fn run(args: ServeArgs) -> i32 {
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
    let db = args.db.clone();
    let result = rt.block_on(senet_server::serve(
        &args.addr,
        &args.db,
        senet_server::Limits::default(),
        move |addr| {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(
                out,
                "senet serve: listening on http://{addr}/ (database {})",
                db.display()
            );
            let _ = out.flush();
        },
        shutdown(),
    ));
    match result {
        Ok(()) => 0,
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
