// Package failover decides where a request goes when something is down: circuit breakers per
// backend (closed → open → half-open, with jittered backoff), and a routing terminal for the
// pipeline that tries the primary datacenter, then the secondary ones, then — only if policy
// allows — a local degraded model, and otherwise answers 503 with Retry-After at once. Every
// request ends: answered, or a clear error.
//
// It routes requests that are already redacted; it must never log their content. Breaker state
// changes are logged once, not per request.
package failover
