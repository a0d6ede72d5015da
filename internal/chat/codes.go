package chat

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// Error codes a branch user can receive, in one place (docs/ERRORS.md lists each with its status).
// They are stable: clients and runbooks branch on them, and code branches on them through these
// constants and BackendFault, never through string literals.
const (
	// The request itself (4xx): the client can fix it; another backend would answer the same.
	CodeRequestTooLarge   = "request_too_large"
	CodeInvalidUTF8       = "invalid_utf8"
	CodeUnreadableBody    = "unreadable_body"
	CodeMissingModel      = "missing_model"
	CodeMissingMessages   = "missing_messages"
	CodeInvalidMessage    = "invalid_message"
	CodeEgressBlocked     = "egress_blocked"
	CodeRedactionTimeout  = "redaction_timeout"
	CodeTooManyEntities   = "too_many_entities"
	CodeContentPolicy     = "content_policy_violation"
	CodeModelNotFound     = "model_not_found"
	CodeUnknownURL        = "unknown_url"
	CodeMethodNotAllowed  = "method_not_allowed"
	CodeRequestTimeout    = "request_timeout"
	CodeInternal          = "internal_error"
	CodeNERUnavailable    = "ner_unavailable"
	CodeGuardUnavailable  = "guard_unavailable"
	CodeLocalModelFailed  = "local_model_failed"
	CodeUpstreamError     = "upstream_error"
	CodeInvalidUpstream   = "invalid_request"
	CodeUpstreamAuth      = "upstream_auth_failed"
	CodeRateLimitUpstream = "rate_limit_exceeded"

	// The datacenter path failed (backend faults): the failover router may try another
	// endpoint while nothing has reached the user, and the endpoint's breaker counts it.
	CodeDCUnavailable       = "dc_unavailable"
	CodeDCConnectionLost    = "dc_connection_lost"
	CodeDCProtocolError     = "dc_protocol_error"
	CodeDCUnresponsive      = "dc_unresponsive"
	CodeDCBusy              = "dc_busy"
	CodeDCDraining          = "dc_draining" // the gateway is going away (a deploy): another DC, or retry shortly
	CodeTargetUnreachable   = "target_unreachable"
	CodeUpstreamTimeout     = "upstream_timeout"
	CodeUpstreamUnavailable = "upstream_unavailable"
)

// backendFaults are the codes that mean the datacenter path, not the request, failed.
var backendFaults = map[string]bool{
	CodeDCUnavailable: true, CodeDCConnectionLost: true, CodeDCProtocolError: true, CodeDCUnresponsive: true, CodeDCDraining: true,
	CodeTargetUnreachable: true, CodeUpstreamTimeout: true, CodeUpstreamUnavailable: true,
}

// BackendFault says whether the error means the backend that served the request failed (so
// another one might succeed), rather than the request being wrong. A cancelled request is not a
// fault; an error that is not a *Error is (it is a bug or a broken dependency); a *Error is one
// when its code is a backend fault or its status is a 5xx.
func BackendFault(err error) bool {
	var ce *Error
	if !errors.As(err, &ce) {
		return !errors.Is(err, context.Canceled)
	}
	return ce.BackendFault()
}

// BackendFault reports whether e means the backend failed (see the function BackendFault).
func (e *Error) BackendFault() bool {
	return backendFaults[e.Code] || e.Status >= http.StatusInternalServerError
}

// DCRetryAfter is the retry hint given to users when the datacenter is unreachable: about the
// time the link needs to notice and re-dial.
const DCRetryAfter = 5 * time.Second
