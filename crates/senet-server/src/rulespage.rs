//! The rules pages (`/rules/<id>`, issue 32): each rule set's rules as `docs/rules/<id>.md`
//! words them, each with its ruling IDs, and demonstrations on a small board. A
//! demonstration is data only (a position, a move it allows and a move it forbids); what the
//! move does and why the other is refused come from the rules crate (`legal_moves`,
//! `why_illegal`), so the page restates no rule.

use crate::service::{legal_moves_of, rule_info};
use crate::wire::{LegalMove, RuleInfo};
use senet_rules::{AnyGame, BoardView, Game, MoveList, Notation, RuleSet, Status, ThrowKind, View};
use serde::Serialize;
use utoipa::ToSchema;

/// One rule set's page.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RulesPage {
    /// The rule set as the lobby's catalogue describes it (options, sides, throws and their
    /// weights, special squares).
    pub rules: RuleInfo,
    /// The start position's board.
    pub start: BoardView,
    /// The throws of a game in order of use: the first throw's odds, then later throws'
    /// where they differ (parker's dice-off, pyramid's single-die opening).
    pub throws: Vec<ThrowTable>,
    /// The rules in the order of `docs/rules/<id>.md`.
    pub sections: Vec<RuleSection>,
}

/// The outcomes of a throw with their weights.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ThrowTable {
    /// When these are the throws: "the first throw", "later throws".
    pub when: &'static str,
    /// What the throw is made with.
    pub kind: ThrowKind,
    /// Every outcome with its weight.
    pub outcomes: Vec<(String, u32)>,
}

/// The first throw's odds and the next different ones, found by playing the start on.
fn throw_tables(start: &AnyGame) -> Vec<ThrowTable> {
    let table = |g: &AnyGame, when| {
        let d = g.throw_dist();
        ThrowTable {
            when,
            kind: d.kind,
            outcomes: d
                .outcomes
                .iter()
                .map(|(t, w)| (t.to_string(), *w))
                .collect(),
        }
    };
    let mut out = vec![table(start, "the first throw")];
    let mut g = *start;
    for _ in 0..6 {
        match g.status() {
            Status::Throw(_) => {
                let d = g.throw_dist();
                if d.outcomes != start.throw_dist().outcomes {
                    out.push(table(&g, "later throws"));
                    break;
                }
                if g.set_throw(d.outcomes[0].0).is_err() {
                    break;
                }
            }
            Status::Move(_) => {
                let mut ms = MoveList::new();
                g.legal_moves(&mut ms);
                match ms.first() {
                    Some(&m) => {
                        g.play_unchecked(m);
                    }
                    None => break,
                }
            }
            Status::Over(_) => break,
        }
    }
    out
}

/// One rule (a paragraph or section of `docs/rules/<id>.md`).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RuleSection {
    /// Its title, e.g. "Safe squares".
    pub title: String,
    /// The rulings it follows (IDs of `shared/rulings.md`), e.g. `["K4"]`.
    pub rulings: Vec<String>,
    /// Its text, plain.
    pub text: String,
    /// Positions that show it.
    pub demos: Vec<Demo>,
    /// Its rulings that no board shows, each with where the page shows it instead.
    pub no_board: Vec<NoBoard>,
}

/// A ruling that no move on a board can show (the throw odds, the start, the result, the
/// turn cap), with a line saying what on the page shows it instead.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct NoBoard {
    /// The ruling.
    pub ruling: &'static str,
    /// Why no board shows it, and what does.
    pub reason: &'static str,
}

/// A position that shows a rule: a move it allows and (where there is one) a move it
/// forbids, with the rules crate's reason.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Demo {
    /// The ruling shown.
    pub ruling: &'static str,
    /// The position (`docs/notation.md`), a throw in hand.
    pub position: String,
    /// The throw in hand.
    pub throw: String,
    /// The board.
    pub view: BoardView,
    /// Every legal move here.
    pub legal: Vec<LegalMove>,
    /// The move the rule allows (one of `legal`).
    pub allowed: LegalMove,
    /// The board after it.
    pub after: BoardView,
    /// A move the rule forbids, and why, in the rules crate's words.
    #[schema(required = true)]
    pub forbidden: Option<Forbidden>,
}

