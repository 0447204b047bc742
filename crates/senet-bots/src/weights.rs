//! The evaluators of each rule set, as statics the bots refer to.

use crate::fnet::{FeatNet, Features};
use crate::net::{at_most_four_a_side, NetEval};
use crate::track::{
    TrackEval, TrackGame, TrackSpec, HOUSES_SPEC, HOUSES_SPECS, KENDALL5_SPEC, KENDALL_SPEC,
    SENAT_SPEC, SENAT_SPECS,
};
use senet_rules::{Parker, Pyramid};
use std::sync::LazyLock;

/// A network's weights file (`nets/NAME`), embedded: its text, or in WebAssembly, where the
/// text would take 2.9 MB of the page's engine, its packed form (`build.rs`) written back as
/// text (`unpack`): the same numbers to the bit, read by the same parsers.
#[cfg(not(target_arch = "wasm32"))]
macro_rules! net_file {
    ($name:literal) => {
        include_str!(concat!("nets/", $name))
    };
}

/// See the other `net_file`.
#[cfg(target_arch = "wasm32")]
macro_rules! net_file {
    ($name:literal) => {
        &unpack(include_bytes!(concat!(env!("OUT_DIR"), "/nets/", $name)))
    };
}

/// The text of a weights file packed by `build.rs`: its header line, then its numbers, each
/// the shortest text that reads back as the same `f32`, eight to a line.
#[cfg(target_arch = "wasm32")]
fn unpack(b: &[u8]) -> String {
    use std::fmt::Write as _;
    if b.len() < 8 || &b[..4] != b"SNB1" {
        return String::new();
    }
    let n = u32::from_le_bytes([b[4], b[5], b[6], b[7]]) as usize;
    let head = std::str::from_utf8(&b[8..8 + n]).unwrap_or("");
    let mut s = String::with_capacity(b.len() * 3);
    s.push_str(head);
    for (i, x) in b[8 + n..].chunks_exact(4).enumerate() {
        let x = f32::from_le_bytes([x[0], x[1], x[2], x[3]]);
        let _ = write!(s, "{}{x}", if i % 8 == 0 { '\n' } else { ' ' });
    }
    s.push('\n');
    s
}

/// Reads a network's weights file (embedded in the binary), or, when it holds none yet,
/// starts a network from the linear evaluator. A committed file that does not parse fails
/// the test `every_network_weights_file_parses`.
///
/// The endgame network's file (`nets/RULES-end.txt`) may be empty: then the main network values
/// every position. So may the four-piece endgame network's (`nets/RULES-end4.txt`, issue 34):
/// then the main network values the positions with four pieces of a side on the board.
///
/// With the environment variable `SENET_NETS` set to a folder, a file `RULES.txt`,
/// `RULES-end.txt` or `RULES-end4.txt` there replaces the embedded one (to try a network
/// without rebuilding; `scripts/train_endgame.py` writes such files); one that does not parse
/// is reported and the embedded one is used. So does `kendall5-wide.txt`
/// ([`KENDALL5_WIDE_NET`]).
fn net(
    spec: &'static crate::track::TrackSpec,
    text: &str,
    [end, end4]: [&str; 2],
    lin: &TrackEval,
    label: &'static str,
) -> NetEval {
    let (text, end, end4) = (
        overridden(&format!("{}.txt", spec.id), text),
        overridden(&format!("{}-end.txt", spec.id), end),
        overridden(&format!("{}-end4.txt", spec.id), end4),
    );
    let mut net = main_net(spec, &text, lin, label);
    let parse = |text: &str, what: &str| {
        if text.trim().is_empty() {
            return None;
        }
        NetEval::parse_end_params(spec, text)
            .map_err(|e| eprintln!("senet-bots: the {label} {what} weights do not parse ({e})"))
            .ok()
    };
    net.end = parse(&end, "endgame");
    net.end4 = parse(&end4, "four-piece endgame");
    net
}

