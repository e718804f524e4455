//! A registry's limits and switches, as every call reads them.

use std::time::Duration;

use crate::dispatch::read::raw::DEFAULT_MAX_ARGUMENT_BYTES;
use crate::output::media::DEFAULT_MAX_MEDIA_BYTES;

/// The time a call may run when its tool sets no `timeout`: 30 seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The time a deferred result may take to be delivered: 10 minutes.
pub const DEFAULT_PENDING_TIMEOUT: Duration = Duration::from_secs(600);

/// The registry's limits and switches.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    pub(crate) max_argument_bytes: usize,
    pub(crate) default_timeout: Duration,
    pub(crate) pending_timeout: Duration,
    pub(crate) validation: Validation,
    pub(crate) max_media_bytes: usize,
}

impl Settings {
    /// A new registry's.
    pub(crate) const DEFAULT: Self = Self {
        max_argument_bytes: DEFAULT_MAX_ARGUMENT_BYTES,
        default_timeout: DEFAULT_TIMEOUT,
        pending_timeout: DEFAULT_PENDING_TIMEOUT,
        validation: Validation::Auto,
        max_media_bytes: DEFAULT_MAX_MEDIA_BYTES,
    };
}

/// Which calls' arguments a registry checks against the tool's input
/// schema ([`RegistryBuilder::validation`](crate::registry::RegistryBuilder::validation)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Validation {
    /// Every call, except those of a `#[tool]` whose derived schema says
    /// nothing its parameter types' reading does not check (types, enums,
    /// required and unknown fields, integers' ranges): decided when the
    /// tool is registered. Such a call is checked only when reading it
    /// fails, so that a model reads the same words either way.
    #[default]
    Auto,
    /// Every call: for parameter types whose hand-written `Deserialize`
    /// accepts more than their `JsonSchema` says.
    Always,
    /// None: reading still refuses what does not fit the types, one
    /// problem at a time, and what only the schema says (a `maximum`, a
    /// `pattern`) goes unchecked.
    Off,
}