/// A move that is not legal in a demonstration's position.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Forbidden {
    /// The move string.
    #[serde(rename = "move")]
    pub mv: &'static str,
    /// Why it is refused (`why_illegal`).
    pub why: String,
}

/// One demonstration as data: a position (with its throw) where a ruling decides something,
/// the move it allows and the move it forbids. Nothing here says what the moves do: that
/// comes from the rules crate when the page is made. The tests check every entry: the position
/// parses, the allowed move is legal (and does what `does` names), and the forbidden move is
/// refused with a reason that cites the ruling given with it.
struct DemoData {
    /// The rule set.
    rules: &'static str,
    /// The ruling shown.
    ruling: &'static str,
    /// The position (`docs/notation.md`), a throw in hand.
    position: &'static str,
    /// The move the ruling allows.
    allowed: &'static str,
    /// A word of the allowed move's kinds that the ruling is about ("bonus throw",
    /// "forfeit", "backward", ...), where it is about what the move does.
    does: Option<&'static str>,
    /// The move the ruling forbids, and the ruling that `why_illegal`'s reason cites.
    forbidden: Option<(&'static str, &'static str)>,
}

const fn d(
    rules: &'static str,
    ruling: &'static str,
    position: &'static str,
    allowed: &'static str,
    does: Option<&'static str>,
    forbidden: Option<(&'static str, &'static str)>,
) -> DemoData {
    DemoData {
        rules,
        ruling,
        position,
        allowed,
        does,
        forbidden,
    }
}

