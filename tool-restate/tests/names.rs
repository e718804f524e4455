//! The names Restate accepts for a service and its handlers, which are
//! narrower than a tool's: no `-`, and no digit first.

use tool_core::toolset::Compose;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_restate::{DefinitionError, RestateService};

/// Look up the weather.
#[tool(name = "get-weather")]
fn weather(city: String) -> String {
    format!("sunny in {city}")
}

fn service(registry: ToolRegistry) -> RestateService<()> {
    RestateService::new(registry, |_| ToolContext::new(()))
}

#[test]
fn a_tool_name_restate_refuses_is_an_error_naming_it() {
    let error = service(ToolRegistry::new().with(Weather))
        .definition()
        .err()
        .expect("refused");
    assert!(
        matches!(&error, DefinitionError::HandlerName { name, .. } if name == "get-weather"),
        "{error:?}"
    );
    assert!(
        error
            .to_string()
            .starts_with("tool `get-weather` cannot name a Restate handler: "),
        "{error}"
    );

    // Renamed, it is served.
    let renamed = Compose::new()
        .rename("get-weather", "get_weather")
        .apply(ToolRegistry::new().with(Weather))
        .expect("renamed");
    assert!(service(renamed).definition().is_ok());
}

#[test]
fn a_service_name_restate_refuses_is_an_error_naming_it() {
    let error = service(ToolRegistry::new())
        .name("my tools")
        .definition()
        .err()
        .expect("refused");
    assert!(
        matches!(&error, DefinitionError::ServiceName { name, .. } if name == "my tools"),
        "{error:?}"
    );
}
