package gateway

import (
	"crypto/tls"
	"crypto/x509"
	"log/slog"

	"github.com/quic-go/quic-go"

	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/wire"
)

// Admission is the fleet-trust side of the gateway (trust.Gate): whom an accepted connection
// belongs to, and one live connection per edge id. Its TLS config (trust.Gate.TLS) verifies the
// chain in VerifyConnection, so that every refused handshake is counted with its reason.
type Admission interface {
	PeerEdgeID(cs tls.ConnectionState) (string, error)
	// Claim registers the live connection of edgeID; close ends it. It returns the release to
	// call when the connection ends.
	Claim(edgeID string, leaf *x509.Certificate, close func(msg string)) (release func())
}

// verifiesClients reports whether tlsConf authenticates every client: crypto/tls verifying the
// chain, or (with an Admission) a VerifyConnection that does.
func verifiesClients(tlsConf *tls.Config, adm Admission) bool {
	if tlsConf == nil {
		return false
	}
	return tlsConf.ClientAuth == tls.RequireAndVerifyClientCert || (adm != nil && tlsConf.VerifyConnection != nil)
}

func (s *Server) peerEdgeID(cs tls.ConnectionState) (string, error) {
	if s.cfg.Admission != nil {
		return s.cfg.Admission.PeerEdgeID(cs)
	}
	return pki.PeerEdgeID(cs)
}

// claim registers conn as edgeID's one live connection (a previous one is closed) and returns the
// release for when it ends. Without an Admission it does nothing.
func (s *Server) claim(conn *quic.Conn, edgeID string, log *slog.Logger) (release func()) {
	if s.cfg.Admission == nil {
		return func() {}
	}
	var leaf *x509.Certificate
	if pc := conn.ConnectionState().TLS.PeerCertificates; len(pc) > 0 {
		leaf = pc[0]
	}
	return s.cfg.Admission.Claim(edgeID, leaf, func(msg string) {
		log.Info("closing edge connection", "why", msg)
		_ = conn.CloseWithError(wire.CodeIdentity, msg)
	})
}
