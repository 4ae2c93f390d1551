//! The native `schedlab` launcher's core: the command lines it runs itself
//! ([`fast_args`]: `mmtests compare` run by [`fast_compare`], `lkp compare` by [`fast_lkp`]), the messages it shares with the Python command
//! line ([`messages`]) and the Python interpreter it hands every other command line
//! to ([`python`]). docs/cli.md explains the split: the Python command line (argparse)
//! stays the one definition of every command, flag, help text and error; the launcher
//! only runs, in the same process, the command lines whose whole meaning it can tell
//! without it, and gives way to Python for anything else, including any error.

pub mod encoding;
pub mod fast_args;
pub mod fast_compare;
pub mod fast_lkp;
pub mod messages;
pub mod python;
