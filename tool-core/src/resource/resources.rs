//! A resource, and a server's resources: each read by the URI it names
//! or the template its URIs fit.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::BoxFuture;
use crate::resource::contents::ResourceContents;
use crate::resource::template::{UriTemplate, UriTemplateError};
use crate::tool::context::ToolContext;

/// Something a client reads by URI: one URI, or every URI that fits a
/// template ([`UriTemplate`]: `{name}`, `{+name}`).
///
/// Implement it for a resource read at run time; `Ctx` is the state of
/// the [`ToolContext`] it is read in, as a tool's.
pub trait Resource<Ctx = ()>: Send + Sync + 'static {
    /// Its URI (`file:///README.md`), or the template of its URIs
    /// (`users://{id}/profile`).
    fn uri(&self) -> &str;

    /// A short name, for people and models choosing what to read.
    fn name(&self) -> &str;

    /// What it holds.
    fn description(&self) -> &str;

    /// The media type of what it reads, when the same for every read.
    /// Default: none said.
    fn mime_type(&self) -> Option<&str> {
        None
    }

    /// Reads it: at `read.uri()`, with the template's values in
    /// `read.param(..)`.
    fn read<'a>(
        &'a self,
        ctx: &'a ToolContext<Ctx>,
        read: &'a ResourceRead,
    ) -> BoxFuture<'a, Result<Vec<ResourceContents>, ResourceError>>;

    /// The values a template's `parameter` may take that begin with
    /// `prefix`, for a client completing a URI (MCP's
    /// `completion/complete`), at most a hundred. Default: none known.
    fn complete(&self, parameter: &str, prefix: &str) -> Vec<String> {
        let _ = (parameter, prefix);
        Vec::new()
    }
}

/// A read of a resource: the URI asked for, and, for a template, each
/// name's value in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceRead {
    uri: String,
    params: BTreeMap<String, String>,
}

impl ResourceRead {
    /// A read of `uri`, with these values of the template's names.
    pub fn new(uri: impl Into<String>, params: BTreeMap<String, String>) -> Self {
        Self {
            uri: uri.into(),
            params,
        }
    }

    /// The URI asked for.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The value of the template's `name` in it.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params.get(name).map(String::as_str)
    }

    /// Every name's value.
    pub fn params(&self) -> &BTreeMap<String, String> {
        &self.params
    }
}

/// Why a resource could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResourceError {
    /// No resource has this URI, or nothing is there (MCP: -32602, with
    /// the URI).
    NotFound {
        /// The URI asked for.
        uri: String,
    },
    /// The read failed.
    Failed {
        /// The URI asked for.
        uri: String,
        /// What went wrong, for the client.
        message: String,
    },
}

impl ResourceError {
    /// Nothing is at `uri`.
    pub fn not_found(uri: impl Into<String>) -> Self {
        ResourceError::NotFound { uri: uri.into() }
    }

    /// Reading `uri` failed, for this reason.
    pub fn failed(uri: impl Into<String>, message: impl Into<String>) -> Self {
        ResourceError::Failed {
            uri: uri.into(),
            message: message.into(),
        }
    }

    /// The URI asked for.
    pub fn uri(&self) -> &str {
        match self {
            ResourceError::NotFound { uri } | ResourceError::Failed { uri, .. } => uri,
        }
    }
}

impl fmt::Display for ResourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResourceError::NotFound { uri } => write!(f, "no resource at `{uri}`"),
            ResourceError::Failed { uri, message } => {
                write!(f, "reading `{uri}` failed: {message}")
            }
        }
    }
}

impl std::error::Error for ResourceError {}

/// A server's resources: those of one URI, listed by `resources/list`,
/// and templates, listed by `resources/templates/list`, each in the order
/// added. A URI is read by the resource of that exact URI, else by the
/// first template it fits.
pub struct Resources<Ctx = ()> {
    entries: Vec<Entry<Ctx>>,
}

struct Entry<Ctx> {
    template: UriTemplate,
    resource: Arc<dyn Resource<Ctx>>,
}

impl<Ctx> Default for Resources<Ctx> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
        }
    }
}

impl<Ctx> Clone for Resources<Ctx> {
    fn clone(&self) -> Self {
        Self {
            entries: self
                .entries
                .iter()
                .map(|entry| Entry {
                    template: entry.template.clone(),
                    resource: Arc::clone(&entry.resource),
                })
                .collect(),
        }
    }
}