/// The main network in `text` (no endgame network), or, where the file is empty, one started
/// from the linear evaluator `lin`.
fn main_net(
    spec: &'static crate::track::TrackSpec,
    text: &str,
    lin: &TrackEval,
    label: &'static str,
) -> NetEval {
    if text.trim().is_empty() {
        return NetEval::from_linear(lin, 1, label);
    }
    NetEval::parse(spec, text, label).unwrap_or_else(|e| {
        // Never reached with the committed files (a test parses each); play on with the
        // linear evaluator's values rather than stop.
        eprintln!("senet-bots: the {label} weights do not parse ({e}); using the linear evaluator");
        NetEval::from_linear(lin, 1, label)
    })
}

/// The text of the weights file `name` in the folder `$SENET_NETS`, if it is set and the file
/// is there; else `embedded`.
fn overridden(name: &str, embedded: &str) -> String {
    let Some(dir) = std::env::var_os("SENET_NETS") else {
        return embedded.to_string();
    };
    let path = std::path::Path::new(&dir).join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => embedded.to_string(),
        Err(e) => {
            eprintln!(
                "senet-bots: cannot read {} ({e}); using the embedded weights",
                path.display()
            );
            embedded.to_string()
        }
    }
}

/// The feature network of `pyramid` or `parker` in `text` (the file `name`, unless
/// `$SENET_NETS` overrides it), or `None` where there is none (an empty file): the bots then
/// use the hand-set evaluator.
fn feat_net<G: Features>(name: &str, text: &str, label: &'static str) -> Option<FeatNet<G>> {
    let text = overridden(name, text);
    if text.trim().is_empty() {
        return None;
    }
    FeatNet::parse(&text, label)
        .map_err(|e| {
            // Never reached with the committed files (a test parses each).
            eprintln!(
                "senet-bots: the {label} weights do not parse ({e}); using the hand-set evaluator"
            )
        })
        .ok()
}

/// `pyramid`, the network (`None`: the hand-set evaluator is the best there is).
pub static PYRAMID_NET: LazyLock<Option<FeatNet<Pyramid>>> =
    LazyLock::new(|| feat_net("pyramid.txt", net_file!("pyramid.txt"), "pyramid-net"));
/// `parker`, the network (`None`: the hand-set evaluator is the best there is).
pub static PARKER_NET: LazyLock<Option<FeatNet<Parker>>> =
    LazyLock::new(|| feat_net("parker.txt", net_file!("parker.txt"), "parker-net"));

/// `kendall5`, the network.
pub static KENDALL5_NET: LazyLock<NetEval> = LazyLock::new(|| {
    net(
        &KENDALL5_SPEC,
        net_file!("kendall5.txt"),
        [
            net_file!("kendall5-end.txt"),
            net_file!("kendall5-end4.txt"),
        ],
        &KENDALL5,
        "kendall5-net",
    )
});
/// `kendall5`, the wide network of the `expert` level and the analysis
/// ([`crate::EvalKind::Wide`], issue 55): the main network of `nets/kendall5-wide.txt` (256
/// hidden units; `kendall5-wide.txt` in `$SENET_NETS` replaces it) with the endgame networks
/// of [`KENDALL5_NET`]. Where the file is empty or does not parse, [`KENDALL5_NET`] itself.
pub static KENDALL5_WIDE_NET: LazyLock<NetEval> = LazyLock::new(|| {
    let text = overridden("kendall5-wide.txt", net_file!("kendall5-wide.txt"));
    let base = &*KENDALL5_NET;
    if text.trim().is_empty() {
        return base.clone();
    }
    match NetEval::parse(&KENDALL5_SPEC, &text, "kendall5-wide") {
        Ok(mut net) => {
            net.end = base.end.clone();
            net.end4 = base.end4.clone();
            net
        }
        Err(e) => {
            // Never reached with the committed file (a test parses it).
            eprintln!("senet-bots: the kendall5-wide weights do not parse ({e}); using kendall5's");
            base.clone()
        }
    }
});
/// `kendall5`, the reference network of issue 18's bar ([`crate::EvalKind::Reference`]): the
/// main network of 2026-11-22, without an endgame network; not overridden by `$SENET_NETS`.
pub static KENDALL5_REF: LazyLock<NetEval> = LazyLock::new(|| {
    main_net(
        &KENDALL5_SPEC,
        net_file!("kendall5-ref.txt"),
        &KENDALL5,
        "kendall5-ref",
    )
});
/// The reference network of `kendall`, `senat` or `houses` ([`crate::EvalKind::Reference`],
/// issue 55): the main network in `text` (its 16-unit TD(λ) network of 2026-11-22, frozen in
/// `nets/RULES-ref.txt` and not overridden by `$SENET_NETS`) with the endgame networks of
/// `base`, the network in use, so that a match against it measures the main network alone.
fn reference(base: &NetEval, text: &str, lin: &TrackEval, label: &'static str) -> NetEval {
    let mut net = main_net(base.spec, text, lin, label);
    net.end = base.end.clone();
    net.end4 = base.end4.clone();
    net
}
/// `kendall`, the network.
pub static KENDALL_NET: LazyLock<NetEval> = LazyLock::new(|| {
    net(
        &KENDALL_SPEC,
        net_file!("kendall.txt"),
        [net_file!("kendall-end.txt"), net_file!("kendall-end4.txt")],
        &KENDALL,
        "kendall-net",
    )
});
/// `senat`, the network.
pub static SENAT_NET: LazyLock<NetEval> = LazyLock::new(|| {
    net(
        &SENAT_SPEC,
        net_file!("senat.txt"),
        [net_file!("senat-end.txt"), net_file!("senat-end4.txt")],
        &SENAT,
        "senat-net",
    )
});
/// `houses`, the network.
pub static HOUSES_NET: LazyLock<NetEval> = LazyLock::new(|| {
    net(
        &HOUSES_SPEC,
        net_file!("houses.txt"),
        [net_file!("houses-end.txt"), net_file!("houses-end4.txt")],
        &HOUSES,
        "houses-net",
    )
});

