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

/// The demonstrations: rule set, ruling, position (with its throw), the allowed move, the
/// forbidden move. Checked by the tests: each position parses, the allowed move is legal and
/// the forbidden one is not.
const DEMOS: &[(&str, &str, &str, &str, Option<&str>)] = &[
    (
        "kendall",
        "K10",
        "kendall .O.........................OXO off=4,2 turn=1 throw=3 dec=20",
        "29-26",
        None,
    ),
    (
        "kendall5",
        "R4",
        "kendall5 ....X....X..OO................ off=3,3 turn=1 throw=3 dec=20",
        "5-8",
        Some("10-13"),
    ),
    (
        "kendall5",
        "R5",
        "kendall5 ..X......X.OOO................ off=3,2 turn=1 throw=5 dec=20",
        "3-8",
        Some("10-15"),
    ),
    (
        "senat",
        "S6",
        "senat ....X....X..OO................ off=3,3 turn=1 throw=3 dec=20",
        "5-8",
        Some("10-13"),
    ),
    (
        "senat",
        "S6",
        "senat ..X......X.OOO................ off=3,2 turn=1 throw=6 dec=20",
        "3-9",
        Some("10-16"),
    ),
    (
        "houses",
        "H5",
        "houses ....X....X..OO................ off=3,3 turn=1 throw=3 dec=20",
        "5-8",
        Some("10-13"),
    ),
    (
        "houses",
        "H5",
        "houses ..X......X.OOO................ off=3,2 turn=1 throw=5 dec=20",
        "3-8",
        Some("10-15"),
    ),
    (
        "kendall",
        "K3",
        "kendall ......X..X..O......O.......... off=3,3 turn=1 throw=3 dec=20",
        "10-13",
        Some("7-10"),
    ),
    (
        "kendall",
        "K4",
        "kendall ....O............X....X..O.... off=3,3 turn=1 throw=3 dec=20",
        "18-21",
        Some("23-26"),
    ),
    (
        "kendall",
        "K5",
        "kendall ....X....X..OO................ off=3,3 turn=1 throw=3 dec=20",
        "5-8",
        Some("10-13"),
    ),
    (
        "kendall",
        "K6",
        "kendall ..X......X.OOO................ off=3,2 turn=1 throw=6 dec=20",
        "3-9",
        Some("10-16"),
    ),
    (
        "kendall",
        "K7",
        "kendall .O................X....X...... off=3,4 turn=1 throw=4 dec=20",
        "19-23",
        Some("24-28"),
    ),
    (
        "kendall",
        "K8",
        "kendall .O.......................X.... off=4,4 turn=1 throw=1 dec=20",
        "26-15",
        None,
    ),
    (
        "kendall",
        "K9",
        "kendall .O.........................XX. off=3,4 turn=1 throw=3 dec=20",
        "28-off",
        Some("29-off"),
    ),
    (
        "kendall5",
        "R3",
        "kendall5 ......X..X..O......O.......... off=3,3 turn=1 throw=3 dec=20",
        "10-13",
        Some("7-10"),
    ),
    (
        "kendall5",
        "R7",
        "kendall5 .O.......................X.... off=4,4 turn=1 throw=1 dec=20",
        "26-15",
        None,
    ),
    (
        "kendall5",
        "R8",
        "kendall5 .O.........................XX. off=3,4 turn=1 throw=3 dec=20",
        "28-off",
        Some("29-off"),
    ),
    (
        "senat",
        "S5",
        "senat ......X..X..O......O.......... off=3,3 turn=1 throw=3 dec=20",
        "10-13",
        Some("7-10"),
    ),
    (
        "senat",
        "S8",
        "senat .O.....................X...... off=4,4 turn=1 throw=3 dec=20",
        "24-15",
        None,
    ),
    (
        "senat",
        "S9",
        "senat ....O............X....X..O.... off=3,3 turn=1 throw=3 dec=20",
        "18-21",
        Some("23-26"),
    ),
    (
        "houses",
        "H3",
        "houses ......X..X..O......O.......... off=3,3 turn=1 throw=3 dec=20",
        "10-13",
        Some("7-10"),
    ),
    (
        "houses",
        "H7",
        "houses .O................X....X...... off=3,4 turn=1 throw=4 dec=20",
        "24-26",
        Some("24-28"),
    ),
    (
        "houses",
        "H8",
        "houses .O.......................X.... off=4,4 turn=1 throw=1 dec=20",
        "26-15",
        None,
    ),
    (
        "houses",
        "H10",
        "houses .O.........................XX. off=3,4 turn=1 throw=3 dec=20",
        "28-off",
        Some("29-off"),
    ),
    (
        "pyramid",
        "Y4",
        "pyramid LlLlMmMmMmSsSsSsSsSs.......... off=-,- turn=2 dice=2-1 dec=1",
        "2-3",
        Some("2-4"),
    ),
    (
        "parker",
        "P6",
        "parker .....ooooO/........../Xxxxx..... turn=1 throw=3-5 dec=1",
        "e1-h1",
        Some("b1-e1"),
    ),
    (
        "parker",
        "P7",
        "parker .....ooooO/........../Xxxxx..... turn=1 throw=3-5 dec=1",
        "a1-f1",
        Some("a1-d1"),
    ),
];

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

/// The ruling IDs in a title's parentheses: "Safe squares (K4)" -> ["K4"].
fn rulings_of(title: &str) -> Vec<String> {
    let Some(open) = title.rfind('(') else {
        return vec![];
    };
    title[open + 1..]
        .trim_end_matches([')', '.', ' '])
        .split([',', ' '])
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
    for &(rid, ruling, pos, allowed, forbidden) in DEMOS {
        if rid != id {
            continue;
        }
        let Ok(d) = demo(ruling, pos, allowed, forbidden) else {
            continue;
        };
        if let Some(s) = sections
            .iter_mut()
            .find(|s| s.rulings.iter().any(|x| x == ruling))
        {
            s.demos.push(d);
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
        for &(rid, ruling, pos, allowed, forbidden) in DEMOS {
            let d = demo(ruling, pos, allowed, forbidden).unwrap();
            assert!(pos.starts_with(rid), "{ruling}");
            if let Some(f) = d.forbidden {
                assert!(
                    f.why.contains(f.mv),
                    "{ruling}: the reason names the move: {}",
                    f.why
                );
            }
            let page = page(rid).unwrap();
            assert!(
                page.sections
                    .iter()
                    .any(|s| s.demos.iter().any(|x| x.ruling == ruling)),
                "{ruling} is shown under its rule"
            );
        }
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
