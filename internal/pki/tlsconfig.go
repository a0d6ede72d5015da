package pki

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"
)

// ErrPeerRejected means a peer completed the certificate checks of crypto/tls but is still not
// acceptable on the link (no edge id, wrong key usage, wrong ALPN).
var ErrPeerRejected = errors.New("peer rejected")

// ServerTLS builds the dc-gateway's TLS config from dir/ca.crt and dir/dc-gateway.{crt,key}: TLS
// 1.3 only, ALPN set, and a client certificate from the fleet CA carrying a valid edge id required
// on every connection.
func ServerTLS(dir string) (*tls.Config, error) {
	now := time.Now()
	pool, err := loadCAPool(dir, now)
	if err != nil {
		return nil, fmt.Errorf("pki: server TLS: %w", err)
	}
	pair, err := loadPair(filepath.Join(dir, DCCertFile), filepath.Join(dir, DCKeyFile), initHint(dir), now)
	if err != nil {
		return nil, fmt.Errorf("pki: server TLS: %w", err)
	}
	if !slices.Contains(pair.Leaf.ExtKeyUsage, x509.ExtKeyUsageServerAuth) {
		return nil, fmt.Errorf("pki: server TLS: %w: %s has no server-auth key usage", ErrMismatch, filepath.Join(dir, DCCertFile))
	}
	return &tls.Config{
		MinVersion:       tls.VersionTLS13,
		NextProtos:       []string{ALPN},
		Certificates:     []tls.Certificate{pair},
		ClientAuth:       tls.RequireAndVerifyClientCert,
		ClientCAs:        pool,
		VerifyConnection: verifyEdge,
	}, nil
}

// verifyEdge runs after crypto/tls has verified the client's chain against the fleet CA. It
// enforces what chain verification alone does not: the leaf is an edge certificate (not the CA or
// the gateway's own cert replayed), it is meant for client auth, and it names exactly one edge.
func verifyEdge(cs tls.ConnectionState) error {
	if len(cs.VerifiedChains) == 0 || len(cs.PeerCertificates) == 0 {
		return fmt.Errorf("%w: no verified client certificate", ErrPeerRejected)
	}
	if cs.NegotiatedProtocol != ALPN {
		return fmt.Errorf("%w: ALPN %q, want %q", ErrPeerRejected, cs.NegotiatedProtocol, ALPN)
	}
	leaf := cs.PeerCertificates[0]
	if leaf.IsCA {
		return fmt.Errorf("%w: client presented a CA certificate", ErrPeerRejected)
	}
	if !slices.Contains(leaf.ExtKeyUsage, x509.ExtKeyUsageClientAuth) {
		return fmt.Errorf("%w: client certificate lacks client-auth key usage", ErrPeerRejected)
	}
	if _, err := EdgeID(leaf); err != nil {
		return fmt.Errorf("%w: %w", ErrPeerRejected, err)
	}
	return nil
}

// ClientTLS builds an edge's TLS config from dir/ca.crt and dir/edges/<edgeID>.{crt,key}: TLS 1.3
// only, ALPN set, and only the fleet CA trusted for the gateway's certificate. ServerName is
// "localhost"; a caller dialling a real gateway sets it to the name on the gateway's certificate.
func ClientTLS(dir, edgeID string) (*tls.Config, error) {
	if err := ValidateEdgeID(edgeID); err != nil {
		return nil, fmt.Errorf("pki: client TLS: %w", err)
	}
	now := time.Now()
	pool, err := loadCAPool(dir, now)
	if err != nil {
		return nil, fmt.Errorf("pki: client TLS: %w", err)
	}
	pair, err := loadPair(EdgeCertPath(dir, edgeID), EdgeKeyPath(dir, edgeID), edgeHint(dir, edgeID), now)
	if err != nil {
		return nil, fmt.Errorf("pki: client TLS: %w", err)
	}
	// Catch a misplaced file now rather than as an opaque handshake failure at the gateway.
	if got, err := EdgeID(pair.Leaf); err != nil || got != edgeID {
		return nil, fmt.Errorf("pki: client TLS: %w: %s does not carry edge id %q", ErrMismatch, EdgeCertPath(dir, edgeID), edgeID)
	}
	return &tls.Config{
		MinVersion:   tls.VersionTLS13,
		NextProtos:   []string{ALPN},
		Certificates: []tls.Certificate{pair},
		RootCAs:      pool,
		ServerName:   "localhost",
	}, nil
}

// PeerEdgeID returns the edge id of the client on a connection accepted with ServerTLS. It reads
// the verified chain, never the raw presented certificates, so an unverified peer has no id.
func PeerEdgeID(cs tls.ConnectionState) (string, error) {
	if len(cs.VerifiedChains) == 0 || len(cs.VerifiedChains[0]) == 0 {
		return "", fmt.Errorf("%w: connection has no verified client certificate", ErrNoEdgeID)
	}
	return EdgeID(cs.VerifiedChains[0][0])
}
