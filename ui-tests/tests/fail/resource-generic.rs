use tool_core::resource;

/// A record, by id.
#[resource(uri = "records://{id}")]
fn record<T: std::str::FromStr + ToString>(id: T) -> String {
    id.to_string()
}

fn main() {}
