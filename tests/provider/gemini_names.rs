//! Which property names each of Gemini's schema forms takes
//! (docs/providers.md 3.2, 3.3): Google documents a rule for the names of
//! the legacy `parameters` only ("Parameter names must start with a letter
//! or an underscore and must only contain chars a-z, A-Z, 0-9, or
//! underscores with a maximum length of 64"); `parametersJsonSchema`
//! documents none and takes JSON Schema's names, and neither form's SDK
//! model checks any. So `Content-Type`, `User-Agent` and `año_vehiculo`
//! go as they are in the JSON Schema form, calls with them reach the tool
//! under those names, and the OpenAPI form refuses them at registration.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tool_core::provider::Provider;
use tool_core::registry::RegistryError;
use tool_core::{ToolContext, ToolRegistry, tool};

/// A vehicle's year.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
struct Vehicle {
    /// The model year.
    #[serde(rename = "año_vehiculo")]
    year: u16,
}

/// Send a request.
#[tool(tier = Observe)]
fn send_request(
    /// The media type of the body.
    #[serde(rename = "Content-Type")]
    content_type: String,
    /// Who asks.
    #[serde(rename = "User-Agent")]
    user_agent: Option<String>,
    /// The vehicle.
    vehicle: Vehicle,
) -> String {
    format!("{content_type} {user_agent:?} {}", vehicle.year)
}

fn registry() -> ToolRegistry {
    ToolRegistry::new().with(SendRequest)
}

#[tokio::test]
async fn the_json_schema_form_takes_the_names_as_they_are() {
    let registry = registry();
    let definitions = Provider::Gemini { openapi: false }
        .definitions(&registry)
        .unwrap();
    let schema = &definitions.as_json()[0]["functionDeclarations"][0]["parametersJsonSchema"];
    let names: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["Content-Type", "User-Agent", "vehicle"]);
    assert!(schema["properties"]["vehicle"]["properties"]["año_vehiculo"].is_object());

    // A call under those names reaches the tool under them.
    let response = json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {
        "name": "send_request",
        "args": {"Content-Type": "text/plain", "User-Agent": "curl", "vehicle": {"año_vehiculo": 2019}}
    }}]}}]});
    let turn = Provider::Gemini { openapi: false }
        .respond(&registry, &ToolContext::new(()), &response)
        .await
        .unwrap();
    assert_eq!(
        turn.reply()[0]["parts"][0]["functionResponse"]["response"],
        json!({"output": "text/plain Some(\"curl\") 2019"})
    );
    assert!(
        ToolRegistry::<()>::builder()
            .check([Provider::Gemini { openapi: false }])
            .build()
            .register(SendRequest)
            .is_ok()
    );
}

#[test]
fn the_openapi_form_refuses_them_at_registration() {
    let error = ToolRegistry::<()>::builder()
        .check([Provider::Gemini { openapi: true }])
        .build()
        .register(SendRequest)
        .unwrap_err();
    assert!(matches!(error, RegistryError::SchemaRejected { .. }));
    assert_eq!(
        error.to_string(),
        "the input schema of tool `send_request` cannot be written for Gemini: \
         property `Content-Type`: Gemini's `parameters` take names of letters, digits and `_`, starting with a letter or `_`, at most 64; \
         property `User-Agent`: Gemini's `parameters` take names of letters, digits and `_`, starting with a letter or `_`, at most 64; \
         at `/properties/vehicle`: property `año_vehiculo`: Gemini's `parameters` take names of letters, digits and `_`, starting with a letter or `_`, at most 64"
    );
}
