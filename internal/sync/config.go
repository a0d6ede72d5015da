package sync

import (
	"errors"
	"fmt"
	"time"

	"github.com/sucursal/sucursal/internal/fleetapi"
)

// AgentConfig is the sync section of the edge-agent's configuration.
type AgentConfig struct {
	NATSURL         string `yaml:"nats"`             // e.g. nats://fleet.dc:4222
	CredentialsFile string `yaml:"credentials_file"` // NATS .creds (JWT + seed)
	NKeySeedFile    string `yaml:"nkey_seed_file"`   // alternative to a creds file (fleetctl pki: edges/<id>.nk)
	// NATSCAFile verifies the NATS server's TLS certificate (a hub started with fleetctl hub --pki:
	// the fleet's ca.crt); setting it turns TLS on.
	NATSCAFile     string            `yaml:"nats_ca_file"`
	EdgeID         string            `yaml:"edge_id"`
	Labels         map[string]string `yaml:"labels"`
	TrustedKeys    []string          `yaml:"trusted_keys"` // PEM files of ed25519 public keys
	DataDir        string            `yaml:"data_dir"`
	BandwidthLimit int64             `yaml:"bandwidth_limit"` // bytes per second, 0 = unlimited
	OllamaURL      string            `yaml:"ollama_url"`
	Heartbeat      time.Duration     `yaml:"heartbeat"`     // default 10s
	WindowChunks   int               `yaml:"window_chunks"` // default DefaultWindow
	Buckets        fleetapi.Buckets  `yaml:"buckets"`
}

// Validate lists every problem at once. Without a Conn in the dependencies, NATSURL is required;
// without a Trust, TrustedKeys is.
func (c AgentConfig) Validate(haveConn, haveTrust bool) error {
	var errs []error
	if !haveConn && c.NATSURL == "" {
		errs = append(errs, errors.New("sync: nats url is required"))
	}
	if c.CredentialsFile != "" && c.NKeySeedFile != "" {
		errs = append(errs, errors.New("sync: give a credentials file or an nkey seed file, not both"))
	}
	if !fleetapi.ValidToken(c.EdgeID) {
		errs = append(errs, fmt.Errorf("sync: edge id %q must match %s", c.EdgeID, fleetapi.TokenPattern))
	}
	for k, v := range c.Labels {
		if !fleetapi.ValidToken(k) || !fleetapi.ValidToken(v) {
			errs = append(errs, fmt.Errorf("sync: label %q=%q must match %s", k, v, fleetapi.TokenPattern))
		}
	}
	if !haveTrust && len(c.TrustedKeys) == 0 {
		errs = append(errs, errors.New("sync: at least one trusted key file is required"))
	}
	if c.DataDir == "" {
		errs = append(errs, errors.New("sync: data dir is required"))
	}
	if c.BandwidthLimit < 0 || c.Heartbeat < 0 || c.WindowChunks < 0 {
		errs = append(errs, errors.New("sync: bandwidth limit, heartbeat and window must not be negative"))
	}
	return errors.Join(errs...)
}
