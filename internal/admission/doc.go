// Package admission decides, before the branch spends anything on a request, whether it enters
// now, waits, enters with a smaller limit, or is refused with a clear answer: per-tenant
// concurrency, requests and estimated tokens per minute, input and output token caps, a global
// cap on active requests with a bounded queue and a maximum wait, priority classes (interactive
// first; a priority shares capacity out, it does not create it) and a cap on the request bodies
// held in memory at once. Refusals are 429 (the caller's own limit) or 503 (the branch is
// saturated), both with Retry-After and a stable code.
//
// It must never see request text: it works on sizes, counts and tenant names.
package admission
