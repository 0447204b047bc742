#![allow(dead_code)] // shared by tests/postgres.rs and examples/load.rs, which use different parts
//! A throwaway PostgreSQL cluster for tests: `initdb` into a temporary directory, a server on
//! a free loopback port (its socket directory inside that directory too), stopped and
//! removed on drop. Needs the PostgreSQL server binaries (Debian package `postgresql`;
//! `scripts/test.sh` installs it when missing). As root, the cluster runs as the `postgres`
//! user, since `initdb` refuses root. `SENET_PG_BIN` names the binaries' directory if it is
//! not `/usr/lib/postgresql/<newest>/bin`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

pub struct Cluster {
    dir: PathBuf,
    bin: PathBuf,
    /// The server's port on 127.0.0.1.
    pub port: u16,
    /// The server's options (`pg_ctl -o`), for [`Cluster::restart`].
    opts: String,
}

fn bin_dir() -> PathBuf {
    if let Some(b) = std::env::var_os("SENET_PG_BIN") {
        return PathBuf::from(b);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL is not installed: apt-get install -y postgresql (or set SENET_PG_BIN)")
        .filter_map(|e| {
            let e = e.ok()?;
            let v: u32 = e.file_name().to_str()?.parse().ok()?;
            Some((v, e.path().join("bin")))
        })
        .filter(|(_, p)| p.join("initdb").exists())
        .collect();
    versions.sort();
    versions
        .pop()
        .expect("no PostgreSQL server binaries under /usr/lib/postgresql")
        .1
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Runs a PostgreSQL binary, as the `postgres` user when we are root.
fn run(bin: &Path, args: &[&str]) {
    let mut c = if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(bin);
        c
    } else {
        Command::new(bin)
    };
    let out = c.args(args).output().expect("run a PostgreSQL binary");
    assert!(
        out.status.success(),
        "{} {args:?} failed: {}{}",
        bin.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Cluster {
    /// Creates and starts a cluster (a few seconds), for tests: without fsync.
    pub fn start() -> Cluster {
        Cluster::start_with("-c fsync=off")
    }

    /// Creates and starts a cluster with these extra server options.
    pub fn start_with(extra: &str) -> Cluster {
        static N: AtomicU32 = AtomicU32::new(0);
        let bin = bin_dir();
        let dir = std::env::temp_dir().join(format!(
            "senet-pg-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        if is_root() {
            let ok = Command::new("chown")
                .args(["postgres:postgres"])
                .arg(&dir)
                .status()
                .unwrap();
            assert!(ok.success(), "chown postgres {}", dir.display());
        }
        let data = dir.join("data");
        run(
            &bin.join("initdb"),
            &[
                "-D",
                data.to_str().unwrap(),
                "-A",
                "trust",
                "-U",
                "senet",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        let port = free_port();
        let opts = format!(
            "-c listen_addresses=127.0.0.1 -p {port} -k {} -c max_connections=200 {extra}",
            dir.display()
        );
        let c = Cluster {
            dir,
            bin,
            port,
            opts,
        };
        c.restart();
        c
    }

    /// Runs `pg_ctl` on the cluster's data directory with `args`.
    fn pg_ctl(&self, args: &[&str]) {
        let data = self.dir.join("data");
        let mut all = vec!["-D", data.to_str().unwrap()];
        all.extend_from_slice(args);
        run(&self.bin.join("pg_ctl"), &all);
    }

    /// Stops the server at once (`pg_ctl -m immediate`), keeping its data: every connection
    /// to it dies, and new ones are refused until [`Cluster::restart`].
    pub fn stop(&self) {
        self.pg_ctl(&["-m", "immediate", "-w", "stop"]);
    }

    /// Starts the (stopped) server again on the same port.
    pub fn restart(&self) {
        let log = self.dir.join("log");
        self.pg_ctl(&["-l", log.to_str().unwrap(), "-o", &self.opts, "-w", "start"]);
    }

    /// The process ID of the cluster's postmaster (from `postmaster.pid`), if it runs.
    pub fn postmaster_pid(&self) -> Option<u32> {
        let pid = std::fs::read_to_string(self.dir.join("data/postmaster.pid")).ok()?;
        pid.lines().next()?.trim().parse().ok()
    }

    /// The URL of database `db` (created by [`Cluster::create_db`]).
    pub fn url(&self, db: &str) -> String {
        format!("postgres://senet@127.0.0.1:{}/{db}", self.port)
    }

    /// Creates an empty database; returns its URL.
    pub fn create_db(&self, db: &str) -> String {
        // On a thread of its own: the blocking client may not run on a tokio worker.
        let (admin, sql) = (self.url("postgres"), format!("CREATE DATABASE {db}"));
        std::thread::spawn(move || {
            let mut c = postgres::Client::connect(&admin, postgres::NoTls).unwrap();
            c.batch_execute(&sql).unwrap();
        })
        .join()
        .unwrap();
        self.url(db)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.dir.join("data");
        let mut c = if is_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"])
                .arg(self.bin.join("pg_ctl"));
            c
        } else {
            Command::new(self.bin.join("pg_ctl"))
        };
        let _ = c
            .args([
                "-D",
                data.to_str().unwrap(),
                "-m",
                "immediate",
                "-w",
                "stop",
            ])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
