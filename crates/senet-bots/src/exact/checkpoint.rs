//! Checkpoints of a table being built: a 4-piece table takes hours on a small machine (one
//! level pair alone, 4v4, takes most of them), so the solver saves its work every few minutes
//! ([`Checkpoint::every`]) and a later build of the same table goes on from the file instead of
//! starting over. Value iteration converges to its unique fixed point from any values, so a
//! level resumed from the values of its last saved sweep gives the table a straight build
//! gives (bit for bit on one thread, where the sweeps are the same; a test checks this).
//!
//! The file (`RULES-N.senet-partial` beside the table, [`partial_name`]) holds the rule set,
//! options, layout and value width it was made for (a file of another build is refused, saying
//! which), the reports of the finished level pairs, the level pair in progress with its sweeps
//! so far, every value as the solver keeps it (f32 or f64 bits, NaN where nothing is solved
//! yet) and a checksum over all of it (a corrupt file is refused, never used). It is written
//! through a temporary file renamed into place, so a build killed while saving keeps the
//! previous one.

use super::{fnv1a_more, Cell, Layout, LevelReport, FNV_OFFSET};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const MAGIC: &[u8; 8] = b"SENETCKP";
const VERSION: u32 = 1;
/// Values per chunk read or written.
const CHUNK: usize = 1 << 20;

/// Where and how often a build saves its work ([`super::Table::build_resumable`]).
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The checkpoint file; read first if it is there.
    pub path: PathBuf,
    /// Save at most this often: between sweeps or level pairs, once this long has passed
    /// since the last save (or the start).
    pub every: Duration,
    /// Stop once this long has passed, the work saved (between sweeps or level pairs): a
    /// build that must fit a session, continued by the next.
    pub stop_after: Option<Duration>,
}

/// The checkpoint file's name for a table file's name: `kendall-4.senet-partial` beside
/// `kendall-4.senet-exact`.
pub fn partial_name(table_file: &Path) -> PathBuf {
    table_file.with_extension("senet-partial")
}

/// The level pair in progress when a checkpoint was saved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Current {
    pub pieces: (usize, usize),
    /// Sweeps done on it.
    pub sweeps: usize,
    /// Wall-clock seconds spent on it so far (earlier runs included).
    pub seconds: f64,
    pub graph_seconds: f64,
}

/// What a build has saved and where it is: the finished level pairs' reports.
pub(super) struct Saver<'a> {
    ck: &'a Checkpoint,
    /// Rule set id, options key, layout (pieces, squares, total) and value width.
    key: Vec<u8>,
    pub finished: Vec<LevelReport>,
    started: Instant,
    last: Instant,
    /// Whether this build has swept at least once (a stop comes after some progress).
    swept: bool,
}

