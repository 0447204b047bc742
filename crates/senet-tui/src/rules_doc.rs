//! The rules summary screen's text: `docs/rules/<id>.md` when the rule set has one (embedded
//! at build time by `build.rs`), else what the rules engine itself says about the rule set.

use senet_rules::record::options_of;
use senet_rules::View;
use senet_rules::{AnyGame, Game, OptionKind, RuleSet};

include!(concat!(env!("OUT_DIR"), "/rules_docs.rs"));

/// The rule set's document, if `docs/rules/<id>.md` existed at build time.
pub fn doc(rules: RuleSet) -> Option<&'static str> {
    RULES_DOCS
        .iter()
        .find(|(id, _)| *id == rules.id())
        .map(|(_, text)| *text)
}

/// The summary of a game's rules: its document, or the facts the engine gives (name, source,
/// options, throws, path, special squares) with a note that the document is missing. Both end
/// with the options in effect.
pub fn summary(g: &AnyGame) -> String {
    let rules = g.rules();
    let v = g.view();
    let mut s = String::new();
    match doc(rules) {
        Some(text) => s.push_str(text.trim_end()),
        None => {
            s.push_str(&format!("# {}\n\n", rules.name()));
            s.push_str(&format!("Source: {}\n\n", rules.source()));
            s.push_str(&format!(
                "(There is no docs/rules/{}.md yet; this summary comes from the rules engine.)\n\n",
                rules.id()
            ));
            // The distribution is meaningful only while a throw is pending: take the start's.
            let dist = match g.status() {
                senet_rules::Status::Throw(_) => g.throw_dist(),
                _ => AnyGame::new(rules, &options_of(g))
                    .unwrap_or(*g)
                    .throw_dist(),
            };
            let throws: Vec<String> = dist
                .outcomes
                .iter()
                .map(|(t, w)| format!("{t} ({w}/{})", dist.total))
                .collect();
            s.push_str(&format!(
                "Throws and their chances: {}\n",
                throws.join(", ")
            ));
        }
    }
    s.push_str("\n\n## The board as drawn\n\n");
    s.push_str(&format!("Path: {}\n", v.path));
    let mut specials: Vec<_> = v.cells.iter().filter(|c| c.special.is_some()).collect();
    specials.sort_by_key(|c| c.square);
    if !specials.is_empty() {
        s.push_str("\nSpecial squares (marked ◆):\n");
        for c in specials {
            s.push_str(&format!(
                "  {:>4}  {}\n",
                c.label,
                c.special.unwrap_or_default()
            ));
        }
    }
    s.push_str("\n## Options of this game\n\n");
    let specs = rules.option_specs();
    if specs.is_empty() {
        s.push_str("This rule set has no options.\n");
    }
    let set = options_of(g);
    for o in specs {
        let val = set
            .iter()
            .find_map(|p| p.strip_prefix(&format!("{}=", o.name)))
            .map(str::to_string)
            .unwrap_or_else(|| match o.kind {
                OptionKind::Bool { default } => default.to_string(),
                OptionKind::Int { default, .. } => default.to_string(),
            });
        s.push_str(&format!("- {} = {val}: {}\n", o.name, o.description));
    }
    s
}
