package pki

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"math/big"
	"net/url"
	"time"
)

// ECDSA P-256 rather than ed25519. crypto/tls and quic-go handle both in TLS 1.3, and ed25519 is
// somewhat cheaper (BenchmarkMutualHandshake, figures in docs/PKI.md: about 0.15 ms, 15%, less
// CPU per full mutual handshake). We still pick P-256 because the Intel PTT / TPM 2.0
// in the NUCs and the HSMs banks keep CA keys in support it and mostly not ed25519, so keys can
// move into hardware without re-enrolling the fleet; and every other TLS stack on the path
// (nats-server, openssl, curl, Prometheus) accepts it. The cost is paid once per long-lived
// edge connection, not per request.

const (
	// CAValidity is the CA's lifetime. Long, because replacing the CA means re-enrolling every
	// branch; leaf certificates are short-lived by comparison and re-issued from it.
	CAValidity = 10 * 365 * 24 * time.Hour
	// DefaultValidity is the lifetime of dc-gateway and edge certificates when Options.Validity is 0.
	DefaultValidity = 2 * 365 * 24 * time.Hour
	// backdate tolerates NUC clocks that run a little behind the operator's laptop.
	backdate = time.Hour

	caCommonName = "Sucursal fleet CA"
	dcCommonName = "dc-gateway"
	organization = "Sucursal"
)

// issued is a freshly created key and the DER certificate for it.
type issued struct {
	key  *ecdsa.PrivateKey
	cert *x509.Certificate
	der  []byte
}

// signer is the CA that signs leaf certificates.
type signer struct {
	cert *x509.Certificate
	key  crypto.Signer
}

func newKey() (*ecdsa.PrivateKey, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate P-256 key: %w", err)
	}
	return k, nil
}

// serial returns a random 128-bit positive serial, as RFC 5280 asks for unpredictable serials.
func serial() (*big.Int, error) {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return nil, fmt.Errorf("certificate serial: %w", err)
	}
	return n.Add(n, big.NewInt(1)), nil
}

func issueCA(now time.Time) (issued, error) {
	tmpl := &x509.Certificate{
		Subject:               pkix.Name{CommonName: caCommonName, Organization: []string{organization}},
		NotBefore:             now.Add(-backdate),
		NotAfter:              now.Add(CAValidity),
		IsCA:                  true,
		BasicConstraintsValid: true,
		MaxPathLenZero:        true, // no intermediates: the CA signs leaves only
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		// Constraining the CA's EKUs means a leaf can never be valid for anything beyond the link.
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	return issue(tmpl, nil)
}

func issueDCGateway(ca signer, sans SANs, now time.Time, validity time.Duration) (issued, error) {
	tmpl := &x509.Certificate{
		Subject:     pkix.Name{CommonName: dcCommonName, Organization: []string{organization}},
		NotBefore:   now.Add(-backdate),
		NotAfter:    leafNotAfter(ca, now, validity),
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:    sans.DNS,
		IPAddresses: sans.IPs,
	}
	return issue(tmpl, &ca)
}

func issueEdge(ca signer, id string, now time.Time, validity time.Duration) (issued, error) {
	if err := ValidateEdgeID(id); err != nil {
		return issued{}, err
	}
	u, err := url.Parse(edgeURI(id))
	if err != nil {
		return issued{}, fmt.Errorf("edge URI for %q: %w", id, err)
	}
	tmpl := &x509.Certificate{
		Subject:     pkix.Name{CommonName: id, Organization: []string{organization}, OrganizationalUnit: []string{"edge"}},
		NotBefore:   now.Add(-backdate),
		NotAfter:    leafNotAfter(ca, now, validity),
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		URIs:        []*url.URL{u},
	}
	return issue(tmpl, &ca)
}

// leafNotAfter keeps a leaf from outliving its CA, which would only produce a confusing failure later.
func leafNotAfter(ca signer, now time.Time, validity time.Duration) time.Time {
	end := now.Add(validity)
	if end.After(ca.cert.NotAfter) {
		return ca.cert.NotAfter
	}
	return end
}

// issue creates a key and a certificate for tmpl, self-signed when parent is nil.
func issue(tmpl *x509.Certificate, parent *signer) (issued, error) {
	key, err := newKey()
	if err != nil {
		return issued{}, err
	}
	if tmpl.SerialNumber, err = serial(); err != nil {
		return issued{}, err
	}
	parentCert, parentKey := tmpl, crypto.Signer(key)
	if parent != nil {
		parentCert, parentKey = parent.cert, parent.key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parentCert, key.Public(), parentKey)
	if err != nil {
		return issued{}, fmt.Errorf("sign certificate %q: %w", tmpl.Subject.CommonName, err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return issued{}, fmt.Errorf("parse new certificate %q: %w", tmpl.Subject.CommonName, err)
	}
	return issued{key: key, cert: cert, der: der}, nil
}