/// The network in use for a track rule set with exact tables (`kendall`, `kendall5`, `senat`,
/// `houses`), `None` for the others: what the solver starts from ([`crate::exact::Start`])
/// and the trainers train.
pub fn track_net(rules: senet_rules::RuleSet) -> Option<&'static NetEval> {
    use senet_rules::RuleSet as R;
    Some(match rules {
        R::Kendall5 => &KENDALL5_NET,
        R::Kendall => &KENDALL_NET,
        R::Senat => &SENAT_NET,
        R::Houses => &HOUSES_NET,
        _ => return None,
    })
}

/// A network under each choice of its rule set's options: the same weights, with the board
/// terms computed under those options' rules (`specs`, one per choice).
fn per_options(net: &NetEval, specs: &'static [TrackSpec]) -> Vec<NetEval> {
    specs
        .iter()
        .map(|spec| NetEval {
            spec,
            ..net.clone()
        })
        .collect()
}

/// A network as the bots search with it (issue 34): its four-piece endgame network values
/// the positions below a root that has at most [`END4_PIECES`](crate::net::END4_PIECES) pieces of each side on the
/// board, and no others. From a root with more, the main network values every position with
/// four of a side, as where there is no four-piece network: a search then never compares a
/// move valued by one network with a move valued by the other, which the two networks,
/// trained apart (the main one by self-play, the four-piece one on exact values), do not
/// value on one scale. That boundary cost whole games on `senat` (docs/bots.md). Piece
/// counts on the board only fall, so a search from a root inside the four-piece positions
/// stays inside them.
#[derive(Clone, Debug)]
pub struct Rooted {
    /// The network, with its four-piece network, under each choice of options.
    whole: Vec<NetEval>,
    /// The same without its four-piece network.
    beyond: Vec<NetEval>,
}

impl Rooted {
    /// `net` under each choice of options in `specs`.
    fn new(net: &NetEval, specs: &'static [TrackSpec]) -> Rooted {
        let mut main = net.clone();
        main.end4 = None;
        Rooted {
            whole: per_options(net, specs),
            beyond: per_options(&main, specs),
        }
    }

    /// The network that values the positions of a search from `root`.
    pub fn for_root<G: TrackGame>(&self, root: &G) -> &NetEval {
        let four = at_most_four_a_side(root.masks());
        net_for(if four { &self.whole } else { &self.beyond }, root)
    }
}

