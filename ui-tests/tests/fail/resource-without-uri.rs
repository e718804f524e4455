use tool_core::resource;

/// The server's greeting.
#[resource(mime_type = "text/plain")]
fn greeting() -> &'static str {
    "Hello."
}

fn main() {}
