#![allow(dead_code)] // shared by examples/load.rs and examples/online_load.rs, which read different parts
//! Where the CPU went during a load run (Linux `/proc`): this process, the PostgreSQL
//! cluster's processes, the whole machine. Shared by `examples/load.rs` and
//! `examples/online_load.rs`.

/// CPU seconds used so far (Linux `/proc`; zeros elsewhere).
pub struct Cpu {
    /// This process (user + system, all threads, exited ones included).
    pub process: f64,
    /// The PostgreSQL cluster: the postmaster, its reaped children and its live ones.
    pub postgres: f64,
    /// The whole machine, every core (busy time, not idle or I/O wait).
    pub machine: f64,
    /// `/proc/loadavg`'s 1-minute figure.
    pub loadavg: String,
    /// When it was read.
    pub wall: std::time::Instant,
}

/// Clock ticks per second of `/proc` times (Linux's `USER_HZ`).
const TICKS: f64 = 100.0;

/// Fields 3.. of `/proc/PID/stat` (after the command name), or none.
fn stat(pid: &str) -> Vec<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let Some((_, rest)) = s.rsplit_once(") ") else {
        return Vec::new();
    };
    // The state (field 3) is a letter: keep the place with a 0.
    rest.split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect()
}

impl Cpu {
    pub fn now(postmaster: Option<u32>) -> Cpu {
        // Field n of /proc/PID/stat is index n - 3 here: ppid 4, utime 14, stime 15,
        // cutime 16, cstime 17.
        let own = stat("self");
        let process = own.get(11..13).map_or(0, |v| v.iter().sum::<u64>()) as f64 / TICKS;
        let mut postgres = 0.0;
        if let Some(pm) = postmaster {
            let pm_stat = stat(&pm.to_string());
            postgres += pm_stat.get(11..15).map_or(0, |v| v.iter().sum::<u64>()) as f64 / TICKS;
            for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
                let name = e.file_name().to_string_lossy().to_string();
                if !name.bytes().all(|b| b.is_ascii_digit()) {
                    continue;
                }
                let st = stat(&name);
                if st.get(1) == Some(&(pm as u64)) {
                    postgres += st.get(11..13).map_or(0, |v| v.iter().sum::<u64>()) as f64 / TICKS;
                }
            }
        }
        let machine = std::fs::read_to_string("/proc/stat")
            .ok()
            .and_then(|s| {
                let l = s.lines().next()?.to_string();
                let v: Vec<u64> = l
                    .split_whitespace()
                    .skip(1)
                    .map(|f| f.parse().unwrap_or(0))
                    .collect();
                // user nice system idle iowait irq softirq steal
                Some(v.iter().take(8).sum::<u64>() - v.get(3)? - v.get(4)?)
            })
            .map_or(0.0, |t| t as f64 / TICKS);
        let loadavg = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|s| s.split_whitespace().next().map(String::from))
            .unwrap_or_default();
        Cpu {
            process,
            postgres,
            machine,
            loadavg,
            wall: std::time::Instant::now(),
        }
    }
}
