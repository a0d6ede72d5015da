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
}