impl<'a> Saver<'a> {
    pub fn new(
        ck: &'a Checkpoint,
        rules: &str,
        options: &str,
        layout: &Layout,
        cell_bytes: usize,
    ) -> Saver<'a> {
        let mut key = Vec::new();
        key.push(rules.len() as u8);
        key.extend_from_slice(rules.as_bytes());
        key.extend_from_slice(&(options.len() as u16).to_le_bytes());
        key.extend_from_slice(options.as_bytes());
        key.push(layout.pieces as u8);
        key.push(layout.squares.len() as u8);
        key.extend_from_slice(&layout.squares);
        key.push(cell_bytes as u8);
        key.extend_from_slice(&layout.total.to_le_bytes());
        let now = Instant::now();
        Saver {
            ck,
            key,
            finished: Vec::new(),
            started: now,
            last: now,
            swept: false,
        }
    }

    /// Whether a save is due.
    pub fn due(&self) -> bool {
        self.last.elapsed() >= self.ck.every
    }

    /// Notes a sweep done.
    pub fn swept(&mut self) {
        self.swept = true;
    }

    /// Whether the build must stop now ([`Checkpoint::stop_after`]): never before its first
    /// sweep, so that every build gets on.
    pub fn must_stop(&self) -> bool {
        self.swept
            && self
                .ck
                .stop_after
                .is_some_and(|d| self.started.elapsed() >= d)
    }

    /// Reads the checkpoint if there is one: its values go into `values` (every cell), and
    /// the finished pairs into [`Saver::finished`]; the pair in progress is returned. `Ok(None)`
    /// when there is no file.
    pub fn resume<C: Cell>(&mut self, values: &[C]) -> Result<Option<Option<Current>>, String> {
        let path = &self.ck.path;
        let what = path.display();
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read the checkpoint {what}: {e}")),
        };
        let mut r = Hashed {
            inner: BufReader::with_capacity(1 << 22, file),
            hash: FNV_OFFSET,
        };
        let short = |e: std::io::Error| {
            format!("the checkpoint {what} is truncated or unreadable ({e}); remove it (or --restart) to build from scratch")
        };
        let mut magic = [0u8; 8];
        r.read_exact(&mut magic).map_err(short)?;
        if &magic != MAGIC {
            return Err(format!(
                "{what} is not a senet checkpoint (no SENETCKP header)"
            ));
        }
        let version = u32::from_le_bytes(r.array().map_err(short)?);
        if version != VERSION {
            return Err(format!("the checkpoint {what} has version {version}, this senet reads {VERSION}; remove it (or --restart)"));
        }
        let mut key = vec![0u8; self.key.len()];
        r.read_exact(&mut key).map_err(short)?;
        if key != self.key {
            return Err(format!(
                "the checkpoint {what} is of another build (rule set, options, pieces, squares or --bits differ); remove it (or --restart) to build this one from scratch"
            ));
        }
        let n = u32::from_le_bytes(r.array().map_err(short)?) as usize;
        let mut finished = Vec::with_capacity(n);
        for _ in 0..n {
            finished.push(read_report(&mut r).map_err(short)?);
        }
        let current = match r.array::<1>().map_err(short)?[0] {
            0 => None,
            _ => {
                let a = u32::from_le_bytes(r.array().map_err(short)?) as usize;
                let b = u32::from_le_bytes(r.array().map_err(short)?) as usize;
                Some(Current {
                    pieces: (a, b),
                    sweeps: u64::from_le_bytes(r.array().map_err(short)?) as usize,
                    seconds: f64::from_le_bytes(r.array().map_err(short)?),
                    graph_seconds: f64::from_le_bytes(r.array().map_err(short)?),
                })
            }
        };
        let mut buf = vec![0u8; CHUNK * C::BYTES];
        for chunk in values.chunks(CHUNK) {
            let bytes = &mut buf[..chunk.len() * C::BYTES];
            r.read_exact(bytes).map_err(short)?;
            for (c, b) in chunk.iter().zip(bytes.chunks_exact(C::BYTES)) {
                c.set_le(b);
            }
        }
        let sum = r.hash;
        let mut stored = [0u8; 8];
        r.inner.read_exact(&mut stored).map_err(short)?;
        let mut extra = [0u8; 1];
        if u64::from_le_bytes(stored) != sum || r.inner.read(&mut extra).map_err(short)? != 0 {
            return Err(format!(
                "the checkpoint {what} is corrupt (its checksum does not match); remove it (or --restart) to build from scratch"
            ));
        }
        self.finished = finished;
        Ok(Some(current))
    }

    /// Saves the finished pairs, `current` and every value (through a temporary file).
    pub fn save<C: Cell>(&mut self, values: &[C], current: Option<Current>) -> Result<(), String> {
        let path = &self.ck.path;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let tmp = path.with_extension("senet-partial-tmp");
        let fail =
            |e: std::io::Error| format!("cannot write the checkpoint {}: {e}", tmp.display());
        let file = std::fs::File::create(&tmp).map_err(fail)?;
        let mut w = Hashing {
            inner: BufWriter::with_capacity(1 << 22, file),
            hash: FNV_OFFSET,
        };
        w.write_all(MAGIC).map_err(fail)?;
        w.write_all(&VERSION.to_le_bytes()).map_err(fail)?;
        w.write_all(&self.key).map_err(fail)?;
        w.write_all(&(self.finished.len() as u32).to_le_bytes())
            .map_err(fail)?;
        for r in &self.finished {
            write_report(&mut w, r).map_err(fail)?;
        }
        match current {
            None => w.write_all(&[0]).map_err(fail)?,
            Some(c) => {
                w.write_all(&[1]).map_err(fail)?;
                w.write_all(&(c.pieces.0 as u32).to_le_bytes())
                    .map_err(fail)?;
                w.write_all(&(c.pieces.1 as u32).to_le_bytes())
                    .map_err(fail)?;
                w.write_all(&(c.sweeps as u64).to_le_bytes())
                    .map_err(fail)?;
                w.write_all(&c.seconds.to_le_bytes()).map_err(fail)?;
                w.write_all(&c.graph_seconds.to_le_bytes()).map_err(fail)?;
            }
        }
        let mut buf = Vec::with_capacity(CHUNK * C::BYTES);
        for chunk in values.chunks(CHUNK) {
            buf.clear();
            for c in chunk {
                c.push_le(&mut buf);
            }
            w.write_all(&buf).map_err(fail)?;
        }
        let sum = w.hash;
        let mut inner = w.inner;
        inner.write_all(&sum.to_le_bytes()).map_err(fail)?;
        let file = inner.into_inner().map_err(|e| fail(e.into_error()))?;
        file.sync_all().map_err(fail)?;
        drop(file);
        std::fs::rename(&tmp, path)
            .map_err(|e| format!("cannot write the checkpoint {}: {e}", path.display()))?;
        self.last = Instant::now();
        Ok(())
    }
}

