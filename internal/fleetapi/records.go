package fleetapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/sucursal/sucursal/internal/manifest"
)

// Desired is the value of a desired-state key: a signed manifest, and for a downgrade the signed
// directive that allows it. Rollout names the rollout that wrote it, for status only.
type Desired struct {
	Manifest manifest.Envelope  `json:"manifest"`
	Rollback *manifest.Envelope `json:"rollback,omitempty"`
	Rollout  string             `json:"rollout,omitempty"`
}

// ParseDesired decodes a desired-state value.
func ParseDesired(data []byte) (Desired, error) {
	var d Desired
	if err := json.Unmarshal(data, &d); err != nil {
		return Desired{}, fmt.Errorf("fleetapi: desired state: %w", err)
	}
	if len(d.Manifest.Sig) == 0 {
		return Desired{}, errors.New("fleetapi: desired state: no manifest")
	}
	return d, nil
}

// Role states reported in status.
const (
	StateIdle        = "idle"
	StateDownloading = "downloading"
	StateInstalling  = "installing"
	StateFailed      = "failed"   // install or smoke test failed; counts against a rollout gate
	StateRejected    = "rejected" // manifest or artifact refused; the running model stays
)

// Health is what the pipeline reports about the running version of a role since it switched to
// it: counts and timings only.
type Health struct {
	Requests  uint64  `json:"requests"`
	Errors    uint64  `json:"errors"`
	Failovers uint64  `json:"failovers"`
	TTFTP95Ms float64 `json:"ttft_p95_ms"`
}

// RoleStatus is what an edge reports for one role.
type RoleStatus struct {
	Version       string    `json:"version,omitempty"` // what actually runs
	Digest        string    `json:"digest,omitempty"`
	Previous      string    `json:"previous,omitempty"` // kept on disk for instant rollback
	Desired       string    `json:"desired,omitempty"`
	Rollout       string    `json:"rollout,omitempty"`
	State         string    `json:"state"`
	BytesDone     int64     `json:"bytes_done,omitempty"`
	BytesTotal    int64     `json:"bytes_total,omitempty"`
	FailedVersion string    `json:"failed_version,omitempty"` // the version Reason/LastError is about
	Reason        string    `json:"reason,omitempty"`
	LastError     string    `json:"last_error,omitempty"`
	Changed       time.Time `json:"changed"`
	Health        Health    `json:"health"`
}

// EdgeStatus is the value of an edge's status key.
type EdgeStatus struct {
	EdgeID string                `json:"edge_id"`
	Labels map[string]string     `json:"labels,omitempty"`
	Seen   time.Time             `json:"seen"`
	Roles  map[string]RoleStatus `json:"roles"`
	// Usage is what the edge's users saw over the last UsageWindow; nil from an edge that does
	// not report it (older edges).
	Usage *Usage `json:"usage,omitempty"`
}

// UsageWindow is the span an edge's Usage summarises: a sliding window, in 10-second buckets.
const UsageWindow = 5 * time.Minute

// Usage summarises an edge's traffic over its last UsageWindow (shorter just after the agent
// started: WindowSeconds says how long). Counts, timings and token counts only — never user,
// prompt, key or value data. fleetctl status, the fleet exporter and fleetctl size read it.
// The fields taken from other packages' counters (refusals, timeouts, NER and fail-open,
// drafting) are their increase since the agent's last look at or before the window's start, so
// they may span up to one heartbeat more than WindowSeconds.
type Usage struct {
	WindowSeconds float64 `json:"window_s"`
	// Requests that reached the request path (admitted); Errors are server-side failures among
	// them, Failovers answers not served by the primary DC (DegradedAnswers among them, served
	// by the NUC's local model).
	Requests        uint64  `json:"requests"`
	Errors          uint64  `json:"errors"`
	Failovers       uint64  `json:"failovers"`
	DegradedAnswers uint64  `json:"degraded_answers"`
	ErrorRate       float64 `json:"error_rate"`    // Errors / Requests (0 without requests)
	FailoverRate    float64 `json:"failover_rate"` // Failovers / Requests
	// TTFT is the time to the first content chunk (or the whole non-streamed answer) from the
	// top of the request path; InterToken the gaps between content chunks of streamed answers (a
	// chunk is usually one token; a drafted round may write several at once).
	TTFT       Latency `json:"ttft"`
	InterToken Latency `json:"inter_token"`
	// Degraded: something in the window ran below full strength — an answer from the local
	// model, redaction without its NER layer (NERDegraded), or a guard check passed open
	// (GuardFailOpen).
	Degraded          bool   `json:"degraded"`
	NERDegraded       uint64 `json:"ner_degraded"`
	GuardFailOpen     uint64 `json:"guard_fail_open"`
	GuardTimeouts     uint64 `json:"guard_timeouts"`     // classifier calls that timed out
	RedactionTimeouts uint64 `json:"redaction_timeouts"` // texts refused at a recognizer's match timeout
	// Refused429 and Refused503 are admission refusals (never reached the path): tenant limits,
	// and a full branch (queue full, queue timeout, request bytes).
	Refused429 uint64 `json:"refused_429"`
	Refused503 uint64 `json:"refused_503"`
	// InputTokens are estimated (four bytes of text a token, as admission estimates them).
	// OutputTokens come from the answer's usage when it had one, else from the count of content
	// chunks (streamed) or four bytes a token (non-streamed): FromUsage says how many samples
	// were exact.
	InputTokens  Tokens `json:"input_tokens"`
	OutputTokens Tokens `json:"output_tokens"`
	// Drafting is speculative drafting over the window, when it ran (nil: no draft tokens).
	Drafting *Drafting `json:"drafting,omitempty"`
	// Models are the model names requests asked for in the window, sorted (at most 16).
	Models []string `json:"models,omitempty"`
}

// Latency is a latency distribution's p50 and p95 over Samples (0 without samples). Quantiles
// come from a log-bucketed histogram: within ±3% of the exact sample quantile.
type Latency struct {
	P50Ms   float64 `json:"p50_ms"`
	P95Ms   float64 `json:"p95_ms"`
	Samples uint64  `json:"samples"`
}

// Tokens is a mean token count over Samples requests.
type Tokens struct {
	Mean      float64 `json:"mean"`
	Samples   uint64  `json:"samples"`
	FromUsage uint64  `json:"from_usage,omitempty"`
}

// Drafting counts draft tokens the drafter proposed and the target accepted; Acceptance is their
// ratio (the α of sizing).
type Drafting struct {
	DraftedTokens  uint64  `json:"drafted_tokens"`
	AcceptedTokens uint64  `json:"accepted_tokens"`
	Acceptance     float64 `json:"acceptance"`
}

// UsageRecord is what an edge appends to the usage history (UsageSubject) once per UsageWindow:
// one window's summary, so that consecutive records cover consecutive windows.
type UsageRecord struct {
	EdgeID string            `json:"edge_id"`
	Labels map[string]string `json:"labels,omitempty"`
	At     time.Time         `json:"at"` // the end of the window
	Usage  Usage             `json:"usage"`
}

// Usage history: a limits-based stream with a maximum age captures every edge's UsageRecords.
const (
	UsageStream        = "sucursal-usage"
	UsageSubjectPrefix = "sucursal.usage."
	UsageMaxAge        = 35 * 24 * time.Hour
)

// UsageSubject is the subject an edge publishes its UsageRecords on.
func UsageSubject(edgeID string) string { return UsageSubjectPrefix + edgeID }