/// The demonstrations, in page order within each rule set.
const DEMOS: &[DemoData] = &[
    // kendall
    d(
        "kendall",
        "C1",
        "kendall ........X..........O.......... off=4,4 turn=1 throw=3 dec=20",
        "9-12",
        None,
        None,
    ),
    d(
        "kendall",
        "K1",
        "kendall OXOXOXOXOX.................... off=0,0 turn=1 throw=3 forced=10 dec=0",
        "10-13",
        None,
        Some(("8-11", "K1")),
    ),
    d(
        "kendall",
        "K2",
        "kendall ..X.....................O..... off=4,4 turn=1 throw=4 dec=20",
        "3-7",
        Some("bonus throw"),
        None,
    ),
    d(
        "kendall",
        "C4",
        "kendall .X..OOO....................... off=4,2 turn=1 throw=4 dec=20",
        "pass",
        Some("forfeit"),
        Some(("2-6", "K6")),
    ),
    d(
        "kendall",
        "K3",
        "kendall ......X..X..O......O.......... off=3,3 turn=1 throw=3 dec=20",
        "10-13",
        Some("swap"),
        Some(("7-10", "K3")),
    ),
    d(
        "kendall",
        "K4",
        "kendall ....O............X....X..O.... off=3,3 turn=1 throw=3 dec=20",
        "18-21",
        None,
        Some(("23-26", "K4")),
    ),
    d(
        "kendall",
        "K5",
        "kendall ....X....X..OO................ off=3,3 turn=1 throw=3 dec=20",
        "5-8",
        None,
        Some(("10-13", "K5")),
    ),
    d(
        "kendall",
        "K6",
        "kendall ..X......X.OOO................ off=3,2 turn=1 throw=6 dec=20",
        "3-9",
        None,
        Some(("10-16", "K6")),
    ),
    d(
        "kendall",
        "K7",
        "kendall .O................X....X...... off=3,4 turn=1 throw=4 dec=20",
        "19-23",
        None,
        Some(("24-28", "K7")),
    ),
    d(
        "kendall",
        "K8",
        "kendall .O.......................X.... off=4,4 turn=1 throw=1 dec=20",
        "26-15",
        Some("trap"),
        None,
    ),
    d(
        "kendall",
        "K9",
        "kendall .O.........................XX. off=3,4 turn=1 throw=3 dec=20",
        "28-off",
        Some("bear off"),
        Some(("29-off", "K9")),
    ),
    d(
        "kendall",
        "K10",
        "kendall .O.........................OXO off=4,2 turn=1 throw=3 dec=20",
        "29-26",
        Some("backward"),
        None,
    ),
    // kendall5
    d(
        "kendall5",
        "C1",
        "kendall5 ........X..........O.......... off=4,4 turn=1 throw=3 dec=20",
        "9-12",
        None,
        None,
    ),
    d(
        "kendall5",
        "R2",
        "kendall5 ..X.....................O..... off=4,4 turn=1 throw=5 dec=20",
        "3-8",
        Some("bonus throw"),
        None,
    ),
    d(
        "kendall5",
        "C4",
        "kendall5 .X...OO....................... off=4,3 turn=1 throw=4 dec=20",
        "pass",
        Some("forfeit"),
        Some(("2-6", "R4")),
    ),
    d(
        "kendall5",
        "R3",
        "kendall5 ......X..X..O......O.......... off=3,3 turn=1 throw=3 dec=20",
        "10-13",
        Some("swap"),
        Some(("7-10", "R3")),
    ),
    d(
        "kendall5",
        "R4",
        "kendall5 ....X....X..OO................ off=3,3 turn=1 throw=3 dec=20",
        "5-8",
        None,
        Some(("10-13", "R4")),
    ),
    d(
        "kendall5",
        "R5",
        "kendall5 ..X......X.OOO................ off=3,2 turn=1 throw=5 dec=20",
        "3-8",
        None,
        Some(("10-15", "R5")),
    ),
    d(
        "kendall5",
        "R6",
        "kendall5 .O..................X..X...... off=3,4 turn=1 throw=4 dec=20",
        "21-25",
        None,
        Some(("24-28", "R6")),
    ),
    d(
        "kendall5",
        "R7",
        "kendall5 .O.......................X.... off=4,4 turn=1 throw=1 dec=20",
        "26-15",
        Some("trap"),
        None,
    ),
    d(
        "kendall5",
        "R8",
        "kendall5 .O.........................XX. off=3,4 turn=1 throw=3 dec=20",
        "28-off",
        Some("bear off"),
        Some(("29-off", "R8")),
    ),
    d(
        "kendall5",
        "R9",
        "kendall5 .O......................X..... off=4,4 turn=1 throw=3 dec=20",
        "25-22",
        Some("backward"),
        Some(("25-28", "R6")),
    ),
    // senat
    d(
        "senat",
        "C1",
        "senat ........X..........O.......... off=4,4 turn=1 throw=3 dec=20",
        "9-12",
        None,
        None,
    ),
    d(
        "senat",
        "S3",
        "senat OXOXOXOXOX.................... off=0,0 turn=1 throw=1 forced=10 dec=0",
        "10-11",
        Some("bonus throw"),
        Some(("8-9", "S3")),
    ),
    d(
        "senat",
        "S3",
        "senat OXOXOXOXO...X................. off=0,0 turn=2 throw=3 forced=9 dec=2",
        "9-12",
        None,
        Some(("7-10", "S3")),
    ),
    d(
        "senat",
        "S4",
        "senat ..X.....................O..... off=4,4 turn=1 throw=6 dec=20",
        "3-9",
        Some("bonus throw"),
        None,
    ),
    d(
        "senat",
        "C4",
        "senat .X..OOO....................... off=4,2 turn=1 throw=4 dec=20",
        "pass",
        Some("forfeit"),
        Some(("2-6", "S6")),
    ),
    d(
        "senat",
        "S5",
        "senat ......X..X..O......O.......... off=3,3 turn=1 throw=3 dec=20",
        "10-13",
        Some("swap"),
        Some(("7-10", "S5")),
    ),
    d(
        "senat",
        "S6",
        "senat ....X....X..OO................ off=3,3 turn=1 throw=3 dec=20",
        "5-8",
        None,
        Some(("10-13", "S6")),
    ),
    d(
        "senat",
        "S6",
        "senat ..X......X.OOO................ off=3,2 turn=1 throw=6 dec=20",
        "3-9",
        None,
        Some(("10-16", "S6")),
    ),
    d(
        "senat",
        "S7",
        "senat ....X..OOO.................X.. off=3,2 turn=1 throw=4 dec=20",
        "5-1",
        Some("backward"),
        Some(("5-9", "S6")),
    ),
    d(
        "senat",
        "S8",
        "senat .O.....................X...... off=4,4 turn=1 throw=3 dec=20",
        "24-15",
        Some("trap"),
        None,
    ),
    d(
        "senat",
        "S9",
        "senat ....O............X....X..O.... off=3,3 turn=1 throw=3 dec=20",
        "18-21",
        None,
        Some(("23-26", "S9")),
    ),
    d(
        "senat",
        "S11",
        "senat ....X..OOO.................X.. off=3,2 turn=1 throw=4 dec=20",
        "28-24",
        Some("backward"),
        Some(("28-off", "S11")),
    ),
    d(
        "senat",
        "S10",
        "senat .O...............X..........X. off=3,4 turn=1 throw=4 dec=20",
        "29-off",
        Some("bear off"),
        None,
    ),
    d(
        "senat",
        "S10",
        "senat .O...............X............ off=4,4 turn=1 throw=4 left=2 dec=21",
        "18-20",
        None,
        Some(("18-22", "S10")),
    ),
    // houses
    d(
        "houses",
        "C1",
        "houses ........X..........O.......... off=4,4 turn=1 throw=3 dec=20",
        "9-12",
        None,
        None,
    ),
    d(
        "houses",
        "H1",
        "houses OXOXOXOXOX.................... off=0,0 turn=1 throw=3 forced=10 dec=0",
        "10-13",
        None,
        Some(("8-11", "H1")),
    ),
    d(
        "houses",
        "H2",
        "houses ..X.....................O..... off=4,4 turn=1 throw=5 dec=20",
        "3-8",
        Some("bonus throw"),
        None,
    ),
    d(
        "houses",
        "H12",
        "houses:six_sticks=true ..X.....................O..... off=4,4 turn=1 throw=7 dec=20",
        "3-10",
        Some("bonus throw"),
        None,
    ),
    d(
        "houses",
        "H3",
        "houses ......X..X..O......O.......... off=3,3 turn=1 throw=3 dec=20",
        "10-13",
        Some("sent back"),
        Some(("7-10", "H4")),
    ),
    d(
        "houses",
        "H4",
        "houses ..X..X..................O..... off=3,4 turn=1 throw=3 dec=20",
        "6-9",
        None,
        Some(("3-6", "H4")),
    ),
    d(
        "houses",
        "H5",
        "houses ....X....X..OO................ off=3,3 turn=1 throw=3 dec=20",
        "5-8",
        None,
        Some(("10-13", "H5")),
    ),
    d(
        "houses",
        "H5",
        "houses ..X......X.OOO................ off=3,2 turn=1 throw=5 dec=20",
        "3-8",
        None,
        Some(("10-15", "H5")),
    ),
    d(
        "houses",
        "H6",
        "houses ..X........X..O.........O..... off=3,3 turn=1 throw=3 dec=20",
        "3-6",
        None,
        Some(("12-15", "H6")),
    ),
    d(
        "houses",
        "H7",
        "houses .O................X....X...... off=3,4 turn=1 throw=4 dec=20",
        "24-26",
        None,
        None,
    ),
    d(
        "houses",
        "H7",
        "houses .O................X....X.O.... off=3,3 turn=1 throw=4 dec=20",
        "19-23",
        None,
        Some(("24-26", "H7")),
    ),
    d(
        "houses",
        "H8",
        "houses .O.......................X.... off=4,4 turn=1 throw=1 dec=20",
        "26-15",
        Some("trap"),
        None,
    ),
    d(
        "houses",
        "H9",
        "houses ..X.........X...........O..... off=3,4 turn=1 throw=2 dec=20",
        "13-15",
        Some("bonus throw"),
        None,
    ),
    d(
        "houses",
        "H10",
        "houses .O.........................XX. off=3,4 turn=1 throw=3 dec=20",
        "28-off",
        Some("bear off"),
        Some(("29-off", "H10")),
    ),
    d(
        "houses",
        "H11",
        "houses ...........X.OOO.............. off=4,2 turn=1 throw=2 dec=20",
        "pass",
        Some("forfeit"),
        Some(("12-14", "H5")),
    ),
    // pyramid
    d(
        "pyramid",
        "C1",
        "pyramid ........S...............s..... off=-,- turn=1 dice=3 dec=20",
        "9-12",
        None,
        None,
    ),
    d(
        "pyramid",
        "Y2",
        "pyramid LlLlMmMmMmSsSsSsSsSs.......... off=-,- turn=1 dice=3 dec=0",
        "19-22",
        None,
        None,
    ),
    d(
        "pyramid",
        "Y3",
        "pyramid .s....................S....... off=-,- turn=1 dice=1-4 dec=20",
        "23-24",
        None,
        Some(("23-27", "Y3")),
    ),
    d(
        "pyramid",
        "C4",
        "pyramid .s.........................S.. off=-,- turn=1 dice=1-2 dec=20",
        "pass",
        Some("forfeit"),
        Some(("28-29", "Y7")),
    ),
    d(
        "pyramid",
        "C7",
        "pyramid ........S..S..ss.............S off=-,- turn=1 dice=1-3 dec=20",
        "30-off",
        Some("bear off"),
        Some(("9-10", "Y7")),
    ),
    d(
        "pyramid",
        "Y4",
        "pyramid LlLlMmMmMmSsSsSsSsSs.......... off=-,- turn=2 dice=2-1 dec=1",
        "2-3",
        Some("capture"),
        Some(("2-4", "Y4")),
    ),
    d(
        "pyramid",
        "Y5",
        "pyramid ..........Ssss.......S........ off=-,- turn=1 dice=4 dec=20",
        "22-26",
        None,
        Some(("11-15", "Y5")),
    ),
    d(
        "pyramid",
        "Y6",
        "pyramid .s.....................S...... off=-,- turn=1 dice=2 dec=20",
        "24-26",
        None,
        Some(("24-22", "Y6")),
    ),
    d(
        "pyramid",
        "Y7",
        "pyramid .s.................S.......S.. off=-,- turn=1 dice=3 dec=20",
        "28-off",
        Some("bear off"),
        Some(("20-23", "Y7")),
    ),
    d(
        "pyramid",
        "Y8",
        "pyramid .s.................S.....S.... off=-,- turn=1 dice=2 dec=20",
        "26-28",
        None,
        Some(("20-22", "Y8")),
    ),
    // parker
    d(
        "parker",
        "P1",
        "parker .....ooooO/........../X......x.. turn=1 throw=4 dec=9",
        "h1-i2",
        None,
        None,
    ),
    d(
        "parker",
        "P2",
        "parker .........O/.......o.x/X......... turn=1 throw=5 dec=9",
        "j2-e2",
        None,
        None,
    ),
    d(
        "parker",
        "P4",
        "parker .....ooooO/........../Xxxxx..... turn=1 throw=3-5 dec=1",
        "e1-h2",
        None,
        Some(("e1-g1", "P4")),
    ),
    d(
        "parker",
        "P5",
        "parker .........O/x.x......./.......... turn=1 throw=1-2 dec=20",
        "a2-a1",
        None,
        Some(("c2-b2", "P5")),
    ),
    d(
        "parker",
        "C8",
        "parker ........../.o..X..oo./.......... turn=2 throw=3-4 dec=20",
        "b2-e2",
        Some("capture"),
        Some(("b2-f2", "C8")),
    ),
    d(
        "parker",
        "P6",
        "parker .....ooooO/........../Xxxxx..... turn=1 throw=3-5 dec=1",
        "e1-h1",
        None,
        Some(("b1-e1", "P6")),
    ),
    d(
        "parker",
        "P7",
        "parker .....ooooO/........../Xxxxx..... turn=1 throw=3-5 dec=1",
        "a1-f1",
        None,
        Some(("a1-d1", "P7")),
    ),
    d(
        "parker",
        "P10",
        "parker .........O/....x...../.......... turn=1 throw=3 dec=20",
        "e2-h2",
        Some("backward"),
        None,
    ),
    d(
        "parker",
        "P8",
        "parker .........O/x.x......./.......... turn=1 throw=1-3 dec=20",
        "a2-a1",
        None,
        Some(("c2-a1", "P8")),
    ),
    d(
        "parker",
        "P9",
        "parker .........O/.....o...x/X......... turn=1 throw=4 dec=20",
        "j2-f2",
        Some("capture"),
        None,
    ),
];

