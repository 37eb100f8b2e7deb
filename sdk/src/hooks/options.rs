//! How a handler takes part in a hook: [`HookMode`], [`HookOrder`], [`ErrorPolicy`].

use std::fmt;
use std::str::FromStr;

macro_rules! option_enum {
    (
        $(#[$meta:meta])*
        $name:ident, $what:literal {
            $($(#[$vmeta:meta])* $variant:ident => $text:literal,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl $name {
            /// Every value, in order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The lower-case name, as in the attribute and in JSON.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        /// Trimmed and ASCII case-insensitive: `"Observe "` is `observe`.
        impl FromStr for $name {
            type Err = ParseHookOptionError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let wanted = s.trim();
                $name::ALL
                    .iter()
                    .copied()
                    .find(|v| v.as_str().eq_ignore_ascii_case(wanted))
                    .ok_or_else(|| ParseHookOptionError {
                        what: $what,
                        value: s.to_owned(),
                        expected: $name::ALL.iter().map(|v| v.as_str()).collect(),
                    })
            }
        }
    };
}

option_enum! {
    /// Whether a handler may change the hook's outcome.
    ///
    /// ```
    /// use toolhook::hooks::HookMode;
    ///
    /// assert_eq!(HookMode::default(), HookMode::Blocking);
    /// assert_eq!("observe".parse::<HookMode>(), Ok(HookMode::Observe));
    /// assert_eq!(serde_json::to_string(&HookMode::Observe).unwrap(), r#""observe""#);
    /// ```
    HookMode, "mode" {
        /// Runs in order, on the caller's task; may replace the arguments or abort (the default).
        #[default]
        Blocking => "blocking",
        /// Runs after every blocking handler, concurrently, with the final arguments; read-only.
        Observe => "observe",
    }
}

option_enum! {
    /// A handler's slot within its mode: early handlers run first, late ones last.
    ///
    /// Within a slot, handlers of built-in plugins run before third-party ones, then by plugin id,
    /// then by handler name.
    ///
    /// ```
    /// use toolhook::hooks::HookOrder;
    ///
    /// assert!(HookOrder::Early < HookOrder::Normal && HookOrder::Normal < HookOrder::Late);
    /// assert_eq!(HookOrder::Late.as_str(), "late");
    /// ```
    HookOrder, "order" {
        /// Before `normal` handlers.
        Early => "early",
        /// The default slot.
        #[default]
        Normal => "normal",
        /// After `normal` handlers.
        Late => "late",
    }
}

option_enum! {
    /// What a blocking handler's failure (error, panic, timeout) does to the hook.
    ///
    /// The failure is always recorded in the dispatch result's `errors`.
    ///
    /// ```
    /// use toolhook::hooks::ErrorPolicy;
    ///
    /// assert_eq!(ErrorPolicy::default(), ErrorPolicy::Skip);
    /// assert_eq!(" LOG ".parse::<ErrorPolicy>(), Ok(ErrorPolicy::Log));
    /// assert_eq!(
    ///     "stop".parse::<ErrorPolicy>().unwrap_err().to_string(),
    ///     r#"unknown error_policy "stop"; expected one of "abort", "skip", "log""#
    /// );
    /// ```
    ErrorPolicy, "error_policy" {
        /// Stops the hook (when its spec allows abort): later handlers and observers do not run.
        Abort => "abort",
        /// Continues with the next handler; the failure is logged at debug level (the default).
        #[default]
        Skip => "skip",
        /// Continues with the next handler; the failure is logged at warn level.
        Log => "log",
    }
}

/// A string that names no [`HookMode`], [`HookOrder`] or [`ErrorPolicy`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseHookOptionError {
    what: &'static str,
    value: String,
    expected: Vec<&'static str>,
}

impl ParseHookOptionError {
    /// The string that was given.
    pub fn value(&self) -> &str {
        &self.value
    }
}

impl fmt::Display for ParseHookOptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let expected: Vec<String> = self.expected.iter().map(|e| format!("\"{e}\"")).collect();
        write!(f, "unknown {} \"{}\"; expected one of {}", self.what, self.value, expected.join(", "))
    }
}

impl std::error::Error for ParseHookOptionError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_round_trips_every_value() {
        for mode in HookMode::ALL {
            assert_eq!(mode.as_str().parse::<HookMode>(), Ok(*mode));
        }
        for order in HookOrder::ALL {
            assert_eq!(order.to_string().parse::<HookOrder>(), Ok(*order));
        }
        for policy in ErrorPolicy::ALL {
            let json = serde_json::to_string(policy).unwrap();
            assert_eq!(serde_json::from_str::<ErrorPolicy>(&json).unwrap(), *policy);
        }
    }

    #[test]
    fn parse_errors_list_the_allowed_values() {
        let error = "sideways".parse::<HookOrder>().unwrap_err();
        assert_eq!(error.to_string(), r#"unknown order "sideways"; expected one of "early", "normal", "late""#);
        assert_eq!(error.value(), "sideways");
        assert!("".parse::<HookMode>().is_err());
    }
}
