package pki

import (
	"crypto/x509"
	"errors"
	"fmt"
	"strings"
)

// ALPN is the TLS application protocol for the edge⇄DC QUIC link. Both sides must offer it; a peer
// speaking anything else is refused during the handshake.
const ALPN = "sucursal"

// edgeURIPrefix starts the URI SAN that carries an edge id. A URN (not a DNS name) because an edge
// id is an identity, not an address, and DNS SANs would let an edge cert pass as a server name.
const edgeURIPrefix = "urn:sucursal:edge:"

// maxEdgeIDLen keeps ids short enough to be a DNS label, a file name and a metrics label value.
const maxEdgeIDLen = 63

var (
	// ErrInvalidEdgeID means an edge id is outside the allowed charset [a-z0-9][a-z0-9._-]{0,62}.
	ErrInvalidEdgeID = errors.New("invalid edge id")
	// ErrNoEdgeID means a certificate carries no edge id, or an inconsistent one.
	ErrNoEdgeID = errors.New("certificate carries no valid edge id")
)

// ValidateEdgeID reports whether id may name an edge. The charset is kept small because the id
// becomes a file name (edges/<id>.crt), a URI, a NATS subject token and a metrics label.
func ValidateEdgeID(id string) error {
	if id == "" {
		return fmt.Errorf("%w: empty (want [a-z0-9][a-z0-9._-]{0,62})", ErrInvalidEdgeID)
	}
	if len(id) > maxEdgeIDLen {
		return fmt.Errorf("%w: %d bytes long, at most %d allowed", ErrInvalidEdgeID, len(id), maxEdgeIDLen)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		lowerOrDigit := (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
		if lowerOrDigit || (i > 0 && (c == '.' || c == '_' || c == '-')) {
			continue
		}
		// %q quotes the id: it is operator input, and the quoting keeps control bytes visible.
		return fmt.Errorf("%w %q: byte %d is not allowed (want [a-z0-9][a-z0-9._-]{0,62})", ErrInvalidEdgeID, id, i)
	}
	return nil
}

// edgeURI is the URI SAN written into an edge's certificate.
func edgeURI(id string) string { return edgeURIPrefix + id }

// EdgeID returns the edge id carried in a client certificate that has already been verified
// against the fleet CA. The URI SAN is authoritative; the Subject CN must agree with it, so a
// certificate cannot say two different things to two different readers.
func EdgeID(cert *x509.Certificate) (string, error) {
	if cert == nil {
		return "", fmt.Errorf("%w: no certificate", ErrNoEdgeID)
	}
	var id string
	found := 0
	for _, u := range cert.URIs {
		if u == nil || !strings.HasPrefix(u.String(), edgeURIPrefix) {
			continue
		}
		found++
		id = strings.TrimPrefix(u.String(), edgeURIPrefix)
	}
	switch {
	case found == 0:
		return "", fmt.Errorf("%w: no %s<id> URI SAN", ErrNoEdgeID, edgeURIPrefix)
	case found > 1:
		return "", fmt.Errorf("%w: %d edge URI SANs, want exactly one", ErrNoEdgeID, found)
	}
	if err := ValidateEdgeID(id); err != nil {
		return "", fmt.Errorf("%w: %w", ErrNoEdgeID, err)
	}
	if cert.Subject.CommonName != id {
		return "", fmt.Errorf("%w: subject CN does not match the URI SAN edge id %q", ErrNoEdgeID, id)
	}
	return id, nil
}