/// `kendall5`, the network as the bots search with it ([`Rooted`]).
pub static KENDALL5_ROOTED: LazyLock<Rooted> =
    LazyLock::new(|| Rooted::new(&KENDALL5_NET, std::slice::from_ref(&KENDALL5_SPEC)));
/// `kendall5`, the wide network as the `expert` level searches with it ([`Rooted`]).
pub static KENDALL5_WIDE_ROOTED: LazyLock<Rooted> =
    LazyLock::new(|| Rooted::new(&KENDALL5_WIDE_NET, std::slice::from_ref(&KENDALL5_SPEC)));
/// `kendall`, the network as the bots search with it ([`Rooted`]).
pub static KENDALL_ROOTED: LazyLock<Rooted> =
    LazyLock::new(|| Rooted::new(&KENDALL_NET, std::slice::from_ref(&KENDALL_SPEC)));
/// `senat`, the network as the bots search with it, under each choice of its options.
pub static SENAT_ROOTED: LazyLock<Rooted> = LazyLock::new(|| Rooted::new(&SENAT_NET, &SENAT_SPECS));
/// `houses`, the network as the bots search with it, under each choice of its options.
pub static HOUSES_ROOTED: LazyLock<Rooted> =
    LazyLock::new(|| Rooted::new(&HOUSES_NET, &HOUSES_SPECS));
/// `kendall`, its reference network as the bots search with it ([`reference`]).
pub static KENDALL_REF_ROOTED: LazyLock<Rooted> = LazyLock::new(|| {
    let net = reference(
        &KENDALL_NET,
        net_file!("kendall-ref.txt"),
        &KENDALL,
        "kendall-ref",
    );
    Rooted::new(&net, std::slice::from_ref(&KENDALL_SPEC))
});
/// `senat`, its reference network as the bots search with it ([`reference`]).
pub static SENAT_REF_ROOTED: LazyLock<Rooted> = LazyLock::new(|| {
    let net = reference(&SENAT_NET, net_file!("senat-ref.txt"), &SENAT, "senat-ref");
    Rooted::new(&net, &SENAT_SPECS)
});
/// `houses`, its reference network as the bots search with it ([`reference`]).
pub static HOUSES_REF_ROOTED: LazyLock<Rooted> = LazyLock::new(|| {
    let net = reference(
        &HOUSES_NET,
        net_file!("houses-ref.txt"),
        &HOUSES,
        "houses-ref",
    );
    Rooted::new(&net, &HOUSES_SPECS)
});

/// Of `nets` (one per choice of options), the one for the options of `g`.
fn net_for<'a, G: TrackGame>(nets: &'a [NetEval], g: &G) -> &'a NetEval {
    let spec = g.track_spec();
    nets.iter()
        .find(|n| std::ptr::eq(n.spec, spec))
        .expect("a network for every choice of options")
}

/// `kendall5`, hand-set weights.
pub static KENDALL5_HAND: TrackEval = TrackEval::hand(&KENDALL5_SPEC);
/// `kendall`, hand-set weights.
pub static KENDALL_HAND: TrackEval = TrackEval::hand(&KENDALL_SPEC);
/// `senat`, hand-set weights.
pub static SENAT_HAND: TrackEval = TrackEval::hand(&SENAT_SPEC);
/// `houses`, hand-set weights.
pub static HOUSES_HAND: TrackEval = TrackEval::hand(&HOUSES_SPEC);

