package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sucursal/sucursal/internal/apikey"
	"github.com/sucursal/sucursal/internal/configcheck"
	"github.com/sucursal/sucursal/internal/pki"
)

// CheckFile reads path as `edge-agent --config` does and lists every problem in it at once, in
// one pass: YAML syntax (line and column), unknown keys (with the closest known key), values of
// the wrong type, the logic Validate checks, and the PKI files the agent would load (the CA, this
// edge's certificate and key, and tls_cert/tls_key when set), and the API key file. Flags and environment variables
// are not applied: it checks the file.
func CheckFile(path string, now time.Time) configcheck.Report {
	r := configcheck.Report{File: path}
	b, err := os.ReadFile(path)
	if err != nil {
		r.Add(configcheck.Problem{Kind: configcheck.KindSyntax, Msg: fmt.Sprintf("cannot read the file: %v", err)})
		return r
	}
	cfg := DefaultConfig()
	ps := configcheck.Decode(b, &cfg)
	r.Add(ps...)
	for _, p := range ps {
		if p.Kind == configcheck.KindSyntax {
			return r // nothing was read: the logic would only repeat the defaults' gaps
		}
	}
	r.Add(configcheck.Logic(cfg.Validate())...)
	r.Add(cfg.checkPKI(now)...)
	if cfg.Auth.KeysFile != "" {
		// As the agent reads it at start (a missing file is no keys yet, not an error).
		if _, err := apikey.ReadFile(cfg.Auth.KeysFile); err != nil {
			r.Add(configcheck.Problem{Kind: configcheck.KindLogic, Msg: fmt.Sprintf("auth.keys_file: %v", err)})
		}
	}
	return r
}

// checkPKI checks the files pki.ClientTLS and the HTTPS listener load, each problem on its own.
func (c Config) checkPKI(now time.Time) []configcheck.Problem {
	var ps []configcheck.Problem
	if c.PKI != "" && c.EdgeID != "" {
		if err := pki.ValidateEdgeID(c.EdgeID); err == nil {
			certFile := pki.EdgeCertPath(c.PKI, c.EdgeID)
			cert, more := configcheck.CertPair(certFile, pki.EdgeKeyPath(c.PKI, c.EdgeID), filepath.Join(c.PKI, pki.CACertFile), now)
			ps = append(ps, more...)
			if cert != nil {
				if id, err := pki.EdgeID(cert); err != nil {
					ps = append(ps, configcheck.Problem{Kind: configcheck.KindPKI, Msg: fmt.Sprintf("certificate %s carries no usable edge id: %v", certFile, err)})
				} else if id != c.EdgeID {
					ps = append(ps, configcheck.Problem{Kind: configcheck.KindPKI,
						Msg: fmt.Sprintf("certificate %s is edge %q's, but edge_id is %q", certFile, id, c.EdgeID)})
				}
			}
		}
	}
	if c.TLSCert != "" && c.TLSKey != "" {
		_, more := configcheck.CertPair(c.TLSCert, c.TLSKey, "", now)
		ps = append(ps, more...)
	}
	return ps
}
