//! Why a tool goes without the strict mode asked for: each thing in its
//! schema (or the provider's limits) that stands in the way.

use std::fmt;

use crate::schema::dialect::Unfit;

/// A tool sent with `"strict": false` although strict mode was asked for,
/// with every part of its input schema that stands in the way, so that all
/// of them can be fixed in one go.
///
/// ```
/// use std::collections::HashMap;
///
/// use tool_core::provider::{Blocker, Provider};
/// use tool_core::{tool, ToolRegistry};
///
/// /// Count words and mark a spot.
/// #[tool]
/// fn count(
///     /// Counts so far, by word.
///     seen: HashMap<String, u32>,
///     /// Row and column.
///     spot: (u32, u32),
/// ) -> String {
///     format!("{} words, at {spot:?}", seen.len())
/// }
///
/// let registry: ToolRegistry = ToolRegistry::new().with(Count);
/// let definitions = Provider::OpenAiChat { strict: true }.definitions(&registry).unwrap();
/// let [not_strict] = definitions.not_strict() else { panic!("one tool") };
/// assert_eq!(not_strict.tool, "count");
/// assert_eq!(
///     not_strict.blockers,
///     [
///         Blocker {
///             at: "/properties/seen".into(),
///             reason: "a map (`additionalProperties` is a schema): strict mode closes every object".into(),
///         },
///         Blocker {
///             at: "/properties/spot".into(),
///             reason: "a tuple (`prefixItems`) is outside strict mode's subset".into(),
///         },
///     ]
/// );
/// assert_eq!(
///     not_strict.to_string(),
///     "tool `count` is sent with `strict: false`: its input schema cannot be made strict \
///      (at `/properties/seen`: a map (`additionalProperties` is a schema): strict mode closes every object; \
///      at `/properties/spot`: a tuple (`prefixItems`) is outside strict mode's subset)"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotStrict {
    /// The tool's name.
    pub tool: String,
    /// Everything that keeps its schema from strict mode, in the order
    /// found (never empty).
    pub blockers: Vec<Blocker>,
}

impl fmt::Display for NotStrict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tool `{}` is sent with `strict: false`: its input schema cannot be made strict (",
            self.tool
        )?;
        for (index, blocker) in self.blockers.iter().enumerate() {
            if index > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{blocker}")?;
        }
        f.write_str(")")
    }
}

/// One thing that keeps a tool's input schema from strict mode: where it
/// is, and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocker {
    /// The JSON Pointer of the subschema that stands in the way, in the
    /// schema as the provider's strict form writes it (references with a
    /// description beside them inlined); empty for the whole schema (the
    /// root, or a limit of the provider's).
    pub at: String,
    /// What stands in the way, and why the provider's strict mode refuses it.
    pub reason: String,
}

impl fmt::Display for Blocker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.is_empty() {
            f.write_str(&self.reason)
        } else {
            write!(f, "at `{}`: {}", self.at, self.reason)
        }
    }
}

impl From<Unfit> for Blocker {
    fn from(unfit: Unfit) -> Self {
        Blocker {
            at: unfit.at,
            reason: unfit.reason,
        }
    }
}
