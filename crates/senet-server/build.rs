//! Embeds the page's engine (issue 54): the WebAssembly build of the rules and bots that
//! `scripts/build-wasm.sh` leaves at `target/wasm-dist/senet_engine.wasm` (or the file named
//! by `SENET_ENGINE_WASM`). Without one, the server is built without it: the page then asks
//! the server for every bot move, hint and value, as it always could.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out =
        PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("senet_engine.wasm");
    println!("cargo:rerun-if-env-changed=SENET_ENGINE_WASM");
    let wasm = match std::env::var_os("SENET_ENGINE_WASM") {
        Some(p) => PathBuf::from(p),
        None => {
            let dist = manifest.join("../../target/wasm-dist");
            // Watched as a folder, so that a build appearing there later is seen; made here
            // when missing, since a missing path would make cargo run this script every time.
            let _ = std::fs::create_dir_all(&dist);
            println!("cargo:rerun-if-changed={}", dist.display());
            dist.join("senet_engine.wasm")
        }
    };
    println!("cargo:rerun-if-changed={}", wasm.display());
    let bytes = match std::fs::read(&wasm) {
        Ok(b) if b.starts_with(b"\0asm") => b,
        _ => Vec::new(),
    };
    std::fs::write(&out, bytes).expect("OUT_DIR is writable");
}
