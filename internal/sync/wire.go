package sync

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/sucursal/sucursal/internal/manifest"
)

// Buckets names the JetStream buckets the fleet uses. The zero value means the defaults.
type Buckets struct {
	Desired   string `yaml:"desired"`   // KV: desired model per role, edge and label
	Status    string `yaml:"status"`    // KV with TTL: one heartbeat record per edge
	Artifacts string `yaml:"artifacts"` // Object Store: model files
}

// Default bucket names.
const (
	DefaultDesiredBucket   = "sucursal-desired"
	DefaultStatusBucket    = "sucursal-status"
	DefaultArtifactsBucket = "sucursal-artifacts"
)

// WithDefaults fills in empty names.
func (b Buckets) WithDefaults() Buckets {
	if b.Desired == "" {
		b.Desired = DefaultDesiredBucket
	}
	if b.Status == "" {
		b.Status = DefaultStatusBucket
	}
	if b.Artifacts == "" {
		b.Artifacts = DefaultArtifactsBucket
	}
	return b
}

var tokenRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ValidToken reports whether s can be one token of a KV key (edge ids, label names and values).
func ValidToken(s string) bool { return tokenRE.MatchString(s) }

// Desired-state keys. The most specific entry wins: edge, then label selector (more labels
// first), then role default.
func RoleKey(role string) string         { return "role." + role }
func EdgeKey(edgeID, role string) string { return "edge." + edgeID + "." + role }
func LabelKey(k, v, role string) string  { return "sel." + k + "=" + v + "." + role }
func StatusKey(edgeID string) string     { return "edge." + edgeID }

// SelectorKey is the desired-state key for every edge that has all the labels of sel:
// "sel.<k1>=<v1>/<k2>=<v2>.<role>", labels sorted by name, so one selector has one key. With one
// label it is LabelKey. Labels are tokens (no "=", "/" or "."), so the key parses back unambiguously
// and stays one subject token: the edges' "sel.*.*" watch sees it.
func SelectorKey(sel map[string]string, role string) string {
	pairs := make([]string, 0, len(sel))
	for _, k := range slices.Sorted(maps.Keys(sel)) {
		pairs = append(pairs, k+"="+sel[k])
	}
	return "sel." + strings.Join(pairs, "/") + "." + role
}

// ParseSelector reads the selector token of a "sel.<token>.<role>" key: "k=v" pairs joined by "/".
// It refuses anything SelectorKey would not write (empty, malformed or repeated labels).
func ParseSelector(token string) (map[string]string, bool) {
	out := map[string]string{}
	for _, pair := range strings.Split(token, "/") {
		k, v, ok := strings.Cut(pair, "=")
		if !ok || !ValidToken(k) || !ValidToken(v) {
			return nil, false
		}
		if _, dup := out[k]; dup {
			return nil, false
		}
		out[k] = v
	}
	return out, true
}

// InboxPrefix is where an edge's NATS replies and consumer deliveries go. It is per edge so that
// the fleet's NATS permissions can let an edge subscribe to its own replies only (see
// fleet.EdgePermissions).
func InboxPrefix(edgeID string) string { return "_INBOX.edge." + edgeID }

func edgeFilters(edgeID string) []string {
	return []string{"role.*", "edge." + edgeID + ".*", "sel.*.*"}
}

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
		return Desired{}, fmt.Errorf("sync: desired state: %w", err)
	}
	if len(d.Manifest.Sig) == 0 {
		return Desired{}, fmt.Errorf("sync: desired state: no manifest")
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
