package configcheck

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"time"
)

// CertPair checks a certificate and its private key as a service loads them: both readable, the
// key the certificate's and readable by its owner only, the certificate valid at now and, when
// caFile is set, signed by the CA in it (which must itself be readable and valid). It returns the
// certificate, nil when it could not be read, so the caller can check what it names.
func CertPair(certFile, keyFile, caFile string, now time.Time) (*x509.Certificate, []Problem) {
	var ps []Problem
	bad := func(format string, a ...any) { ps = append(ps, Problem{Kind: KindPKI, Msg: fmt.Sprintf(format, a...)}) }
	var ca *x509.Certificate
	if caFile != "" {
		var err error
		if ca, _, err = readCert(caFile); err != nil {
			bad("CA certificate: %v", err)
		} else {
			ps = append(ps, validity("CA certificate "+caFile, ca, now)...)
		}
	}
	cert, certPEM, err := readCert(certFile)
	if err != nil {
		bad("certificate: %v", err)
	}
	keyPEM, err := os.ReadFile(keyFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		bad("key %s is missing", keyFile)
	case err != nil:
		bad("key %s cannot be read: %v", keyFile, unwrapPath(err))
	default:
		if st, err := os.Stat(keyFile); err == nil && runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
			bad("key %s has mode %04o; the service refuses a key others can read (chmod 0600)", keyFile, st.Mode().Perm())
		}
		if cert != nil {
			if _, err := tls.X509KeyPair(certPEM, keyPEM); err != nil {
				bad("key %s does not belong to certificate %s (%v)", keyFile, certFile, err)
			}
		}
	}
	if cert == nil {
		return nil, ps
	}
	ps = append(ps, validity("certificate "+certFile, cert, now)...)
	if ca != nil {
		if err := cert.CheckSignatureFrom(ca); err != nil {
			bad("certificate %s is not signed by the CA in %s", certFile, caFile)
		}
	}
	return cert, ps
}

func validity(what string, c *x509.Certificate, now time.Time) []Problem {
	switch {
	case now.After(c.NotAfter):
		return []Problem{{Kind: KindPKI, Msg: fmt.Sprintf("%s expired on %s", what, c.NotAfter.UTC().Format(time.RFC3339))}}
	case now.Before(c.NotBefore):
		return []Problem{{Kind: KindPKI, Msg: fmt.Sprintf("%s is not valid before %s (check the clock)", what, c.NotBefore.UTC().Format(time.RFC3339))}}
	}
	return nil
}

// readCert reads the first certificate of a PEM file.
func readCert(path string) (*x509.Certificate, []byte, error) {
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, fmt.Errorf("%s is missing", path)
	case err != nil:
		return nil, nil, fmt.Errorf("%s cannot be read: %v", path, unwrapPath(err))
	}
	rest := b
	for {
		var blk *pem.Block
		blk, rest = pem.Decode(rest)
		if blk == nil {
			return nil, nil, fmt.Errorf("%s holds no PEM certificate", path)
		}
		if blk.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(blk.Bytes)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", path, err)
		}
		return c, b, nil
	}
}

// unwrapPath drops the path from an *fs.PathError (the message names it already).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
