package fleetapi

// Buckets names the JetStream buckets the fleet shares with its edges. The zero value means the
// defaults.
type Buckets struct {
	Desired   string `yaml:"desired"`   // KV: desired model per role, edge and label
	Status    string `yaml:"status"`    // KV with TTL: one heartbeat record per edge
	Artifacts string `yaml:"artifacts"` // Object Store: model files
	// Edges is KV without TTL: the last-known status of every edge the fleet has heard from,
	// written by the controller only (edges cannot), removed only by `fleetctl edge forget`.
	Edges string `yaml:"edges"`
}

// Default bucket names.
const (
	DefaultDesiredBucket   = "sucursal-desired"
	DefaultStatusBucket    = "sucursal-status"
	DefaultArtifactsBucket = "sucursal-artifacts"
	DefaultEdgesBucket     = "sucursal-edges"
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
	if b.Edges == "" {
		b.Edges = DefaultEdgesBucket
	}
	return b
}
