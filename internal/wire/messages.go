package wire

import (
	"encoding/json"
	"time"
)

// Hello opens a connection's control stream. EdgeID is informational: the gateway takes the edge's
// identity from its client certificate and refuses a hello that claims another.
type Hello struct {
	Version  int      `json:"version"`
	EdgeID   string   `json:"edge_id"`
	Software string   `json:"software,omitempty"`
	Features []string `json:"features,omitempty"`
}

// HelloAck accepts a hello.
type HelloAck struct {
	Version  int      `json:"version"`
	Gateway  string   `json:"gateway,omitempty"`
	EdgeID   string   `json:"edge_id"` // as read from the certificate
	Features []string `json:"features,omitempty"`
}

// Operations a Request can ask for.
const (
	OpChatCompletions = "chat.completions"
	OpModels          = "models"
	// OpGuard asks the DC guard model about one text. The edge sends redacted text only.
	OpGuard = "guard"
)

// GuardRequest is the Body of an OpGuard request.
type GuardRequest struct {
	Kind string `json:"kind"` // "safety" or "injection"
	Text string `json:"text"` // redacted
}

// GuardVerdict is the Body of the Response to an OpGuard request. Categories are codes (S1…S14);
// the model's raw answer never travels.
type GuardVerdict struct {
	Kind       string   `json:"kind"`
	Malicious  bool     `json:"malicious"`
	Score      float64  `json:"score"`
	Categories []string `json:"categories,omitempty"`
}

// Request is the first frame of a request stream. Body is the (redacted) OpenAI request.
type Request struct {
	Op        string          `json:"op"`
	RequestID string          `json:"request_id,omitempty"`
	Stream    bool            `json:"stream,omitempty"`
	Body      json.RawMessage `json:"body,omitempty"`
	// Traceparent is the request's W3C trace context: the edge's own trace, never a value a
	// client sent (internal/tracecontext), so the gateway's logs and the target join the edge's.
	Traceparent string `json:"traceparent,omitempty"`
}

// Response carries a whole non-streamed answer: the target's status and body.
type Response struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
}

// Done ends a streamed answer normally.
type Done struct {
	Chunks int `json:"chunks"`
	// UpstreamTTFTMillis is the time from the gateway's request to the target's first chunk.
	UpstreamTTFTMillis float64 `json:"upstream_ttft_ms,omitempty"`
}

// Error is a failed request, in the terms of the OpenAI error the user will see.
type Error struct {
	Status            int    `json:"status"`
	Type              string `json:"type"`
	Code              string `json:"code"`
	Param             string `json:"param,omitempty"`
	Message           string `json:"message"`
	RetryAfterSeconds int    `json:"retry_after_s,omitempty"`
}

// RetryAfter returns the retry hint as a duration.
func (e Error) RetryAfter() time.Duration { return time.Duration(e.RetryAfterSeconds) * time.Second }

// Cancel tells the gateway the user went away; it cancels the upstream request.
type Cancel struct {
	Reason string `json:"reason,omitempty"`
}

// Application error codes used when closing a QUIC connection or resetting a stream.
const (
	CodeOK              = 0x0
	CodeVersionMismatch = 0x10
	CodeBadHello        = 0x11
	CodeIdentity        = 0x12
	CodeShutdown        = 0x13
	// CodeGoingAway closes a connection at the end of a gateway's drain (after GoAway).
	CodeGoingAway = 0x14
	// CodeLinkDead is the edge closing a connection it declared dead (no pongs, or repeated
	// unacknowledged requests): the gateway will rarely see it, the edge's own streams do.
	CodeLinkDead  = 0x15
	CodeCancelled = 0x20
	CodeProtocol  = 0x21
)