/// The rulings that a rules page cites but no move on a board can show, with the place on the
/// page that shows them instead (or why nothing does). A ruling cited on a page has a
/// demonstration or an entry here (tested).
const NO_BOARD: &[(&str, &str, &str)] = &[
    ("kendall", "C2", START),
    ("kendall", "C3", ODDS),
    ("kendall", "K11", RESULT),
    ("kendall", "C5", CAP),
    ("kendall5", "R1", START),
    ("kendall5", "C3", ODDS),
    ("kendall5", "R10", RESULT),
    ("kendall5", "C5", CAP),
    ("senat", "S1", START),
    ("senat", "C3", ODDS),
    (
        "senat",
        "S2",
        "shown by the throw odds table above; the option die (under Options) throws a die instead",
    ),
    ("senat", "S12", RESULT),
    ("senat", "C5", CAP),
    ("houses", "C2", START),
    ("houses", "C3", ODDS),
    (
        "houses",
        "C4",
        "shown by the H11 board in this section: no move is legal, so the throw is forfeited (pass)",
    ),
    ("houses", "H13", RESULT),
    ("houses", "C5", CAP),
    ("pyramid", "Y1", START),
    ("pyramid", "Y9", RESULT),
    ("pyramid", "C5", CAP),
    (
        "parker",
        "P3",
        "the start is the board at the top of this page; the dice-off is the first throw table",
    ),
    ("parker", "P11", RESULT),
    ("parker", "C5", CAP),
];

