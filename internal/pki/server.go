package pki

import (
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"path/filepath"
	"slices"
	"time"
)

// The NATS hub's server certificate (fleetctl hub --pki), beside the credentials in NATSDir.
const (
	NATSDir     = "nats"
	HubCertFile = "nats/hub.crt"
	HubKeyFile  = "nats/hub.key"
)

// EnsureHubCert makes sure dir holds a server certificate for the fleet's NATS hub, signed by the
// fleet CA and valid for the default names plus sans; it issues one (which needs ca.key) when
// there is none, when it is about to expire, when another CA signed it, or when a name is
// missing. It reports whether it issued one.
func EnsureHubCert(dir string, sans []string, now time.Time) (bool, error) {
	want, err := ParseSANs(append(slices.Clone(defaultDCSANs), sans...))
	if err != nil {
		return false, fmt.Errorf("pki: hub certificate: %w", err)
	}
	certPath, keyPath := filepath.Join(dir, HubCertFile), filepath.Join(dir, HubKeyFile)
	ca, _, err := readCert(filepath.Join(dir, CACertFile), initHint(dir))
	if err != nil {
		return false, fmt.Errorf("pki: hub certificate: %w", err)
	}
	if cert, _, err := readCert(certPath, ""); err == nil {
		if ok, _ := exists(keyPath); ok && now.Add(expiringSoon).Before(cert.NotAfter) &&
			cert.CheckSignatureFrom(ca) == nil && len(missingSANs(cert.DNSNames, cert.IPAddresses, want)) == 0 {
			return false, nil
		}
	}
	signer, err := loadSigner(dir, now)
	if err != nil {
		return false, fmt.Errorf("pki: hub certificate: %w", err)
	}
	tmpl := &x509.Certificate{
		Subject:     pkix.Name{CommonName: "nats-hub", Organization: []string{organization}},
		NotBefore:   now.Add(-backdate),
		NotAfter:    leafNotAfter(signer, now, DefaultValidity),
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:    want.DNS,
		IPAddresses: want.IPs,
	}
	is, err := issue(tmpl, &signer)
	if err != nil {
		return false, fmt.Errorf("pki: hub certificate: %w", err)
	}
	if err := ensureDir(filepath.Join(dir, NATSDir)); err != nil {
		return false, fmt.Errorf("pki: %w", err)
	}
	if err := writePair(certPath, keyPath, is); err != nil {
		return false, fmt.Errorf("pki: %w", err)
	}
	return true, nil
}

// HubTLS is the NATS hub's server TLS config from dir/nats/hub.{crt,key}. NATS clients
// authenticate with nkeys, not certificates, so no client certificate is asked for. TLS 1.2 is the
// floor so that stock NATS tools connect too.
func HubTLS(dir string) (*tls.Config, error) {
	pair, err := loadPair(filepath.Join(dir, HubCertFile), filepath.Join(dir, HubKeyFile),
		"create it with: fleetctl hub --pki "+dir, time.Now())
	if err != nil {
		return nil, fmt.Errorf("pki: hub TLS: %w", err)
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{pair}}, nil
}
