//! What a mount, its [`Mounted`](super::Mounted) and the task that
//! follows its server share: the server's tools as they are in the
//! registry, put there from each list the server sends, and taken out when
//! the mount ends.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rmcp::model::Tool as Listed;
use rmcp::service::{Peer, RoleClient};
use tool_core::ToolRegistry;
use tool_core::registry::RegistryError;
use tool_core::toolset::{Compose, RegistryHandle};

use super::connection::{Connection, Gone, ListFailed};
use super::remote::{Limits, RemoteTool};
use super::screen::Screens;
use super::{MountError, Refused};

pub(crate) struct MountShared {
    pub(crate) server: Arc<str>,
    pub(crate) connection: Arc<Connection>,
    pub(crate) rules: Compose,
    pub(crate) limits: Limits,
    /// The application's checks of the tools listed and their results.
    pub(crate) screens: Arc<Screens>,
    /// A tool whose name the registry holds is left out of the first
    /// list too, rather than failing the mount.
    pub(crate) lenient: bool,
    pub(crate) state: Mutex<MountState>,
}

/// The mount's tools in the registry, by the names they have there, and
/// those left out.
#[derive(Default)]
pub(crate) struct MountState {
    pub(crate) names: Vec<String>,
    pub(crate) refused: Vec<Refused>,
    /// The mount has ended: no list is put in the registry any more.
    ended: bool,
}

impl MountShared {
    pub(crate) fn state(&self) -> MutexGuard<'_, MountState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn list_error(&self, reason: String) -> MountError {
        MountError::List {
            server: self.server.to_string(),
            reason,
        }
    }

    /// The server's tools, every page, through `peer`; a listing of more
    /// than the mount takes is an error naming the server, the count and
    /// the limit.
    pub(crate) async fn list(&self, peer: &Peer<RoleClient>) -> Result<Vec<Listed>, MountError> {
        match self.connection.list(peer, self.limits.tools).await {
            Ok(listed) => Ok(listed),
            Err(ListFailed::Service(error)) => Err(self.list_error(error.to_string())),
            Err(ListFailed::TooMany(listed)) => Err(MountError::TooManyTools {
                server: self.server.to_string(),
                listed,
                max: self.limits.tools,
            }),
        }
    }

    /// Puts the server's tools, as `listed`, in the registry in place of
    /// the ones it listed before. `first`: a rule that names no tool is an
    /// error (later lists may lose tools), and so, unless the mount is
    /// lenient, is a name the registry holds; then nothing is added.
    pub(crate) fn put<Ctx: Send + Sync + 'static>(
        &self,
        handle: &RegistryHandle<Ctx>,
        listed: &[Listed],
        first: bool,
    ) -> Result<(), MountError> {
        let mut tools: ToolRegistry<Ctx> = ToolRegistry::new();
        let mut refused: Vec<Refused> = (self.connection.too_deep.take().into_iter())
            .map(|(tool, reason)| {
                tracing::warn!(server = %self.server, %tool, %reason, "tool not mounted");
                Refused { tool, reason }
            })
            .collect();
        for listed in listed {
            let added = RemoteTool::new(listed, &self.connection, self.limits, &self.screens)
                .and_then(|tool| tools.register(tool).map_err(|error| error.to_string()));
            if let Err(reason) = added {
                tracing::warn!(server = %self.server, tool = %listed.name, %reason, "tool not mounted");
                refused.push(Refused {
                    tool: listed.name.to_string(),
                    reason,
                });
            }
        }
        let rules = if first {
            self.rules.clone()
        } else {
            self.rules.clone().lenient()
        };
        let composed = rules.apply(tools).map_err(|error| MountError::Registry {
            server: self.server.to_string(),
            error,
        })?;
        // Held while the registry changes: the mount's end waits for it,
        // and then no list comes after it.
        let mut state = self.state();
        if state.ended {
            return Ok(());
        }
        let before = std::mem::take(&mut state.names);
        let offered: Vec<String> = composed.names().map(str::to_owned).collect();
        let strict = first && !self.lenient;
        // Each tool the registry refuses (a name another tool holds, a
        // provider's check) is left out; the others are mounted. On the
        // first list a name another tool holds is the mount's error, and
        // the registry is left as it was.
        let merged = handle.try_update(|registry| {
            registry.remove_all(&before);
            let merged = registry.merge_passing(composed);
            let clashes: Vec<String> = merged
                .iter()
                .filter_map(|error| match error {
                    RegistryError::DuplicateName { name } if strict => Some(name.clone()),
                    _ => None,
                })
                .collect();
            if clashes.is_empty() {
                Ok(merged)
            } else {
                Err(clashes)
            }
        });
        let merged = match merged {
            Ok(merged) => merged,
            Err(tools) => {
                state.names = before;
                return Err(MountError::Clash {
                    server: self.server.to_string(),
                    tools,
                });
            }
        };
        let mut names = offered;
        let mut left_out = HashSet::new();
        for error in merged {
            let tool = refused_name(&error);
            tracing::warn!(server = %self.server, %tool, %error, "tool not mounted");
            left_out.insert(tool.clone());
            refused.push(Refused {
                tool,
                reason: error.to_string(),
            });
        }
        if !left_out.is_empty() {
            names.retain(|name| !left_out.contains(name));
        }
        state.names = names;
        state.refused = refused;
        Ok(())
    }

    /// Ends the mount: its tools leave the registry, and calls already
    /// made are told why. Once; later lists are not put in.
    pub(crate) fn end<Ctx: Send + Sync + 'static>(&self, handle: &RegistryHandle<Ctx>, why: Gone) {
        self.connection.gone(why);
        let mut state = self.state();
        if std::mem::replace(&mut state.ended, true) {
            return;
        }
        let names = std::mem::take(&mut state.names);
        if !names.is_empty() {
            handle.update(|registry| registry.remove_all(&names));
        }
    }
}

/// The tool a registry's refusal is about.
fn refused_name(error: &RegistryError) -> String {
    match error {
        RegistryError::DuplicateName { name }
        | RegistryError::InvalidName { name, .. }
        | RegistryError::InvalidSchema { name, .. }
        | RegistryError::NameRejected { name, .. }
        | RegistryError::SchemaRejected { name, .. }
        | RegistryError::Compose { name, .. } => name.clone(),
        other => other.to_string(),
    }
}
