//! `senet`: the command-line tool. The contract of every subcommand is documented in the
//! README; JSON output is for programs, the rest for people.

mod admincmd;
mod analyzecmd;
mod bench;
mod botcmd;
mod cli;
mod labcmd;
mod play;
mod puzzlecmd;
mod serve;
mod solvecmd;

fn main() {
    std::process::exit(cli::run());
}