const START: &str = "the start position is the board at the top of this page";
const ODDS: &str = "shown by the throw odds table above";
const RESULT: &str =
    "who wins (and the score) is the game's result, not a move: a game's end states it";
const CAP: &str = "a count of decisions, not a move: the option cap (under Options) sets it";

/// The rules texts, from the repository's documentation.
fn doc(r: RuleSet) -> &'static str {
    match r.id() {
        "kendall" => include_str!("../../../docs/rules/kendall.md"),
        "kendall5" => include_str!("../../../docs/rules/kendall5.md"),
        "senat" => include_str!("../../../docs/rules/senat.md"),
        "houses" => include_str!("../../../docs/rules/houses.md"),
        "pyramid" => include_str!("../../../docs/rules/pyramid.md"),
        "parker" => include_str!("../../../docs/rules/parker.md"),
        _ => "",
    }
}

/// Plain text: the Markdown marks `**`, `` ` `` and leading list dashes dropped.
fn plain(s: &str) -> String {
    s.replace("**", "")
        .replace('`', "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The ruling IDs in a title's parentheses: "Safe squares (K4)" -> ["K4"], "Waiting for a
/// One (P8; option ...)" -> ["P8"].
fn rulings_of(title: &str) -> Vec<String> {
    let Some(open) = title.rfind('(') else {
        return vec![];
    };
    title[open + 1..]
        .trim_end_matches([')', '.', ' '])
        .split([',', ';', ' '])
        .map(str::trim)
        .filter(|w| {
            w.len() >= 2
                && w.starts_with(|c: char| c.is_ascii_uppercase())
                && w[1..].chars().all(|c| c.is_ascii_digit())
        })
        .map(String::from)
        .collect()
}

/// Splits a rules document into its rules: `## Title (IDs)` sections and `**Title (IDs).**`
/// paragraphs; other paragraphs belong to the rule before them.
pub fn sections(md: &str) -> Vec<RuleSection> {
    let mut out: Vec<RuleSection> = vec![];
    for block in md.split("\n\n") {
        let b = block.trim();
        // Headings of the page, code blocks (board diagrams) and tables stay in the document.
        if b.is_empty() || b.starts_with("# ") || b.starts_with("```") || b.starts_with('|') {
            continue;
        }
        let (title, text) = if let Some(h) = b.strip_prefix("## ") {
            let (t, rest) = h.split_once('\n').unwrap_or((h, ""));
            (Some(t.trim().to_string()), rest.to_string())
        } else if let Some(rest) = b.strip_prefix("**") {
            match rest.split_once("**") {
                Some((t, body)) if t.contains('(') => {
                    (Some(t.trim_end_matches('.').to_string()), body.to_string())
                }
                _ => (None, b.to_string()),
            }
        } else {
            (None, b.to_string())
        };
        match (title, out.last_mut()) {
            (Some(t), _) => {
                let name = t.rsplit_once(" (").map_or(t.as_str(), |x| x.0).to_string();
                out.push(RuleSection {
                    rulings: rulings_of(&t),
                    title: plain(&name),
                    text: plain(&text),
                    demos: vec![],
                    no_board: vec![],
                });
            }
            (None, Some(last)) => {
                if !last.text.is_empty() {
                    last.text.push('\n');
                }
                last.text.push_str(&plain(&text));
            }
            (None, None) => {}
        }
    }
    out
}

/// A demonstration, worked out by the rules crate; `Err` names what is wrong with its data.
pub fn demo(
    ruling: &'static str,
    position: &str,
    allowed: &str,
    forbidden: Option<&'static str>,
) -> Result<Demo, String> {
    let g: AnyGame = position
        .parse()
        .map_err(|e: senet_rules::Error| e.to_string())?;
    let legal = legal_moves_of(&g);
    let ok = legal
        .iter()
        .find(|m| m.mv == allowed)
        .cloned()
        .ok_or_else(|| format!("{ruling}: {allowed} is not legal in {position}"))?;
    let mut after = g;
    let m = g
        .parse_move(allowed)
        .map_err(|e| format!("{ruling}: {e}"))?;
    after.play_unchecked(m);
    let forbidden = match forbidden {
        Some(f) if legal.iter().any(|m| m.mv == f) => {
            return Err(format!("{ruling}: {f} is legal in {position}"))
        }
        Some(f) => Some(Forbidden {
            mv: f,
            why: g.why_illegal(f),
        }),
        None => None,
    };
    Ok(Demo {
        ruling,
        throw: g.in_hand().map_or("-".into(), |t| t.to_string()),
        position: g.position(),
        view: g.view(),
        legal,
        allowed: ok,
        after: after.view(),
        forbidden,
    })
}

/// The page of the rule set `id`, or `None` for an unknown ID.
pub fn page(id: &str) -> Option<RulesPage> {
    let r = RuleSet::ALL.iter().copied().find(|r| r.id() == id)?;
    let start = AnyGame::new(r, &[] as &[&str]).ok()?;
    let mut sections = sections(doc(r));
    // A ruling's board (or its reason) goes under the most specific rule citing it: the
    // section with the fewest rulings ("Plain pegs (P6)" before "Moving (P6, P7, P10)").
    fn home<'a>(sections: &'a mut [RuleSection], ruling: &str) -> Option<&'a mut RuleSection> {
        sections
            .iter_mut()
            .filter(|s| s.rulings.iter().any(|x| x == ruling))
            .min_by_key(|s| s.rulings.len())
    }
    for x in DEMOS.iter().filter(|x| x.rules == id) {
        let Ok(d) = demo(x.ruling, x.position, x.allowed, x.forbidden.map(|f| f.0)) else {
            continue;
        };
        // A board whose move does not do what it is there to show is left off (tested).
        if x.does.is_some_and(|k| !d.allowed.kinds.contains(&k)) {
            continue;
        }
        if let Some(s) = home(&mut sections, x.ruling) {
            s.demos.push(d);
        }
    }
    for &(rid, ruling, reason) in NO_BOARD {
        if rid == id {
            if let Some(s) = home(&mut sections, ruling) {
                s.no_board.push(NoBoard { ruling, reason });
            }
        }
    }
    Some(RulesPage {
        rules: rule_info(r)?,
        throws: throw_tables(&start),
        start: start.view(),
        sections,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_demonstration_shows_a_legal_and_an_illegal_move() {
        for x in DEMOS {
            let at = format!("{} {} ({})", x.rules, x.ruling, x.position);
            let d = demo(x.ruling, x.position, x.allowed, x.forbidden.map(|f| f.0))
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            assert!(
                x.position.starts_with(&format!("{}:", x.rules))
                    || x.position.starts_with(&format!("{} ", x.rules)),
                "{at}"
            );
            if let Some(kind) = x.does {
                assert!(
                    d.allowed.kinds.contains(&kind),
                    "{at}: {} does {:?}, not {kind}",
                    x.allowed,
                    d.allowed.kinds
                );
            }
            if let (Some(f), Some((_, cites))) = (&d.forbidden, x.forbidden) {
                assert!(
                    f.why.contains(f.mv),
                    "{at}: the reason names the move: {}",
                    f.why
                );
                // The rules crate's reason is the ruling's: "... (K6)".
                assert!(
                    f.why.contains(&format!("({cites})"))
                        || f.why.contains(&format!("({cites},"))
                        || f.why.contains(&format!(" {cites})")),
                    "{at}: the reason cites {cites}: {}",
                    f.why
                );
            }
            let page = page(x.rules).unwrap();
            assert!(
                page.sections
                    .iter()
                    .any(|s| s.rulings.iter().any(|r| r == x.ruling)
                        && s.demos.iter().any(|y| y.position == d.position)),
                "{at} is shown under its rule"
            );
        }
    }

    /// Issue 32: every rule with its ruling shown on a board, or a stated reason why a board
    /// cannot show it.
    #[test]
    fn every_ruling_cited_on_a_rules_page_has_a_board_or_a_reason() {
        let mut missing = vec![];
        for r in RuleSet::ALL {
            let p = page(r.id()).unwrap();
            let cited: Vec<&String> = p.sections.iter().flat_map(|s| &s.rulings).collect();
            for ruling in &cited {
                let boards = p
                    .sections
                    .iter()
                    .flat_map(|s| &s.demos)
                    .filter(|d| d.ruling == ruling.as_str())
                    .count();
                let reasons = p
                    .sections
                    .iter()
                    .flat_map(|s| &s.no_board)
                    .filter(|n| n.ruling == ruling.as_str())
                    .count();
                if boards + reasons == 0 {
                    missing.push(format!("{} {ruling}", r.id()));
                }
                assert!(
                    boards == 0 || reasons == 0,
                    "{} {ruling}: a board and a reason",
                    r.id()
                );
            }
        }
        assert!(missing.is_empty(), "no board and no reason: {missing:?}");
        // Every stated reason belongs to a ruling its page cites (none is lost).
        for &(rid, ruling, reason) in NO_BOARD {
            assert!(!reason.is_empty());
            let p = page(rid).unwrap();
            assert!(
                p.sections
                    .iter()
                    .any(|s| s.no_board.iter().any(|n| n.ruling == ruling)),
                "{rid} {ruling}: the reason is shown under a rule citing it"
            );
        }
        // Every demonstration's data is good: a bad one is not silently left off the page.
        let shown: usize = RuleSet::ALL
            .iter()
            .map(|r| {
                page(r.id())
                    .unwrap()
                    .sections
                    .iter()
                    .map(|s| s.demos.len())
                    .sum::<usize>()
            })
            .sum();
        assert_eq!(shown, DEMOS.len());
    }

    #[test]
    fn rulings_are_read_from_titles() {
        assert_eq!(rulings_of("Safe squares (K4)"), ["K4"]);
        assert_eq!(rulings_of("Moving (P6, P7, P10)"), ["P6", "P7", "P10"]);
        assert_eq!(
            rulings_of("Waiting for a One (P8; option `wait_for_one`, on by default)"),
            ["P8"]
        );
        assert_eq!(rulings_of("Speed"), Vec::<String>::new());
    }

    #[test]
    fn every_rule_set_has_a_page_with_its_rulings() {
        for r in RuleSet::ALL {
            let p = page(r.id()).unwrap();
            assert!(p.sections.len() >= 5, "{}", r.id());
            assert!(p.sections.iter().any(|s| !s.rulings.is_empty()));
        }
        assert!(page("chess").is_none());
    }

    #[test]
    fn a_bad_demonstration_is_an_error_not_a_panic() {
        assert!(demo("K1", "kendall nonsense", "1-2", None).is_err());
        let p = "kendall ......X..X..O......O.......... off=3,3 turn=1 throw=3 dec=20";
        assert!(demo("K3", p, "7-10", None).is_err());
        assert!(demo("K3", p, "10-13", Some("10-13")).is_err());
    }
}
