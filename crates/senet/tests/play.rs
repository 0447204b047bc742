//! `senet play` in its plain line mode (standard input and output are pipes here): scripted
//! whole games, the commands, resuming a saved record, and argument errors.

use senet_rules::{Event, Record};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_senet"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs")
}

/// Runs `senet play ARGS` with all of `input` at once; returns stdout, stderr and the code.
fn run(args: &[&str], input: &str) -> (String, String, Option<i32>) {
    let mut c = spawn(args);
    let mut stdin = c.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let o = c.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
        o.status.code(),
    )
}

fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("senet-play-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).display().to_string()
}

/// Talks to a running `senet play`: reads lines up to each prompt (`> ...`) and answers.
struct Driver {
    out: BufReader<ChildStdout>,
    input: ChildStdin,
    transcript: Vec<String>,
}

impl Driver {
    /// The next prompt line, or None when the program ended.
    fn prompt(&mut self) -> Option<String> {
        loop {
            let mut l = String::new();
            if self.out.read_line(&mut l).unwrap() == 0 {
                return None;
            }
            let l = l.trim_end().to_string();
            self.transcript.push(l.clone());
            if l.starts_with("> ") {
                return Some(l);
            }
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// Lines printed since the transcript had `from` lines.
    fn since(&self, from: usize) -> String {
        self.transcript[from..].join("\n")
    }
}

/// A whole hot-seat game of kendall5 typed move by move: the script reads each prompt's
/// legal moves and answers with a square or a whole move, tries a few commands and bad
/// input on the way, saves the record at the end, and checks it replays to the moves sent.
#[test]
fn a_scripted_hot_seat_game_to_the_end_then_save() {
    let mut child = spawn(&["kendall5", "--vs", "human", "--seed", "12"]);
    let mut d = Driver {
        out: BufReader::new(child.stdout.take().unwrap()),
        input: child.stdin.take().unwrap(),
        transcript: vec![],
    };
    let path = tmp("scripted.json");
    let mut sent: Vec<String> = Vec::new();
    let mut decisions = 0;
    let mut tried_bad = false;
    loop {
        let p = d.prompt().expect("a prompt before the end");
        if p.starts_with("> play again?") {
            let n = d.transcript.len();
            d.send("review");
            assert!(d.prompt().unwrap().starts_with("> play again?"));
            let review = d.since(n);
            assert!(
                review.contains("kendall5 analysed by expectimax"),
                "{review}"
            );
            assert!(review.contains("luck-adjusted result"), "{review}");
            let n = d.transcript.len();
            d.send(&format!("save {path}"));
            assert!(d.prompt().unwrap().starts_with("> play again?"));
            assert!(
                d.since(n).contains("Saved the game record"),
                "{}",
                d.since(n)
            );
            d.send("n");
            break;
        }
        if p.contains(" to throw") {
            d.send(if decisions % 2 == 0 { "" } else { "t" });
            continue;
        }
        // "> player 1 (X) to move with 3: 1-4 3-6 ..."
        let (_, list) = p.split_once(": ").expect("moves listed");
        let moves: Vec<&str> = list.split(' ').collect();
        if !tried_bad && moves.len() > 1 {
            tried_bad = true;
            let n = d.transcript.len();
            d.send("99-100");
            assert!(d.prompt().unwrap() == p, "the same prompt again");
            assert!(d.since(n).contains("error: "), "{}", d.since(n));
            d.send("hint");
            d.prompt().unwrap();
            assert!(d.since(n).contains("Hint (expert): "), "{}", d.since(n));
            assert!(
                d.since(n).contains("every move's win chance: "),
                "{}",
                d.since(n)
            );
            d.send("undo");
            d.prompt().unwrap();
            assert!(d.since(n).contains("undo is for games against a bot"));
        }
        // Alternate between the last move listed and the first; type the starting square
        // when only that move starts there.
        let m = if decisions % 3 == 0 {
            moves[0]
        } else {
            moves[moves.len() - 1]
        };
        let from = m.split('-').next().unwrap();
        let unique = moves
            .iter()
            .filter(|x| x.split('-').next() == Some(from))
            .count()
            == 1;
        d.send(if unique && m != "pass" { from } else { m });
        sent.push(m.to_string());
        decisions += 1;
    }
    let status = child.wait().unwrap();
    assert!(status.success());
    let all = d.transcript.join("\n");
    assert!(all.contains("result: Player"), "{all}");
    let rec = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let replay = rec.replay().expect("the saved record replays");
    let moves: Vec<String> = rec
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Move { mv } => Some(mv.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(moves, sent);
    assert_eq!(rec.seed, Some(12));
    assert!(rec.result.is_some());
    assert_eq!(replay.moves, decisions);
    // The board was printed as text, with the square numbers.
    assert!(all.contains("│1     │2     │"), "{all}");
}

/// Only Enter, against each level of bot: throws and takes the first move listed, to the end.
#[test]
fn enter_alone_plays_whole_games_against_every_level() {
    for (i, level) in ["beginner", "casual", "strong", "expert"]
        .iter()
        .enumerate()
    {
        for rules in ["kendall", "kendall5"] {
            let seed = (40 + i).to_string();
            let (out, err, code) = run(
                &[rules, "--vs", level, "--seat", "second", "--seed", &seed],
                &"\n".repeat(5000),
            );
            assert_eq!(code, Some(0), "{err}");
            assert!(out.contains("result: "), "{rules} vs {level}: {out}");
            assert!(out.contains(&format!("{} (X) threw", capital(level))));
            assert!(!out.contains("error"), "{out}");
        }
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next().unwrap().to_uppercase().chain(c).collect()
}

#[test]
fn watching_two_bots_needs_no_input_and_is_reproducible() {
    let args = [
        "kendall",
        "--seat",
        "watch",
        "--vs",
        "random,beginner",
        "--seed",
        "5",
    ];
    let (a, err, code) = run(&args, "");
    assert_eq!(code, Some(0), "{err}");
    assert!(a.contains("player 1 (X): bot random; player 2 (O): bot beginner"));
    assert!(a.contains("result: "));
    assert!(a.contains("> play again?"));
    let (b, _, _) = run(&args, "");
    assert_eq!(a, b, "the same seed gives the same game");
}

#[test]
fn save_mid_game_then_resume_with_load() {
    let path = tmp("resume.json");
    let script = format!("\n\n\n\n\n\nsave {path}\nquit\n");
    let (out, err, code) = run(&["kendall", "--vs", "casual", "--seed", "8"], &script);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(&format!("Saved the game record to {path}.")));
    assert!(
        out.trim_end().ends_with(&format!("Record: {path}.")),
        "{out}"
    );
    let rec = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let end = rec.replay().unwrap().end;
    assert!(rec.result.is_none(), "not over yet");

    let (out, err, code) = run(&["--load", &path, "--vs", "casual"], "board\nquit\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(&format!(
        "Resumed after {} moves.",
        rec.replay().unwrap().moves
    )));
    assert!(out.contains(&format!("position: {end}")), "{out}");

    // Loading from inside a game works the same.
    let (out, _, _) = run(
        &["kendall5", "--seed", "1"],
        &format!("load {path}\nquit\n"),
    );
    assert!(
        out.contains(&format!("Loaded {path}: resumed after")),
        "{out}"
    );
}

#[test]
fn commands_answer_and_bad_lines_are_explained() {
    let (out, _, code) = run(
        &["kendall5", "--seed", "3"],
        "help\nrules\nmoves\n12\nthrow 9\nthrow 2\nt\n1-4\nsave\nboard\nquit\n",
    );
    assert_eq!(code, Some(0));
    assert!(out.contains("commands (one per line):"));
    assert!(out.contains("Kendall, five pieces (modern)"));
    assert!(out.contains("Special squares (marked ◆):"));
    assert!(out.contains("no throw yet"));
    assert!(out.contains("must throw first"), "{out}");
    assert!(
        out.contains("error: bad throw: 9 is not a possible throw"),
        "{out}"
    );
    assert!(out.contains("You threw 2"), "{out}");
    assert!(
        out.contains("error: the throw in hand is 2: play a move"),
        "{out}"
    );
    assert!(
        out.contains("error: 1-4 is illegal with a throw of 2"),
        "{out}"
    );
    assert!(out.contains("error: give a file name"));
    assert!(!out.contains("panicked"));
}

#[test]
fn bad_arguments_are_errors_before_any_game() {
    let cases: &[(&[&str], &str)] = &[
        (&["nosuch"], "unknown rule set"),
        (&["kendall5", "--vs", "nobody"], "unknown bot \"nobody\""),
        (
            &["kendall5", "--seat", "middle"],
            "--seat is first, second or watch",
        ),
        (
            &["kendall5", "--seat", "watch", "--vs", "human"],
            "needs bots",
        ),
        (&["kendall5", "--option", "cap=0"], "cap"),
        (
            &["--load", "/nonexistent/x.json"],
            "cannot read /nonexistent/x.json",
        ),
        (&["kendall5", "--load", "x.json"], "not both"),
        (
            &["--load", "x.json", "--option", "cap=5"],
            "--option cannot be used with --load",
        ),
    ];
    for (args, want) in cases {
        let (out, err, code) = run(args, "");
        assert_eq!(code, Some(1), "{args:?}: {out}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn a_finished_record_loads_and_shows_its_result() {
    let rec = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(["random-game", "kendall5", "--seed", "4"])
        .output()
        .unwrap();
    let path = tmp("finished.json");
    std::fs::write(&path, &rec.stdout).unwrap();
    let (out, err, code) = run(&["--load", &path], "moves\nn\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("result: "), "{out}");
    assert!(out.contains("   1. player 1 (X) threw"), "{out}");
}

/// Issue 13: a series in the plain mode for every rule set. You (seat 1) against the random
/// bot, Enter for every throw and move; `y` continues the series after each game; the series
/// record is saved at the end and `senet replay` checks it.
#[test]
fn a_series_against_a_bot_in_every_rule_set_saves_a_series_record_that_replays() {
    for rules in [
        "kendall", "kendall5", "senat", "houses", "pyramid", "parker",
    ] {
        let mut child = spawn(&[
            rules,
            "--vs",
            "random",
            "--seed",
            "5",
            "--series-games",
            "2",
            "--option",
            if rules == "senat" {
                "score=true"
            } else {
                "cap=2000"
            },
        ]);
        let mut d = Driver {
            out: BufReader::new(child.stdout.take().unwrap()),
            input: child.stdin.take().unwrap(),
            transcript: vec![],
        };
        let path = tmp(&format!("series-{rules}.json"));
        let mut nexts = 0;
        loop {
            let p = d.prompt().expect("a prompt before the end");
            if p.starts_with("> next game of the series?") {
                nexts += 1;
                d.send("y");
            } else if p.starts_with("> the series is over") {
                d.send(&format!("save {path}"));
                assert!(d.prompt().unwrap().starts_with("> the series is over"));
                d.send("");
                break;
            } else {
                d.send("");
            }
        }
        assert!(child.wait().unwrap().success());
        assert_eq!(nexts, 1, "{rules}: one next game in a series of two");
        let all = d.transcript.join("\n");
        assert!(
            all.contains("series of 2 games, game 1: you 0 - 0 random"),
            "{all}"
        );
        assert!(
            all.contains("seat 2 plays player 1"),
            "{rules}: starts alternate"
        );
        assert!(all.contains("series result: "), "{all}");
        assert!(all.contains("Saved the series record"), "{all}");
        let text = std::fs::read_to_string(&path).unwrap();
        let s = senet_rules::Series::from_json(&text).unwrap();
        let r = s.replay().unwrap();
        assert!(r.standing.over);
        assert_eq!(s.games.len(), 2);
        assert_eq!(s.seats, Some(["human".to_string(), "random".to_string()]));
        let out = Command::new(env!("CARGO_BIN_EXE_senet"))
            .args(["replay", &path])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}");
        assert!(stdout.contains("2 games replayed, all legal"), "{stdout}");
        assert!(stdout.contains("game 2: seat 2 first"), "{stdout}");
        let last = d.transcript.last().unwrap();
        assert!(
            last.contains("the series") || last.contains("The series"),
            "{last}"
        );
    }
}

#[test]
fn a_saved_unfinished_series_resumes_with_load() {
    let path = tmp("series-resume.json");
    // Save in the middle of game 1, then quit.
    let input = format!("\n\n\n\n\nsave {path}\nquit\n");
    let (out, _, code) = run(
        &["kendall5", "--vs", "random", "--seed", "2", "--series", "2"],
        &input,
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("Saved the series record"), "{out}");
    let (out, err, code) = run(&["--load", &path, "--vs", "random"], &"\n".repeat(3000));
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("Resumed after"), "{out}");
    assert!(
        out.contains("series to 2 points, game 1: you 0 - 0 random"),
        "{out}"
    );
    // A series flag with --load, or without a rule set, is an error.
    let (_, err, code) = run(&["--load", &path, "--series", "3"], "");
    assert_eq!(code, Some(1));
    assert!(err.contains("--series"), "{err}");
    let (_, err, code) = run(&["--series", "3"], "");
    assert_eq!(code, Some(1));
    assert!(err.contains("needs a rule set"), "{err}");
    let (_, err, code) = run(&["kendall", "--series", "3", "--starts", "loser"], "");
    assert_eq!(code, Some(1));
    assert!(err.contains("alternate or rules"), "{err}");
    // A corrupt series record is an error of senet replay and of --load, never a panic.
    let text = std::fs::read_to_string(&path).unwrap();
    let bad = tmp("series-bad.json");
    std::fs::write(&bad, text.replace("\"first\": 1", "\"first\": 2")).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(["replay", &bad])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("game 1: seat 2 plays the first player"),
        "{err}"
    );
    let (_, err, code) = run(&["--load", &bad], "");
    assert_eq!(code, Some(1));
    assert!(err.contains("game 1:"), "{err}");
    std::fs::write(
        &bad,
        "{\"format\": \"senet-series/1\", \"rules\": \"kendall\"}",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(["replay", &bad])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a valid series record"));
}
