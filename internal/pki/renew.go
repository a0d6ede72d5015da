package pki

import (
	"crypto"
	"crypto/x509"
	"errors"
	"fmt"
	"path/filepath"
	"time"
)

// CA is the fleet CA loaded with its key, for signing what the fleet distributes (the trust
// lists). It never exposes the key.
type CA struct {
	Cert *x509.Certificate
	s    signer
}

// LoadCA loads dir/ca.crt and dir/ca.key (the operator machine only).
func LoadCA(dir string) (*CA, error) {
	s, err := loadSigner(dir, time.Now())
	if err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	return &CA{Cert: s.cert, s: s}, nil
}

// Signer returns the CA's key as a crypto.Signer.
func (c *CA) Signer() crypto.Signer { return c.s.key }

// ReadEdgeCert reads dir/edges/<id>.crt and checks it carries that edge id.
func ReadEdgeCert(dir, id string) (*x509.Certificate, error) {
	if err := ValidateEdgeID(id); err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	cert, _, err := readCert(EdgeCertPath(dir, id), edgeHint(dir, id))
	if err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	if got, err := EdgeID(cert); err != nil || got != id {
		return nil, fmt.Errorf("pki: %w: %s does not carry edge id %q", ErrMismatch, EdgeCertPath(dir, id), id)
	}
	return cert, nil
}

// Edges lists the edge ids that have a certificate in dir/edges.
func Edges(dir string) ([]string, error) { return existingEdges(dir) }

// RenewEdge issues a new key and certificate for an enrolled edge under the existing CA and
// replaces its files; the CA, the gateway and every other edge are untouched. It returns the old
// certificate (nil if there was none, e.g. it was deleted) and the new one.
func RenewEdge(dir, id string, validity time.Duration, now func() time.Time) (old, renewed *x509.Certificate, err error) {
	if err := ValidateEdgeID(id); err != nil {
		return nil, nil, fmt.Errorf("pki: %w", err)
	}
	if now == nil {
		now = time.Now
	}
	if validity <= 0 {
		validity = DefaultValidity
	}
	t := now()
	ca, err := loadSigner(dir, t)
	if err != nil {
		return nil, nil, fmt.Errorf("pki: %w", err)
	}
	old, _, err = readCert(EdgeCertPath(dir, id), "")
	if err != nil && !errors.Is(err, ErrMissing) {
		return nil, nil, fmt.Errorf("pki: %w", err)
	}
	is, err := issueEdge(ca, id, t, validity)
	if err != nil {
		return nil, nil, fmt.Errorf("pki: %w", err)
	}
	if err := ensureDir(filepath.Join(dir, EdgesDir)); err != nil {
		return nil, nil, fmt.Errorf("pki: %w", err)
	}
	if err := writePair(EdgeCertPath(dir, id), EdgeKeyPath(dir, id), is); err != nil {
		return nil, nil, fmt.Errorf("pki: %w", err)
	}
	return old, is.cert, nil
}