/// Removes a checkpoint (after its table is written); no file is no error.
pub fn remove(path: &Path) -> Result<(), String> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!(
            "cannot remove the checkpoint {}: {e}",
            path.display()
        )),
    }
}

fn write_report(w: &mut impl Write, r: &LevelReport) -> std::io::Result<()> {
    w.write_all(&(r.pieces.0 as u32).to_le_bytes())?;
    w.write_all(&(r.pieces.1 as u32).to_le_bytes())?;
    for x in [
        r.states,
        r.sweeps as u64,
        r.graph_bytes,
        r.graph_leaves,
        r.near_leaves,
        r.recomputed,
    ] {
        w.write_all(&x.to_le_bytes())?;
    }
    for x in [r.last_change, r.seconds, r.graph_seconds] {
        w.write_all(&x.to_le_bytes())?;
    }
    Ok(())
}

fn read_report(r: &mut Hashed<impl Read>) -> std::io::Result<LevelReport> {
    let a = u32::from_le_bytes(r.array()?) as usize;
    let b = u32::from_le_bytes(r.array()?) as usize;
    let mut u = [0u64; 6];
    for x in &mut u {
        *x = u64::from_le_bytes(r.array()?);
    }
    let mut f = [0f64; 3];
    for x in &mut f {
        *x = f64::from_le_bytes(r.array()?);
    }
    Ok(LevelReport {
        pieces: (a, b),
        states: u[0],
        sweeps: u[1] as usize,
        graph_bytes: u[2],
        graph_leaves: u[3],
        near_leaves: u[4],
        recomputed: u[5],
        last_change: f[0],
        seconds: f[1],
        graph_seconds: f[2],
        resumed: true,
    })
}

/// A reader that hashes what it reads (FNV-1a).
struct Hashed<R> {
    inner: R,
    hash: u64,
}

impl<R: Read> Hashed<R> {
    fn array<const N: usize>(&mut self) -> std::io::Result<[u8; N]> {
        let mut a = [0u8; N];
        self.read_exact(&mut a)?;
        Ok(a)
    }
}

impl<R: Read> Read for Hashed<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash = fnv1a_more(self.hash, &buf[..n]);
        Ok(n)
    }
}

/// A writer that hashes what it writes (FNV-1a).
struct Hashing<W> {
    inner: W,
    hash: u64,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash = fnv1a_more(self.hash, &buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}
