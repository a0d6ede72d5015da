package fleetapi

// Buckets names the JetStream buckets the fleet shares with its edges. The zero value means the
// defaults.
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
