//! The C ABI of the module (wasm32 only): buffers and the one call. The only `unsafe` code
//! of the engine, each block with what makes it sound.

use std::alloc::{alloc, dealloc, Layout};

/// The layout of a buffer of `len` bytes (`len` > 0).
fn layout(len: u32) -> Option<Layout> {
    Layout::array::<u8>(len as usize).ok()
}

/// A new buffer of `len` bytes in the module's memory, for the caller to fill and to give back
/// with [`senet_free`]. Null when `len` is 0 or no memory is left.
#[no_mangle]
pub extern "C" fn senet_alloc(len: u32) -> *mut u8 {
    match layout(len) {
        // SAFETY: the layout has a non-zero size (len > 0).
        Some(l) if len > 0 => unsafe { alloc(l) },
        _ => std::ptr::null_mut(),
    }
}

/// Frees a buffer of [`senet_alloc`] or an answer of [`senet_call`] (nothing for a null
/// pointer or `len` 0).
///
/// # Safety
///
/// `ptr` must come from `senet_alloc(len)` or be an answer of `senet_call` whose length is
/// `len`, and not be freed before.
#[no_mangle]
pub unsafe extern "C" fn senet_free(ptr: *mut u8, len: u32) {
    if ptr.is_null() || len == 0 {
        return;
    }
    if let Some(l) = layout(len) {
        // SAFETY: by the caller's contract, `ptr` was allocated with this very layout.
        unsafe { dealloc(ptr, l) }
    }
}

/// Answers the JSON request of `len` bytes at `ptr` ([`crate::call`]): the answer's pointer
/// and length as `ptr << 32 | len`, a new buffer the caller frees with [`senet_free`]. A
/// request that is not UTF-8 is answered with an error in words, like any bad request; only
/// running out of memory answers 0.
///
/// # Safety
///
/// `ptr` must point to `len` readable bytes (a buffer of [`senet_alloc`]), or `len` be 0.
#[no_mangle]
pub unsafe extern "C" fn senet_call(ptr: *const u8, len: u32) -> u64 {
    let bytes: &[u8] = if len == 0 || ptr.is_null() {
        &[]
    } else {
        // SAFETY: by the caller's contract, `len` bytes at `ptr` are readable, and nothing
        // writes them during this call (the module runs on one thread).
        unsafe { std::slice::from_raw_parts(ptr, len as usize) }
    };
    let answer = match std::str::from_utf8(bytes) {
        Ok(text) => crate::call(text),
        Err(_) => r#"{"error":"the request is not UTF-8 text"}"#.to_string(),
    };
    let n = answer.len() as u32;
    let out = senet_alloc(n);
    if out.is_null() {
        return 0;
    }
    // SAFETY: `out` is a fresh buffer of `n` bytes, `answer` holds `n` bytes, and the two do
    // not overlap.
    unsafe { std::ptr::copy_nonoverlapping(answer.as_ptr(), out, n as usize) };
    (out as usize as u64) << 32 | u64::from(n)
}

/// getrandom's custom backend (the build sets `--cfg getrandom_backend="custom"`): there is
/// no source of randomness without JavaScript glue, and the engine needs none (every bot and
/// search is seeded), so this refuses.
///
/// # Safety
///
/// Writes nothing; sound for any arguments.
#[no_mangle]
unsafe extern "Rust" fn __getrandom_v03_custom(
    _dest: *mut u8,
    _len: usize,
) -> Result<(), getrandom::Error> {
    Err(getrandom::Error::UNSUPPORTED)
}
