//! `senet admin`: the operator's moderation commands (issue 56, `docs/deploy.md`), run
//! against the database directly, also while servers serve it: reports, players, bans,
//! renames, closing accounts, and the expiry of idle sessions and anonymous players. What
//! they change reaches every server within its session cache's 10 s.

use senet_server::moderation::{self, Found};
use senet_server::Store;
use std::sync::Arc;

/// Arguments of `senet admin`.
#[derive(clap::Args, Debug)]
pub struct AdminArgs {
    /// The database: the SQLite file `senet serve` uses, or its PostgreSQL URL.
    #[arg(long, default_value = "senet.sqlite", global = true)]
    db: String,
    /// Print JSON.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand, Debug)]
enum Action {
    /// List the reports not yet dealt with (oldest first), or every report with --all.
    Reports {
        /// Every report, also those dealt with.
        #[arg(long)]
        all: bool,
    },
    /// Mark a report dealt with.
    Resolve {
        /// The report's ID (from `senet admin reports`).
        report: String,
        /// A note for the record (what was done).
        #[arg(long)]
        note: Option<String>,
    },
    /// Show a player: ID, name, account, ban, games, reports about them.
    Show {
        /// The player's name (any case) or ID.
        player: String,
    },
    /// Rename a player (an offensive name); the new name must be free.
    Rename {
        /// The player's name or ID.
        player: String,
        /// The new name (3-20 ASCII letters, digits, _ and -, starting with a letter).
        name: String,
    },
    /// Ban a player: their sessions end and their open seeks go; they can neither seek nor
    /// be paired until unbanned.
    Ban {
        /// The player's name or ID.
        player: String,
        /// Why (kept for the operator).
        #[arg(long)]
        reason: String,
    },
    /// Lift a ban.
    Unban {
        /// The player's name or ID.
        player: String,
    },
    /// Close a player's account: the name becomes deleted-..., the password, sessions and
    /// open seeks go; the games stay.
    Close {
        /// The player's name or ID.
        player: String,
    },
    /// Remove idle sessions (30 days unused) and anonymous players with no game, account or
    /// report (3 days unused) now; the servers do this every 10 minutes.
    Expire,
}

/// Runs `senet admin`; returns the process exit code.
pub fn run(args: AdminArgs) -> i32 {
    match act(&args) {
        Ok(out) => {
            use std::io::Write;
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(stdout, "{out}");
            let _ = stdout.flush();
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn open(db: &str) -> Result<Arc<dyn Store>, String> {
    // An operator's command never makes a new database: a mistyped path is an error.
    if !senet_server::is_postgres(db) && !std::path::Path::new(db).is_file() {
        return Err(format!(
            "there is no database file {db}: give the --db that `senet serve` uses"
        ));
    }
    senet_server::open_store(db)
}

fn find(store: &dyn Store, who: &str) -> Result<Found, String> {
    moderation::find(store, who)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("there is no player {who:?} (by name or ID)"))
}

fn when(t: Option<i64>) -> String {
    t.map_or_else(|| "-".into(), |t| t.to_string())
}

fn act(a: &AdminArgs) -> Result<String, String> {
    let store = open(&a.db)?;
    let store = &*store;
    let err = |e: senet_server::store::StoreError| e.to_string();
    match &a.action {
        Action::Reports { all } => {
            let rows = moderation::reports(store, *all).map_err(err)?;
            if a.json {
                return serde_json::to_string_pretty(&rows).map_err(|e| e.to_string());
            }
            if rows.is_empty() {
                return Ok(if *all {
                    "no reports".into()
                } else {
                    "no open reports".into()
                });
            }
            let mut out =
                String::from("report\tcreated\treporter\treported\tgame\tresolved\treason\n");
            for r in rows {
                out += &format!(
                    "{}\t{}\t{}\t{}{}\t{}\t{}\t{}\n",
                    r.id,
                    r.created,
                    r.reporter,
                    r.reported,
                    if r.banned { " (banned)" } else { "" },
                    r.game.as_deref().unwrap_or("-"),
                    when(r.resolved),
                    r.reason.replace(['\n', '\t'], " ")
                );
            }
            Ok(out.trim_end().to_string())
        }
        Action::Resolve { report, note } => {
            if moderation::resolve(store, report, note.as_deref(), now()).map_err(err)? {
                Ok(format!("report {report} marked dealt with"))
            } else {
                Err(format!(
                    "there is no open report {report:?} (see senet admin reports --all)"
                ))
            }
        }
        Action::Show { player } => {
            let f = find(store, player)?;
            let games = senet_server::players::player_games(store, &f.player.id, i64::MAX)
                .map_err(err)?
                .len();
            let about: Vec<_> = moderation::reports(store, true)
                .map_err(err)?
                .into_iter()
                .filter(|r| r.reported_id == f.player.id)
                .collect();
            if a.json {
                return serde_json::to_string_pretty(&serde_json::json!({
                    "id": f.player.id,
                    "name": f.player.name,
                    "account": f.player.account,
                    "created": f.player.created,
                    "banned": f.banned,
                    "ban_reason": f.ban_reason,
                    "closed": f.closed,
                    "games": games,
                    "reports": about,
                }))
                .map_err(|e| e.to_string());
            }
            Ok(format!(
                "id: {}\nname: {}\naccount: {}\ncreated: {}\nbanned: {}{}\nclosed: {}\ngames: {games}\nreports about them: {} ({} open)",
                f.player.id,
                f.player.name,
                if f.player.account { "yes" } else { "no (anonymous)" },
                f.player.created,
                when(f.banned),
                f.ban_reason.map(|r| format!(" ({r})")).unwrap_or_default(),
                when(f.closed),
                about.len(),
                about.iter().filter(|r| r.resolved.is_none()).count()
            ))
        }
        Action::Rename { player, name } => {
            let f = find(store, player)?;
            senet_server::online::check_name(name)?;
            match senet_server::players::set_name_password(store, &f.player.id, name, None)
                .map_err(err)?
            {
                Ok(()) => Ok(format!("{} is now {name}", f.player.name)),
                Err(_) => Err(format!("the name {name:?} is taken")),
            }
        }
        Action::Ban { player, reason } => {
            let f = find(store, player)?;
            if reason.trim().is_empty() {
                return Err("give the reason with --reason TEXT".into());
            }
            if moderation::ban(store, &f.player.id, reason.trim(), now()).map_err(err)? {
                Ok(format!(
                    "{} is banned: their sessions ended and their seeks were withdrawn",
                    f.player.name
                ))
            } else {
                Ok(format!("{} was banned already", f.player.name))
            }
        }
        Action::Unban { player } => {
            let f = find(store, player)?;
            if moderation::unban(store, &f.player.id).map_err(err)? {
                Ok(format!("{} is no longer banned", f.player.name))
            } else {
                Err(format!("{} is not banned", f.player.name))
            }
        }
        Action::Close { player } => {
            let f = find(store, player)?;
            match moderation::close(store, &f.player.id, now()).map_err(err)? {
                Some(name) => Ok(format!(
                    "{}'s account is closed: now {name}, signed out everywhere; the games stay",
                    f.player.name
                )),
                None => Err(format!("{}'s account was closed already", f.player.name)),
            }
        }
        Action::Expire => {
            let e = moderation::expire(
                store,
                now(),
                moderation::SESSION_IDLE_S,
                moderation::ANONYMOUS_IDLE_S,
            )
            .map_err(err)?;
            Ok(format!(
                "removed {} idle sessions and {} idle anonymous players",
                e.sessions, e.players
            ))
        }
    }
}
