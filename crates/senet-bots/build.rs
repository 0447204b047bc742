//! For WebAssembly only (the page's engine, issue 54; elsewhere this does nothing): the
//! networks' weights files (`src/nets/*.txt`, 2.9 MB of text, more than the engine's bar of
//! 3 MB allows beside its code) packed as their header line and their numbers as
//! little-endian `f32` (1 MB) in `$OUT_DIR/nets/`. `weights.rs` embeds those in place of the
//! text there and writes them back as text on first use, every number as the shortest text
//! that reads back as the same `f32`, so the networks are the same to the bit.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("wasm32") {
        return;
    }
    println!("cargo:rerun-if-changed=src/nets");
    let src =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo")).join("src/nets");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("nets");
    std::fs::create_dir_all(&out).expect("OUT_DIR is writable");
    for entry in std::fs::read_dir(&src).expect("src/nets") {
        let path = entry.expect("src/nets").path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).expect("a weights file");
        let name = path.file_name().expect("a file name");
        std::fs::write(out.join(name), pack(&text, &path.display().to_string()))
            .expect("OUT_DIR is writable");
    }
}

/// `b"SNB1"`, the header line's length (u32) and text, then every number (f32); empty for
/// an empty file. The lines before the header and those starting with `#` are comments.
fn pack(text: &str, what: &str) -> Vec<u8> {
    if text.trim().is_empty() {
        return Vec::new();
    }
    let mut lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let head = lines.next().unwrap_or("").trim();
    let mut b = b"SNB1".to_vec();
    b.extend_from_slice(&(head.len() as u32).to_le_bytes());
    b.extend_from_slice(head.as_bytes());
    for tok in lines.flat_map(str::split_whitespace) {
        let x: f32 = tok
            .parse()
            .unwrap_or_else(|_| panic!("{what}: {tok:?} is not a number"));
        b.extend_from_slice(&x.to_le_bytes());
    }
    b
}
