// The rmcp server's one argument (tool-mcp-server parses its own, which
// has more).

/// `--port PORT`.
fn server_port(usage: &str) -> u16 {
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next(), args.next()) {
        (Some("--port"), Some(port), None) => port.parse().ok(),
        _ => None,
    }
    .unwrap_or_else(|| panic!("usage: {usage} --port PORT"))
}
