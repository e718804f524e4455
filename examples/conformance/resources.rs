//! The resources the suite's scenarios read and subscribe to.

use serde_json::json;
use tool_core::resource::{Resource, ResourceContents, ResourceError, ResourceRead, Resources};
use tool_core::{BoxFuture, ToolContext};

use crate::tools::{PNG, decoded};

/// Every resource of the suite's scenarios.
pub(crate) fn resources() -> Resources {
    Resources::new()
        .with(Fixed {
            uri: "test://static-text",
            name: "static-text",
            description: "A resource of text that never changes.",
            mime_type: "text/plain",
            contents: Body::Text("This is the content of the static text resource."),
        })
        .with(Fixed {
            uri: "test://static-binary",
            name: "static-binary",
            description: "A resource of bytes (a PNG image) that never changes.",
            mime_type: "image/png",
            contents: Body::Png,
        })
        .with(Fixed {
            uri: "test://watched-resource",
            name: "watched-resource",
            description: "A resource a client can subscribe to.",
            mime_type: "text/plain",
            contents: Body::Text("Watched resource content."),
        })
        .with(TemplateData)
}

/// What a fixed resource holds.
enum Body {
    Text(&'static str),
    Png,
}

/// A resource of one URI.
struct Fixed {
    uri: &'static str,
    name: &'static str,
    description: &'static str,
    mime_type: &'static str,
    contents: Body,
}

impl Resource for Fixed {
    fn uri(&self) -> &str {
        self.uri
    }

    fn name(&self) -> &str {
        self.name
    }

    fn description(&self) -> &str {
        self.description
    }

    fn mime_type(&self) -> Option<&str> {
        Some(self.mime_type)
    }

    fn read<'a>(
        &'a self,
        _ctx: &'a ToolContext,
        read: &'a ResourceRead,
    ) -> BoxFuture<'a, Result<Vec<ResourceContents>, ResourceError>> {
        let contents = match self.contents {
            Body::Text(text) => ResourceContents::text(read.uri(), text),
            Body::Png => ResourceContents::blob(read.uri(), decoded(PNG)),
        };
        Box::pin(async move { Ok(vec![contents.with_mime_type(self.mime_type)]) })
    }
}

/// The data of an id: a template.
struct TemplateData;

impl Resource for TemplateData {
    fn uri(&self) -> &str {
        "test://template/{id}/data"
    }

    fn name(&self) -> &str {
        "template-data"
    }

    fn description(&self) -> &str {
        "The data of an id."
    }

    fn mime_type(&self) -> Option<&str> {
        Some("application/json")
    }

    fn read<'a>(
        &'a self,
        _ctx: &'a ToolContext,
        read: &'a ResourceRead,
    ) -> BoxFuture<'a, Result<Vec<ResourceContents>, ResourceError>> {
        Box::pin(async move {
            let id = read.param("id").unwrap_or_default();
            let data =
                json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
            Ok(vec![
                ResourceContents::text(read.uri(), data.to_string())
                    .with_mime_type("application/json"),
            ])
        })
    }

    fn complete(&self, parameter: &str, prefix: &str) -> Vec<String> {
        if parameter != "id" {
            return Vec::new();
        }
        ["123", "456", "789"]
            .into_iter()
            .filter(|id| id.starts_with(prefix))
            .map(str::to_owned)
            .collect()
    }
}
