package pki

import (
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// Role says what a certificate in the PKI directory is for.
type Role string

const (
	RoleCA        Role = "ca"
	RoleDCGateway Role = "dc-gateway"
	RoleHub       Role = "nats-hub"
	RoleEdge      Role = "edge"
)

// CertInfo describes one certificate found by Inspect. It holds no key material.
type CertInfo struct {
	Path      string // relative to the directory, slash-separated
	Role      Role
	Name      string // the Subject CN; for an edge, its edge id
	SANs      []string
	NotBefore time.Time
	NotAfter  time.Time
	// Problems lists what an operator should look at; empty means usable at the inspected time.
	Problems []string
}

// Inspect lists the certificates in dir (CA first, then the gateway, the NATS hub, then edges by
// id) and checks
// each: valid at now, signed by the CA in dir, key present and private, edge id matching its file
// name. It works on an edge's partial copy too (ca.crt plus its own edges/<id> files).
func Inspect(dir string, now time.Time) ([]CertInfo, error) {
	caPath := filepath.Join(dir, CACertFile)
	ca, _, err := readCert(caPath, initHint(dir))
	if err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	out := []CertInfo{describe(dir, CACertFile, CAKeyFile, RoleCA, ca, ca, now)}

	dc, _, err := readCert(filepath.Join(dir, DCCertFile), "")
	switch {
	case err == nil:
		out = append(out, describe(dir, DCCertFile, DCKeyFile, RoleDCGateway, dc, ca, now))
	case !errors.Is(err, ErrMissing):
		return nil, fmt.Errorf("pki: %w", err)
	}

	hub, _, err := readCert(filepath.Join(dir, HubCertFile), "")
	switch {
	case err == nil:
		out = append(out, describe(dir, HubCertFile, HubKeyFile, RoleHub, hub, ca, now))
	case !errors.Is(err, ErrMissing):
		return nil, fmt.Errorf("pki: %w", err)
	}

	ids, err := existingEdges(dir)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		rel := EdgesDir + "/" + id + ".crt"
		cert, _, err := readCert(EdgeCertPath(dir, id), "")
		if err != nil {
			out = append(out, CertInfo{Path: rel, Role: RoleEdge, Name: id, Problems: []string{err.Error()}})
			continue
		}
		info := describe(dir, rel, EdgesDir+"/"+id+".key", RoleEdge, cert, ca, now)
		if got, err := EdgeID(cert); err != nil || got != id {
			info.Problems = append(info.Problems, fmt.Sprintf("does not carry edge id %q", id))
		}
		out = append(out, info)
	}
	return out, nil
}

func describe(dir, certRel, keyRel string, role Role, cert, ca *x509.Certificate, now time.Time) CertInfo {
	info := CertInfo{Path: certRel, Role: role, Name: cert.Subject.CommonName, NotBefore: cert.NotBefore, NotAfter: cert.NotAfter}
	info.SANs = append(info.SANs, cert.DNSNames...)
	for _, ip := range cert.IPAddresses {
		info.SANs = append(info.SANs, ip.String())
	}
	for _, u := range cert.URIs {
		info.SANs = append(info.SANs, u.String())
	}
	switch {
	case now.After(cert.NotAfter):
		info.Problems = append(info.Problems, "expired")
	case now.Before(cert.NotBefore):
		info.Problems = append(info.Problems, "not yet valid (check the clock)")
	case now.Add(expiringSoon).After(cert.NotAfter):
		info.Problems = append(info.Problems, "expires within 30 days")
	}
	if err := cert.CheckSignatureFrom(ca); err != nil {
		info.Problems = append(info.Problems, "not signed by the CA in this directory")
	}
	st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(keyRel)))
	switch {
	case errors.Is(err, fs.ErrNotExist) && role == RoleCA:
		info.Problems = append(info.Problems, "no ca.key here: this directory cannot enrol edges (expected on an edge or gateway host)")
	case errors.Is(err, fs.ErrNotExist):
		info.Problems = append(info.Problems, "key missing")
	case err != nil:
		info.Problems = append(info.Problems, "key unreadable: "+err.Error())
	case runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0:
		info.Problems = append(info.Problems, fmt.Sprintf("key mode %04o, want 0600", st.Mode().Perm()))
	}
	return info
}
