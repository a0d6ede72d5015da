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

// Reasons a gateway refuses an edge's handshake. They are stable: they label metrics and logs.
const (
	ReasonNoClientCert = "no_client_cert" // the client presented no certificate
	ReasonForeignCA    = "foreign_ca"     // not signed by the fleet CA
	ReasonExpired      = "expired"        // outside its validity period (or the gateway's clock is off)
	ReasonNotEdge      = "not_edge_cert"  // a fleet certificate, but not a usable edge certificate
	ReasonUnenrolled   = "unenrolled"     // a valid edge certificate the enrolment list does not hold
	ReasonRevoked      = "revoked"        // on the revocation list
	ReasonRefused      = "refused"        // Admit refused without naming a reason
)

// RefusedError is a refused edge handshake and its reason (one of the Reason constants).
type RefusedError struct {
	Reason string
	Err    error
}

func (e *RefusedError) Error() string { return e.Reason + ": " + e.Err.Error() }
func (e *RefusedError) Unwrap() error { return e.Err }

// Refuse returns a *RefusedError, for Admit functions.
func Refuse(reason string, format string, args ...any) error {
	return &RefusedError{Reason: reason, Err: fmt.Errorf(format, args...)}
}

// ReasonOf returns the reason of a refusal; errors that are not a *RefusedError are ReasonRefused.
func ReasonOf(err error) string {
	var re *RefusedError
	if errors.As(err, &re) {
		return re.Reason
	}
	return ReasonRefused
}

// Admission is what a gateway adds to the fleet CA's verdict on an edge.
type Admission struct {
	// Admit runs after the chain, the validity period and the edge id have been verified: the
	// enrolment and revocation lists. A non-nil error refuses the handshake. Nil admits every
	// certificate of the fleet CA.
	Admit func(edgeID string, leaf *x509.Certificate) error
	// Refused, if set, is told about every refused handshake, with its reason.
	Refused func(reason string, err error)
	// Now is the clock for validity periods; time.Now if nil.
	Now func() time.Time
}

// EdgeVerifier verifies edge client certificates itself, in tls.Config.VerifyConnection, rather
// than leaving chain verification to crypto/tls: crypto/tls fails a handshake with a foreign or
// expired certificate before any callback runs, so such a refusal could be neither counted nor
// logged. It runs the same x509 verification against a pool holding only the fleet CA.
type EdgeVerifier struct {
	pool *x509.CertPool
	adm  Admission
}

// GatewayTLS is ServerTLS with an Admission: the returned config requests a client certificate
// and has VerifyConnection (the EdgeVerifier's) refuse, with a reason, any handshake without a
// valid, admitted edge certificate. Because crypto/tls does not verify the chain here, the
// connection state has no VerifiedChains: read the edge id with the EdgeVerifier's PeerEdgeID.
func GatewayTLS(dir string, adm Admission) (*tls.Config, *EdgeVerifier, error) {
	conf, err := ServerTLS(dir)
	if err != nil {
		return nil, nil, err
	}
	if adm.Now == nil {
		adm.Now = time.Now
	}
	v := &EdgeVerifier{pool: conf.ClientCAs, adm: adm}
	// RequestClientCert: crypto/tls neither requires nor verifies; VerifyConnection does both, on
	// full handshakes and on resumed ones alike.
	conf.ClientAuth = tls.RequestClientCert
	conf.VerifyConnection = v.VerifyConnection
	return conf, v, nil
}

// VerifyConnection is the tls.Config hook: the chain against the fleet CA, the edge checks of
// ServerTLS, then Admit.
func (v *EdgeVerifier) VerifyConnection(cs tls.ConnectionState) error {
	id, leaf, err := v.verify(cs)
	if err == nil && v.adm.Admit != nil {
		if err = v.adm.Admit(id, leaf); err != nil {
			var re *RefusedError
			if !errors.As(err, &re) {
				err = &RefusedError{Reason: ReasonRefused, Err: err}
			}
		}
	}
	if err != nil && v.adm.Refused != nil {
		v.adm.Refused(ReasonOf(err), err)
	}
	return err
}

// PeerEdgeID returns the edge id of a connection accepted with this verifier's config. It verifies
// the presented chain again (one signature check), so it never trusts a certificate on the word of
// the connection state alone.
func (v *EdgeVerifier) PeerEdgeID(cs tls.ConnectionState) (string, error) {
	id, _, err := v.verify(cs)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrNoEdgeID, err)
	}
	return id, nil
}

func (v *EdgeVerifier) verify(cs tls.ConnectionState) (string, *x509.Certificate, error) {
	if len(cs.PeerCertificates) == 0 {
		return "", nil, Refuse(ReasonNoClientCert, "the client presented no certificate")
	}
	leaf := cs.PeerCertificates[0]
	inter := x509.NewCertPool()
	for _, c := range cs.PeerCertificates[1:] {
		inter.AddCert(c)
	}
	now := v.adm.Now()
	_, err := leaf.Verify(x509.VerifyOptions{Roots: v.pool, Intermediates: inter, CurrentTime: now,
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}})
	var invalid x509.CertificateInvalidError
	switch {
	case err == nil:
	case errors.As(err, &x509.UnknownAuthorityError{}):
		return "", leaf, &RefusedError{Reason: ReasonForeignCA, Err: err}
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		return "", leaf, &RefusedError{Reason: ReasonExpired, Err: err}
	default:
		return "", leaf, &RefusedError{Reason: ReasonNotEdge, Err: err}
	}
	if cs.NegotiatedProtocol != ALPN {
		return "", leaf, Refuse(ReasonNotEdge, "ALPN %q, want %q", cs.NegotiatedProtocol, ALPN)
	}
	if leaf.IsCA {
		return "", leaf, Refuse(ReasonNotEdge, "client presented a CA certificate")
	}
	if !slices.Contains(leaf.ExtKeyUsage, x509.ExtKeyUsageClientAuth) {
		return "", leaf, Refuse(ReasonNotEdge, "client certificate lacks client-auth key usage")
	}
	id, err := EdgeID(leaf)
	if err != nil {
		return "", leaf, &RefusedError{Reason: ReasonNotEdge, Err: err}
	}
	return id, leaf, nil
}

// LoadCACert reads and checks dir/ca.crt (no key needed): what a gateway verifies signed trust
// lists with.
func LoadCACert(dir string) (*x509.Certificate, error) {
	path := filepath.Join(dir, CACertFile)
	cert, _, err := readCert(path, initHint(dir))
	if err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	if !cert.IsCA {
		return nil, fmt.Errorf("pki: %w: %s is not a CA certificate", ErrMismatch, path)
	}
	return cert, nil
}
