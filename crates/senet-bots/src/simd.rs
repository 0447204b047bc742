//! Wider vector registers where the processor has them, chosen at run time.
//!
//! The binary is built for the baseline of its target (x86-64: SSE2, four `f32` to a
//! register), so that it runs on any machine. The networks' passes ([`crate::net`]) are
//! written for a lane width `W` and run through the crate's `run`: on an x86-64 processor with AVX2
//! (found once, at the first call) with `W = 8` in a function compiled for AVX2, elsewhere
//! with `W = 4`. The switch uses the `pulp` crate's safe dispatch, so this crate still
//! forbids `unsafe`. The environment variable `SENET_SIMD=baseline`, read at the first call,
//! keeps the baseline path (for measuring the difference, and for tests).

use std::sync::LazyLock;

/// A computation written for `W` lanes at a time.
pub(crate) trait Pass {
    /// What it returns.
    type Out;
    /// The computation with `W` `f32` lanes to a vector register; `W` is 4 or 8. Mark it
    /// `#[inline(always)]`: only code inlined into the dispatched function is compiled for
    /// the wider registers.
    fn run<const W: usize>(self) -> Self::Out;
}

/// The instruction sets the processor offers, found once.
static ARCH: LazyLock<pulp::Arch> = LazyLock::new(|| {
    if std::env::var("SENET_SIMD").is_ok_and(|v| v == "baseline") {
        pulp::Arch::Scalar
    } else {
        pulp::Arch::new()
    }
});

/// The lane width the networks' passes use on this machine: 8 with AVX2, else 4.
pub fn lanes() -> usize {
    match *ARCH {
        #[cfg(target_arch = "x86_64")]
        pulp::Arch::V3(_) => 8,
        _ => 4,
    }
}

/// Runs `pass` with the widest registers this machine has ([`lanes`]).
#[inline(always)]
pub(crate) fn run<P: Pass>(pass: P) -> P::Out {
    match *ARCH {
        #[cfg(target_arch = "x86_64")]
        pulp::Arch::V3(simd) => pulp::Simd::vectorize(simd, Wide(pass)),
        _ => pass.run::<4>(),
    }
}

/// Runs `pass` with the baseline width, whatever the machine has (tests compare the two).
#[cfg(test)]
pub(crate) fn run_baseline<P: Pass>(pass: P) -> P::Out {
    pass.run::<4>()
}

/// A [`Pass`] at eight lanes, inside the function `pulp` compiles for AVX2 (x86-64 only).
#[cfg(target_arch = "x86_64")]
struct Wide<P>(P);

#[cfg(target_arch = "x86_64")]
impl<P: Pass> pulp::WithSimd for Wide<P> {
    type Output = P::Out;
    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) -> P::Out {
        self.0.run::<8>()
    }
}