/// `senat`, the tuned evaluator.
// senat: 100000 self-play games, seed 1, alpha 0.02, lambda 0.7, epsilon 0.02
// mean squared error on 2000 greedy games: before 0.27887, after 0.24460
pub static SENAT: TrackEval = TrackEval {
    spec: &SENAT_SPEC,
    w: [
        1.157770,  // sq1
        1.184773,  // sq2
        1.207233,  // sq3
        1.212240,  // sq4
        1.190027,  // sq5
        1.217207,  // sq6
        1.161513,  // sq7
        1.199253,  // sq8
        1.162727,  // sq9
        1.171623,  // sq10
        1.176692,  // sq11
        1.174106,  // sq12
        1.176308,  // sq13
        1.196117,  // sq14
        1.162182,  // sq15
        1.202208,  // sq16
        1.191199,  // sq17
        1.207243,  // sq18
        1.215764,  // sq19
        1.216116,  // sq20
        1.218600,  // sq21
        1.235601,  // sq22
        1.256136,  // sq23
        1.300736,  // sq24
        1.307912,  // sq25
        1.447558,  // sq26
        2.160000,  // sq27
        1.567276,  // sq28
        1.637405,  // sq29
        1.525513,  // sq30
        1.400960,  // off
        0.006267,  // protected
        -0.006571, // blockade
        -0.070404, // exposed_now
        -0.056979, // exposed_later
        0.024983,  // tempo
        0.025985,  // behind_blockade
    ],
    bias: -0.302875,
    label: "senat-td",
};
/// `houses`, the tuned evaluator.
// houses: 100000 self-play games, seed 1, alpha 0.02, lambda 0.7, epsilon 0.02
// mean squared error on 2000 greedy games: before 0.25921, after 0.24005
pub static HOUSES: TrackEval = TrackEval {
    spec: &HOUSES_SPEC,
    w: [
        1.011534,  // sq1
        1.023288,  // sq2
        1.058074,  // sq3
        1.081552,  // sq4
        1.080170,  // sq5
        1.113493,  // sq6
        1.109445,  // sq7
        1.137162,  // sq8
        1.150959,  // sq9
        1.158891,  // sq10
        1.185108,  // sq11
        1.205187,  // sq12
        1.211302,  // sq13
        1.182492,  // sq14
        1.282357,  // sq15
        1.238227,  // sq16
        1.239209,  // sq17
        1.250054,  // sq18
        1.277310,  // sq19
        1.291021,  // sq20
        1.299818,  // sq21
        1.313149,  // sq22
        1.339081,  // sq23
        1.340303,  // sq24
        1.321477,  // sq25
        1.490172,  // sq26
        2.160000,  // sq27
        1.535184,  // sq28
        1.590476,  // sq29
        1.606725,  // sq30
        1.556782,  // off
        0.004265,  // protected
        -0.032187, // blockade
        -0.390628, // exposed_now
        -0.163549, // exposed_later
        0.037658,  // tempo
        0.066329,  // behind_blockade
    ],
    bias: -0.071089,
    label: "houses-td",
};

