//! Embeds every `docs/rules/<id>.md` that exists at build time, so the rules screen shows the
//! document of each rule set that has one (and says plainly when one has none).

use std::fmt::Write;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut docs: Vec<(String, String)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries.flatten() {
            let path = e.path();
            if path.extension().is_some_and(|x| x == "md") {
                if let Some(id) = path.file_stem().and_then(|s| s.to_str()) {
                    let abs = path.canonicalize().unwrap_or(path.clone());
                    docs.push((id.to_string(), abs.display().to_string()));
                }
            }
        }
    }
    docs.sort();
    let mut out = String::from(
        "/// `(rule set ID, docs/rules/<id>.md)` for every document present at build time.\n",
    );
    out.push_str("pub static RULES_DOCS: &[(&str, &str)] = &[\n");
    for (id, path) in docs {
        writeln!(out, "    ({id:?}, include_str!({path:?})),").unwrap();
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("rules_docs.rs");
    std::fs::write(dest, out).unwrap();
}