impl<Ctx: 'static> Resources<Ctx> {
    /// No resources.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a resource, builder style.
    ///
    /// # Panics
    ///
    /// When its URI is not a template this reads, or is another's already:
    /// mistakes in the program. [`Resources::register`] returns them as
    /// errors instead.
    #[must_use]
    #[track_caller]
    pub fn with(mut self, resource: impl Resource<Ctx>) -> Self {
        if let Err(error) = self.register(resource) {
            panic!("{error}");
        }
        self
    }

    /// Adds a resource; a URI that is not a template this reads, or is
    /// another's already, is an error.
    pub fn register(&mut self, resource: impl Resource<Ctx>) -> Result<(), UriTemplateError> {
        let template = UriTemplate::parse(resource.uri())?;
        if self
            .entries
            .iter()
            .any(|entry| entry.template.as_str() == template.as_str())
        {
            return Err(UriTemplateError {
                template: template.as_str().to_owned(),
                reason: "another resource has this URI".to_owned(),
            });
        }
        self.entries.push(Entry {
            template,
            resource: Arc::new(resource),
        });
        Ok(())
    }

    /// How many there are, templates included.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The resources of one URI, in the order added.
    pub fn fixed(&self) -> impl Iterator<Item = &dyn Resource<Ctx>> {
        self.entries
            .iter()
            .filter(|entry| entry.template.is_plain())
            .map(|entry| &*entry.resource)
    }

    /// The templates, in the order added.
    pub fn templates(&self) -> impl Iterator<Item = &dyn Resource<Ctx>> {
        self.entries
            .iter()
            .filter(|entry| !entry.template.is_plain())
            .map(|entry| &*entry.resource)
    }

    /// The resource `uri` names (a URI, or a template as written), for
    /// completing its parameters.
    pub fn get(&self, uri: &str) -> Option<&dyn Resource<Ctx>> {
        self.entries
            .iter()
            .find(|entry| entry.template.as_str() == uri)
            .map(|entry| &*entry.resource)
    }

    /// Reads `uri` with the resource of that URI, else the first template
    /// it fits; [`ResourceError::NotFound`] when none, or when the
    /// resource gives no contents.
    pub async fn read(
        &self,
        ctx: &ToolContext<Ctx>,
        uri: &str,
    ) -> Result<Vec<ResourceContents>, ResourceError> {
        let exact = self
            .entries
            .iter()
            .find(|entry| entry.template.is_plain() && entry.template.as_str() == uri)
            .map(|entry| (entry, BTreeMap::new()));
        let found = exact.or_else(|| {
            self.entries
                .iter()
                .filter(|entry| !entry.template.is_plain())
                .find_map(|entry| entry.template.matches(uri).map(|params| (entry, params)))
        });
        let Some((entry, params)) = found else {
            return Err(ResourceError::not_found(uri));
        };
        let read = ResourceRead::new(uri, params);
        let contents = entry.resource.read(ctx, &read).await?;
        if contents.is_empty() {
            return Err(ResourceError::not_found(uri));
        }
        Ok(contents)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed resource and a template that would read the same URI.
    struct Fixed(&'static str);

    impl Resource for Fixed {
        fn uri(&self) -> &str {
            self.0
        }
        fn name(&self) -> &str {
            self.0
        }
        fn description(&self) -> &str {
            "A test resource."
        }
        fn read<'a>(
            &'a self,
            _: &'a ToolContext,
            read: &'a ResourceRead,
        ) -> BoxFuture<'a, Result<Vec<ResourceContents>, ResourceError>> {
            let text = format!("{} {:?}", self.0, read.params());
            Box::pin(async move { Ok(vec![ResourceContents::text(read.uri(), text)]) })
        }
    }

    #[tokio::test]
    async fn a_uri_is_read_by_its_own_resource_before_a_template() {
        let resources = Resources::new()
            .with(Fixed("notes://{day}"))
            .with(Fixed("notes://monday"));
        let ctx = ToolContext::new(());
        let read = |uri: &'static str| {
            let resources = &resources;
            let ctx = &ctx;
            async move { resources.read(ctx, uri).await }
        };
        assert_eq!(
            read("notes://monday").await.unwrap()[0].as_text(),
            Some("notes://monday {}")
        );
        assert_eq!(
            read("notes://friday").await.unwrap()[0].as_text(),
            Some("notes://{day} {\"day\": \"friday\"}")
        );
        assert_eq!(
            read("other://x").await.unwrap_err().to_string(),
            "no resource at `other://x`"
        );
        let mut taken = Resources::new().with(Fixed("notes://monday"));
        assert_eq!(
            taken
                .register(Fixed("notes://monday"))
                .unwrap_err()
                .to_string(),
            "URI template `notes://monday`: another resource has this URI"
        );
    }
}
