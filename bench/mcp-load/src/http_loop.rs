// The HTTP/1 connection loop of `tool_mcp::McpServer::serve_http_with`,
// for an rmcp `StreamableHttpService` (rmcp's own server, or tool-mcp's
// `McpServer::http_service`): the same hyper builder and `/mcp` path
// check, without the bearer check (off in `serve_http` too when no
// verifier is set) and the shutdown token (the load generator kills the
// process). Like `serve_http`, it sets TCP_NODELAY on each connection and
// shares the service between requests.

/// Serves `service` on `listener` at `/mcp`, forever.
async fn serve_loop<S>(
    listener: tokio::net::TcpListener,
    service: rmcp::transport::StreamableHttpService<
        S,
        rmcp::transport::streamable_http_server::session::local::LocalSessionManager,
    >,
) where
    S: rmcp::ServerHandler + Send + 'static,
{
    use std::convert::Infallible;

    use bytes::Bytes;
    use http_body_util::{BodyExt, Full};
    use hyper::body::Incoming;
    use hyper::{Request, Response, StatusCode};
    use hyper_util::rt::TokioIo;

    // Shared, not cloned per request, as in `serve_http`.
    let service = std::sync::Arc::new(service);
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        let service = std::sync::Arc::clone(&service);
        tokio::spawn(async move {
            let routed = hyper::service::service_fn(move |request: Request<Incoming>| {
                let service = std::sync::Arc::clone(&service);
                async move {
                    if request.uri().path() != "/mcp" {
                        let mut response =
                            Response::new(Full::new(Bytes::from_static(b"Not Found")).boxed());
                        *response.status_mut() = StatusCode::NOT_FOUND;
                        return Ok::<_, Infallible>(response);
                    }
                    Ok(service.handle(request).await)
                }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), routed)
                .await;
        });
    }
}
