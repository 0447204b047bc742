//! Typed, validated rule-set options (variants) and their text form.
//!
//! Each rule set lists its options as [`OptionSpec`]s. Text options (`NAME=VALUE`, from the
//! command line or a position string) are checked against the specs and turned into an
//! [`Options`] holding a value for every option; the rule set then reads typed values from it.

use crate::Error;
use std::fmt;

/// The type and default of an option.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` or `false`.
    Bool {
        /// The value when not given.
        default: bool,
    },
    /// A whole number in `min..=max`.
    Int {
        /// The value when not given.
        default: u32,
        /// Smallest accepted value.
        min: u32,
        /// Largest accepted value.
        max: u32,
    },
}

/// One option of a rule set.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The name used on the command line and in positions.
    pub name: &'static str,
    /// What it does, with its ruling.
    pub description: &'static str,
    /// Type and default.
    pub kind: OptionKind,
}

/// The turn-cap option every rule set has (ruling C5).
pub const fn cap_option(default: u32) -> OptionSpec {
    OptionSpec {
        name: "cap",
        description: "decisions (forfeits included) after which the game is a draw (C5)",
        kind: OptionKind::Int {
            default,
            min: 1,
            max: 1_000_000,
        },
    }
}

/// A value of an option.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A flag.
    Bool(bool),
    /// A number.
    Int(u32),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(n) => write!(f, "{n}"),
        }
    }
}

/// A complete, validated set of option values for one rule set, in spec order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    specs: &'static [OptionSpec],
    values: Vec<OptionValue>,
}

impl Options {
    /// Every option at its default.
    pub fn defaults(specs: &'static [OptionSpec]) -> Options {
        let values = specs
            .iter()
            .map(|s| match s.kind {
                OptionKind::Bool { default } => OptionValue::Bool(default),
                OptionKind::Int { default, .. } => OptionValue::Int(default),
            })
            .collect();
        Options { specs, values }
    }

    /// Parses `NAME=VALUE` pairs (a bare `NAME` means `NAME=true`) over the defaults.
    pub fn parse<S: AsRef<str>>(
        specs: &'static [OptionSpec],
        pairs: &[S],
        rules: &str,
    ) -> Result<Options, Error> {
        let mut o = Options::defaults(specs);
        let mut seen = vec![false; specs.len()];
        for p in pairs {
            let p = p.as_ref().trim();
            let (name, value) = p.split_once('=').unwrap_or((p, "true"));
            let Some(i) = specs.iter().position(|s| s.name == name) else {
                let known: Vec<_> = specs.iter().map(|s| s.name).collect();
                return Err(Error::Options(format!(
                    "{rules} has no option {name:?}; its options are: {}",
                    known.join(", ")
                )));
            };
            if seen[i] {
                return Err(Error::Options(format!("option {name} is given twice")));
            }
            seen[i] = true;
            if let (OptionKind::Int { min, max, .. }, None) = (specs[i].kind, p.split_once('=')) {
                // A bare NAME means true, which only a flag can be.
                return Err(Error::Options(format!(
                    "option {name} needs a value: write {name}=N with a whole number N from {min} to {max}"
                )));
            }
            o.values[i] = parse_value(&specs[i], value)?;
        }
        Ok(o)
    }

    /// The specs these values are for (the rule set's `option_specs()`).
    pub fn specs(&self) -> &'static [OptionSpec] {
        self.specs
    }

    fn index(&self, name: &str) -> Result<usize, Error> {
        self.specs
            .iter()
            .position(|s| s.name == name)
            .ok_or_else(|| {
                let known: Vec<_> = self.specs.iter().map(|s| s.name).collect();
                Error::Options(format!(
                    "there is no option {name:?}; the options are: {}",
                    known.join(", ")
                ))
            })
    }

    /// The value of option `name`, or an error naming the options there are.
    pub fn get(&self, name: &str) -> Result<OptionValue, Error> {
        Ok(self.values[self.index(name)?])
    }

    /// A flag option's value; an error for an unknown name or a number option.
    pub fn flag(&self, name: &str) -> Result<bool, Error> {
        match self.get(name)? {
            OptionValue::Bool(b) => Ok(b),
            OptionValue::Int(_) => Err(Error::Options(format!(
                "option {name} is a number, not a flag"
            ))),
        }
    }

    /// A number option's value; an error for an unknown name or a flag.
    pub fn int(&self, name: &str) -> Result<u32, Error> {
        match self.get(name)? {
            OptionValue::Int(n) => Ok(n),
            OptionValue::Bool(_) => Err(Error::Options(format!(
                "option {name} is a flag, not a number"
            ))),
        }
    }

    /// Sets option `name`, checking that it exists and that the value has its type and range.
    pub fn set(&mut self, name: &str, v: OptionValue) -> Result<(), Error> {
        let i = self.index(name)?;
        self.values[i] = match (self.specs[i].kind, v) {
            (OptionKind::Bool { .. }, OptionValue::Bool(_)) => v,
            (OptionKind::Int { .. }, OptionValue::Int(n)) => {
                parse_value(&self.specs[i], &n.to_string())?
            }
            (OptionKind::Bool { .. }, _) => {
                return Err(Error::Options(format!("option {name} takes true or false")))
            }
            (OptionKind::Int { min, max, .. }, _) => {
                return Err(Error::Options(format!(
                    "option {name} takes a whole number from {min} to {max}"
                )))
            }
        };
        Ok(())
    }

    /// Every option with its value, in spec order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, OptionValue)> + '_ {
        self.specs
            .iter()
            .zip(self.values.iter())
            .map(|(s, v)| (s.name, *v))
    }

    /// The options that differ from their defaults as `NAME=VALUE`, in spec order: what a
    /// position string's head and a record's `options` hold.
    pub fn non_default(&self) -> Vec<String> {
        let d = Options::defaults(self.specs);
        self.iter()
            .zip(d.values.iter())
            .filter(|((_, v), dv)| v != *dv)
            .map(|((n, v), _)| format!("{n}={v}"))
            .collect()
    }

    /// The options that differ from their defaults, as `NAME=VALUE` joined by commas.
    pub fn non_default_string(&self) -> String {
        self.non_default().join(",")
    }
}

fn parse_value(spec: &OptionSpec, value: &str) -> Result<OptionValue, Error> {
    match spec.kind {
        OptionKind::Bool { .. } => match value {
            "true" | "on" | "yes" | "1" => Ok(OptionValue::Bool(true)),
            "false" | "off" | "no" | "0" => Ok(OptionValue::Bool(false)),
            _ => Err(Error::Options(format!(
                "option {} takes true or false, got {value:?}",
                spec.name
            ))),
        },
        OptionKind::Int { min, max, .. } => {
            let n: u32 = value.parse().map_err(|_| {
                Error::Options(format!(
                    "option {} takes a whole number from {min} to {max}, got {value:?}",
                    spec.name
                ))
            })?;
            if n < min || n > max {
                return Err(Error::Options(format!(
                    "option {} must be from {min} to {max}, got {n}",
                    spec.name
                )));
            }
            Ok(OptionValue::Int(n))
        }
    }
}