/// `kendall5`, the tuned evaluator.
// kendall5: 100000 self-play games, seed 1, alpha 0.02, lambda 0.7, epsilon 0.02
// mean squared error on 2000 greedy games: before 0.26605, after 0.24352
pub static KENDALL5: TrackEval = TrackEval {
    spec: &KENDALL5_SPEC,
    w: [
        0.886472,  // sq1
        0.908325,  // sq2
        0.946388,  // sq3
        0.976428,  // sq4
        1.009517,  // sq5
        1.033483,  // sq6
        1.058921,  // sq7
        1.082036,  // sq8
        1.115698,  // sq9
        1.140692,  // sq10
        1.161871,  // sq11
        1.190934,  // sq12
        1.212970,  // sq13
        1.231449,  // sq14
        1.248116,  // sq15
        1.272240,  // sq16
        1.284172,  // sq17
        1.302098,  // sq18
        1.319189,  // sq19
        1.340249,  // sq20
        1.358422,  // sq21
        1.359813,  // sq22
        1.373610,  // sq23
        1.404740,  // sq24
        1.387991,  // sq25
        1.521429,  // sq26
        2.160000,  // sq27
        1.609389,  // sq28
        1.651310,  // sq29
        1.646737,  // sq30
        1.645311,  // off
        0.023392,  // protected
        -0.013562, // blockade
        -0.161326, // exposed_now
        0.021559,  // exposed_later
        0.033066,  // tempo
        0.039567,  // behind_blockade
    ],
    bias: -0.009751,
    label: "kendall5-td",
};
/// `kendall`, the tuned evaluator.
// kendall: 100000 self-play games, seed 1, alpha 0.02, lambda 0.7, epsilon 0.02
// mean squared error on 2000 greedy games: before 0.27301, after 0.25235
pub static KENDALL: TrackEval = TrackEval {
    spec: &KENDALL_SPEC,
    w: [
        1.105178,  // sq1
        1.099953,  // sq2
        1.117138,  // sq3
        1.127852,  // sq4
        1.134626,  // sq5
        1.150718,  // sq6
        1.154451,  // sq7
        1.170518,  // sq8
        1.175388,  // sq9
        1.186942,  // sq10
        1.199550,  // sq11
        1.209190,  // sq12
        1.220686,  // sq13
        1.230787,  // sq14
        1.247076,  // sq15
        1.252901,  // sq16
        1.266042,  // sq17
        1.279404,  // sq18
        1.288266,  // sq19
        1.289226,  // sq20
        1.280826,  // sq21
        1.281743,  // sq22
        1.323733,  // sq23
        1.338541,  // sq24
        1.271448,  // sq25
        1.489590,  // sq26
        2.160000,  // sq27
        1.474478,  // sq28
        1.473905,  // sq29
        1.441087,  // sq30
        1.398758,  // off
        0.025463,  // protected
        -0.005242, // blockade
        0.046116,  // exposed_now
        0.021395,  // exposed_later
        0.031907,  // tempo
        0.013058,  // behind_blockade
    ],
    bias: -0.091570,
    label: "kendall-td",
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use senet_rules::{Kendall5, Options, Player};

    /// Issue 34: a search from a root with five of a side never meets the four-piece network
    /// (the boundary between the two networks cost whole games on `senat`); from a root with
    /// four a side it values the four-piece positions.
    #[test]
    fn a_search_from_five_pieces_values_four_piece_positions_with_the_main_network() {
        let bits = |squares: &[u32]| squares.iter().fold(0u32, |m, &s| m | 1 << s);
        let start = Kendall5::start(&Options::defaults(Kendall5::option_specs()));
        let (five, four) = (bits(&[1, 5, 20, 24, 29]), bits(&[5, 20, 24, 29]));
        let other = bits(&[3, 12, 16, 28]);
        let five_four = start.endgame([five, other], Player::First).unwrap();
        let four_four = start.endgame([four, other], Player::First).unwrap();
        assert!(
            KENDALL5_NET.end4.is_some(),
            "kendall5 has a four-piece network"
        );
        let from_five = KENDALL5_ROOTED.for_root(&five_four);
        let from_four = KENDALL5_ROOTED.for_root(&four_four);
        assert!(from_five.end4.is_none() && from_four.end4.is_some());
        let mut main = KENDALL5_NET.clone();
        main.end4 = None;
        let v = |e: &NetEval, g: &Kendall5| Evaluator::<Kendall5>::eval(e, g);
        assert_eq!(v(from_five, &four_four), v(&main, &four_four));
        assert_eq!(v(from_four, &four_four), v(&KENDALL5_NET, &four_four));
        assert_ne!(v(from_five, &four_four), v(from_four, &four_four));
        // Where no four-piece network would value a position, the two agree.
        assert_eq!(v(from_five, &five_four), v(from_four, &five_four));
        // A rule set with options gets the network for the root's options.
        use senet_rules::Senat;
        let specs = Senat::option_specs();
        for o in [
            Options::defaults(specs),
            Options::parse(specs, &["die"], "senat").unwrap(),
        ] {
            let g = Senat::start(&o);
            assert!(std::ptr::eq(SENAT_ROOTED.for_root(&g).spec, g.track_spec()));
        }
    }

    /// Issue 55: `expert` on `kendall5` searches with the 256-unit network, the other search
    /// bots with the 64-unit one, and both value the endgames with the same networks.
    #[test]
    fn expert_searches_kendall5_with_the_wide_network() {
        use crate::{BotSpec, EvalKind};
        assert_eq!(KENDALL5_NET.hidden(), 64);
        assert_eq!(KENDALL5_WIDE_NET.hidden(), 256);
        assert_eq!(KENDALL5_WIDE_NET.end, KENDALL5_NET.end);
        assert_eq!(KENDALL5_WIDE_NET.end4, KENDALL5_NET.end4);
        assert!(KENDALL5_WIDE_NET.end.is_some() && KENDALL5_WIDE_NET.end4.is_some());
        let eval = |name: &str| name.parse::<BotSpec>().unwrap().eval;
        assert_eq!(eval("expert"), EvalKind::Wide);
        assert_eq!(eval("expectimax:3"), EvalKind::Tuned);
        assert_eq!(eval("expert@tuned"), EvalKind::Tuned);
        assert_eq!(eval("expectimax:3@wide"), EvalKind::Wide);
        assert_eq!(
            "expert@tuned".parse::<BotSpec>().unwrap().to_string(),
            "expert@tuned"
        );
        assert_eq!(
            "expectimax:3@wide".parse::<BotSpec>().unwrap().to_string(),
            "expectimax:3@wide"
        );
        // The two networks value a five-piece position differently; in a four-piece endgame
        // (searched from there) the same four-piece network values it for both.
        let g = Kendall5::start(&Options::defaults(Kendall5::option_specs()));
        let men = g.masks();
        let [wide, narrow] = [&*KENDALL5_WIDE_ROOTED, &*KENDALL5_ROOTED]
            .map(|r| r.for_root(&g).mover_value(men, Player::First));
        assert_ne!(wide, narrow);
        assert!((wide - narrow).abs() < 0.05, "{wide} against {narrow}");
        let bits = |squares: &[u32]| squares.iter().fold(0u32, |m, &s| m | 1 << s);
        let four = g
            .endgame(
                [bits(&[5, 20, 24, 29]), bits(&[3, 12, 16, 28])],
                Player::First,
            )
            .unwrap();
        let men = four.masks();
        let [wide, narrow] = [&*KENDALL5_WIDE_ROOTED, &*KENDALL5_ROOTED]
            .map(|r| r.for_root(&four).mover_value(men, Player::First));
        assert_eq!(wide, narrow);
    }

    #[test]
    fn every_network_weights_file_parses() {
        for (spec, text) in [
            (&KENDALL5_SPEC, include_str!("nets/kendall5.txt")),
            (&KENDALL5_SPEC, include_str!("nets/kendall5-ref.txt")),
            (&KENDALL5_SPEC, include_str!("nets/kendall5-wide.txt")),
            (&KENDALL_SPEC, include_str!("nets/kendall.txt")),
            (&KENDALL_SPEC, include_str!("nets/kendall-ref.txt")),
            (&SENAT_SPEC, include_str!("nets/senat-ref.txt")),
            (&HOUSES_SPEC, include_str!("nets/houses-ref.txt")),
            (&SENAT_SPEC, include_str!("nets/senat.txt")),
            (&HOUSES_SPEC, include_str!("nets/houses.txt")),
        ] {
            // Committed networks are trained ones: an empty file (a rule set still in
            // development) would silently play with the fresh network.
            assert!(!text.trim().is_empty(), "{}: no network weights", spec.id);
            NetEval::parse(spec, text, "test").unwrap();
        }
        for (spec, end) in [
            (&KENDALL5_SPEC, include_str!("nets/kendall5-end.txt")),
            (&KENDALL_SPEC, include_str!("nets/kendall-end.txt")),
            (&SENAT_SPEC, include_str!("nets/senat-end.txt")),
            (&HOUSES_SPEC, include_str!("nets/houses-end.txt")),
            (&KENDALL5_SPEC, include_str!("nets/kendall5-end4.txt")),
            (&KENDALL_SPEC, include_str!("nets/kendall-end4.txt")),
            (&SENAT_SPEC, include_str!("nets/senat-end4.txt")),
            (&HOUSES_SPEC, include_str!("nets/houses-end4.txt")),
        ] {
            // An endgame network is optional; one that is there must parse.
            if !end.trim().is_empty() {
                NetEval::parse_end_params(spec, end).unwrap();
            }
        }
        // pyramid's and parker's networks (issue 18), trained ones too.
        FeatNet::<Pyramid>::parse(include_str!("nets/pyramid.txt"), "test").unwrap();
        FeatNet::<Parker>::parse(include_str!("nets/parker.txt"), "test").unwrap();
    }
}
